#include "piccolo/profiler/segmented_fit.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace piccolo::profiler {
namespace {

struct WeightedSums {
    double w = 0, wx = 0, wy = 0, wxx = 0, wxy = 0;
};

double weighted_sse(std::span<const double> x, std::span<const double> y, std::span<const double> w,
                    double a, double b) {
    double sse = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double r = y[i] - a - b * x[i];
        sse += w[i] * r * r;
    }
    return sse;
}

// Best slope for a fixed intercept and best intercept for a fixed slope (1-D problems).
double slope_given_intercept(const WeightedSums& s, double a) {
    return s.wxx > 0 ? (s.wxy - a * s.wx) / s.wxx : 0;
}
double intercept_given_slope(const WeightedSums& s, double b) {
    return s.w > 0 ? (s.wy - b * s.wx) / s.w : 0;
}

}  // namespace

double LineFit::rms() const {
    return points > 0 ? std::sqrt(weighted_sse / static_cast<double>(points)) : 0;
}

LineFit fit_line(std::span<const double> x, std::span<const double> y, std::span<const double> w,
                 LineBounds bounds) {
    if (x.size() != y.size() || x.size() != w.size()) {
        throw std::invalid_argument("fit_line: x, y and w differ in length");
    }
    LineFit fit;
    fit.points = x.size();
    if (x.empty()) return fit;
    WeightedSums s;
    for (std::size_t i = 0; i < x.size(); ++i) {
        s.w += w[i];
        s.wx += w[i] * x[i];
        s.wy += w[i] * y[i];
        s.wxx += w[i] * x[i] * x[i];
        s.wxy += w[i] * x[i] * y[i];
    }
    // Centered normal equations: fewer cancellations than the raw ones when x spans decades.
    const double mean_x = s.wx / s.w;
    const double mean_y = s.wy / s.w;
    double sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        sxx += w[i] * (x[i] - mean_x) * (x[i] - mean_x);
        sxy += w[i] * (x[i] - mean_x) * (y[i] - mean_y);
    }
    double b = sxx > 0 ? sxy / sxx : 0;
    double a = mean_y - b * mean_x;
    if (a >= bounds.min_intercept && b >= bounds.min_slope) {
        fit.intercept = a;
        fit.slope = b;
        fit.weighted_sse = weighted_sse(x, y, w, a, b);
        return fit;
    }
    // The constrained optimum of a convex quadratic lies on an active bound: try both edges
    // (each optimized in 1-D and clamped) and keep the better one.
    fit.at_bound = true;
    const double edge_a = bounds.min_intercept;
    const double edge_a_slope = std::isfinite(edge_a)
                                    ? std::max(bounds.min_slope, slope_given_intercept(s, edge_a))
                                    : bounds.min_slope;
    const double edge_b = bounds.min_slope;
    const double edge_b_intercept =
        std::isfinite(edge_b) ? std::max(bounds.min_intercept, intercept_given_slope(s, edge_b))
                              : bounds.min_intercept;
    double best_sse = std::numeric_limits<double>::infinity();
    auto consider = [&](double ca, double cb) {
        if (!std::isfinite(ca) || !std::isfinite(cb)) return;
        const double sse = weighted_sse(x, y, w, ca, cb);
        if (sse < best_sse) {
            best_sse = sse;
            fit.intercept = ca;
            fit.slope = cb;
        }
    };
    consider(edge_a, edge_a_slope);
    consider(edge_b_intercept, edge_b);
    fit.weighted_sse = best_sse;
    return fit;
}

LineFit fit_line_relative(std::span<const double> x, std::span<const double> y, LineBounds bounds) {
    std::vector<double> w(y.size());
    for (std::size_t i = 0; i < y.size(); ++i) {
        const double magnitude = std::max(std::abs(y[i]), 1e-12);
        w[i] = 1 / (magnitude * magnitude);
    }
    return fit_line(x, y, w, bounds);
}

LineFit fit_line_relative_fixed_slope(std::span<const double> x, std::span<const double> y,
                                      double slope, double min_intercept) {
    std::vector<double> w(y.size());
    double sw = 0, swr = 0;
    for (std::size_t i = 0; i < y.size(); ++i) {
        const double magnitude = std::max(std::abs(y[i]), 1e-12);
        w[i] = 1 / (magnitude * magnitude);
        sw += w[i];
        swr += w[i] * (y[i] - slope * x[i]);
    }
    LineFit fit;
    fit.points = x.size();
    fit.slope = slope;
    fit.intercept = sw > 0 ? swr / sw : 0;
    if (fit.intercept < min_intercept) {
        fit.intercept = min_intercept;
        fit.at_bound = true;
    }
    fit.weighted_sse = weighted_sse(x, y, w, fit.intercept, slope);
    return fit;
}

namespace {

// cost[i][j]: the total relative SSE of every curve fitted on points i..j (infinite where the
// piece has fewer than min_points points).
std::vector<std::vector<double>> piece_costs(std::span<const double> x,
                                             const std::vector<std::vector<double>>& curves,
                                             const std::vector<LineBounds>& bounds,
                                             std::size_t min_points) {
    const std::size_t n = x.size();
    std::vector<std::vector<double>> cost(
        n, std::vector<double>(n, std::numeric_limits<double>::infinity()));
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = i + min_points - 1; j < n; ++j) {
            double total = 0;
            for (std::size_t c = 0; c < curves.size(); ++c) {
                const std::span<const double> ys(curves[c]);
                total +=
                    fit_line_relative(x.subspan(i, j - i + 1), ys.subspan(i, j - i + 1), bounds[c])
                        .weighted_sse;
            }
            cost[i][j] = total;
        }
    }
    return cost;
}

}  // namespace

Segmentation segment_curves(std::span<const double> x,
                            const std::vector<std::vector<double>>& curves,
                            const std::vector<LineBounds>& bounds,
                            const SegmentationOptions& options) {
    const std::size_t n = x.size();
    if (curves.empty() || bounds.size() != curves.size()) {
        throw std::invalid_argument("segment_curves: one bound per curve needed");
    }
    for (const auto& c : curves) {
        if (c.size() != n) throw std::invalid_argument("segment_curves: curve length differs");
    }
    Segmentation result;
    if (n == 0) return result;
    const std::size_t min_points = std::max<std::size_t>(options.min_points, 2);
    if (n < 2 * min_points || options.max_segments <= 1) {
        result.pieces.push_back({0, n - 1});
        return result;
    }

    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<std::vector<double>> cost = piece_costs(x, curves, bounds, min_points);
    const auto max_k =
        std::min<std::size_t>(static_cast<std::size_t>(options.max_segments), n / min_points);
    // best[k][j]: minimal cost of covering points 0..j with k+1 pieces; start[k][j]: first
    // index of the last of those pieces.
    std::vector<std::vector<double>> best(max_k, std::vector<double>(n, inf));
    std::vector<std::vector<std::size_t>> start(max_k, std::vector<std::size_t>(n, 0));
    for (std::size_t j = 0; j < n; ++j) best[0][j] = cost[0][j];
    for (std::size_t k = 1; k < max_k; ++k) {
        for (std::size_t j = 0; j < n; ++j) {
            for (std::size_t i = 1; i <= j; ++i) {
                const double candidate = best[k - 1][i - 1] + cost[i][j];
                if (candidate < best[k][j]) {
                    best[k][j] = candidate;
                    start[k][j] = i;
                }
            }
        }
    }

    const double residuals = static_cast<double>(n * curves.size());
    const double sse_floor = residuals * options.noise_floor * options.noise_floor;
    std::size_t chosen = 0;
    double best_score = inf;
    for (std::size_t k = 0; k < max_k; ++k) {
        const double sse = best[k][n - 1];
        result.sse_by_count.push_back(sse);
        if (!std::isfinite(sse)) {
            result.score_by_count.push_back(inf);
            continue;
        }
        const double segments = static_cast<double>(k + 1);
        const double parameters = 2 * static_cast<double>(curves.size()) * segments +
                                  options.parameters_per_break * (segments - 1);
        const double score = residuals * std::log(std::max(sse, sse_floor) / residuals) +
                             parameters * std::log(residuals);
        result.score_by_count.push_back(score);
        if (score < best_score) {
            best_score = score;
            chosen = k;
        }
    }
    std::size_t j = n - 1;
    for (std::size_t k = chosen + 1; k-- > 0;) {
        const std::size_t i = k == 0 ? 0 : start[k][j];
        result.pieces.push_back({i, j});
        if (k > 0) j = i - 1;
    }
    std::reverse(result.pieces.begin(), result.pieces.end());
    return result;
}

}  // namespace piccolo::profiler
