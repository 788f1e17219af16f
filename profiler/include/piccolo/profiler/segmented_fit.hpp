#pragma once
// Least-squares lines with lower bounds, and the optimal split of a curve into line segments
// (one segment per communication protocol: eager / rendezvous, NCCL LL / LL128 / Simple).

#include <cstddef>
#include <limits>
#include <span>
#include <vector>

namespace piccolo::profiler {

struct LineBounds {
    double min_intercept = -std::numeric_limits<double>::infinity();
    double min_slope = -std::numeric_limits<double>::infinity();
};

struct LineFit {
    double intercept = 0;
    double slope = 0;
    double weighted_sse = 0;  // sum of w * residual^2 at the optimum
    std::size_t points = 0;
    bool at_bound = false;  // a lower bound was active

    [[nodiscard]] double at(double x) const { return intercept + slope * x; }
    // Root mean square of the weighted residuals: with relative weights (w = 1/y^2) the RMS
    // relative residual.
    [[nodiscard]] double rms() const;
};

// Minimizes sum w_i (y_i - a - b x_i)^2 subject to a >= min_intercept, b >= min_slope.
LineFit fit_line(std::span<const double> x, std::span<const double> y, std::span<const double> w,
                 LineBounds bounds = {});

// Same with relative residuals: w_i = 1 / y_i^2 (|y_i| floored at 1e-12 to stay finite). Fits
// timing curves spanning decades of message size without letting the largest sizes dominate.
LineFit fit_line_relative(std::span<const double> x, std::span<const double> y,
                          LineBounds bounds = {});

// Relative residuals with the slope given: the best intercept (>= min_intercept) only.
LineFit fit_line_relative_fixed_slope(std::span<const double> x, std::span<const double> y,
                                      double slope, double min_intercept);

struct SegmentationOptions {
    int max_segments = 4;
    std::size_t min_points = 3;  // per segment
    // Relative noise below which improvements do not count (keeps exact data at one segment).
    double noise_floor = 0.002;
    // Penalty of one break point, in parameters. Its position is searched over all sizes, so
    // it buys more fit than one ordinary parameter would ("look-elsewhere" effect). 3 was
    // calibrated on synthetic data (tests/profiler/synthetic.hpp, 5% noise, 2% outliers,
    // 100 seeds): 1 split a straight line in 3-7% of the seeds, 3 in at most 1%, while a 44% jump
    // of g was still found in 98-100%; 5 missed that jump in 19% at 50 repetitions.
    double parameters_per_break = 3;
};

struct Piece {
    std::size_t first = 0, last = 0;  // inclusive indices into the points
};

struct Segmentation {
    std::vector<Piece> pieces;
    std::vector<double> sse_by_count;    // best total relative SSE with 1, 2, ... segments
    std::vector<double> score_by_count;  // the penalized criterion that chose among them
};

// Splits points sorted by x into contiguous pieces; every curve gets its own relative line
// fit in every piece and a piece costs the sum of their SSEs. For each segment count the
// break points minimizing the total SSE are found by dynamic programming; the count is then
// chosen by the Bayesian information criterion M ln(SSE/M) + p ln M (M residuals, p = 2 per
// line + parameters_per_break per break point), i.e. a penalty per extra segment.
Segmentation segment_curves(std::span<const double> x,
                            const std::vector<std::vector<double>>& curves,
                            const std::vector<LineBounds>& bounds,
                            const SegmentationOptions& options = {});

}  // namespace piccolo::profiler
