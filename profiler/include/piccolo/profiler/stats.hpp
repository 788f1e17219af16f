#pragma once
// Robust statistics for timing samples: medians, MAD-based outlier rejection and a
// distribution-free confidence interval of the median (used as the stopping rule).

#include <cstddef>
#include <span>
#include <vector>

namespace piccolo::profiler {

// Median of a non-empty sample (mean of the two middle values for even sizes).
double median(std::span<const double> samples);

// Median absolute deviation from the median.
double median_absolute_deviation(std::span<const double> samples);

// Keeps the samples within `cutoff` robust standard deviations (1.4826 * MAD) of the median.
// Timing noise is one-sided in practice (interrupts, preemption), but the rule is symmetric so
// that it does not bias the median. When MAD is 0 (at least half the samples are identical) only
// the samples equal to the median are kept.
std::vector<double> reject_outliers(std::span<const double> samples, double cutoff = 3.5);

struct RobustSummary {
    double median = 0;
    double ci_low = 0;  // 95 % confidence interval of the median (order statistics)
    double ci_high = 0;
    std::size_t kept = 0;
    std::size_t rejected = 0;

    [[nodiscard]] double relative_ci_half_width() const {
        return median > 0 ? (ci_high - ci_low) / (2 * median) : 0;
    }
};

// Outlier rejection, then the median and its 95 % confidence interval from the order
// statistics of the kept samples (normal approximation of the binomial, e.g. Conover,
// "Practical Nonparametric Statistics", 3rd ed., sec. 3.2: ranks n/2 -+ 0.98 sqrt(n)).
RobustSummary summarize(std::span<const double> samples, double cutoff = 3.5);

// 1-based ranks of the order statistics bounding the 95 % confidence interval of the median of
// n samples: floor((n - 1.96 sqrt n) / 2) and ceil(1 + (n + 1.96 sqrt n) / 2), clamped to [1, n].
struct RankPair {
    std::size_t low = 1, high = 1;
};
RankPair median_ci_ranks(std::size_t n);

}  // namespace piccolo::profiler
