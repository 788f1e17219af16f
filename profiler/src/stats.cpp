#include "piccolo/profiler/stats.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace piccolo::profiler {

double median(std::span<const double> samples) {
    if (samples.empty()) throw std::invalid_argument("median of an empty sample");
    std::vector<double> sorted(samples.begin(), samples.end());
    const std::size_t mid = sorted.size() / 2;
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(mid),
                     sorted.end());
    const double upper = sorted[mid];
    if (sorted.size() % 2 == 1) return upper;
    const double lower =
        *std::max_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(mid));
    return (lower + upper) / 2;
}

double median_absolute_deviation(std::span<const double> samples) {
    const double center = median(samples);
    std::vector<double> deviations;
    deviations.reserve(samples.size());
    for (double x : samples) deviations.push_back(std::abs(x - center));
    return median(deviations);
}

std::vector<double> reject_outliers(std::span<const double> samples, double cutoff) {
    if (samples.empty()) return {};
    const double center = median(samples);
    // 1.4826 makes the MAD a consistent estimator of the standard deviation of normal data.
    const double robust_sigma = 1.4826 * median_absolute_deviation(samples);
    std::vector<double> kept;
    kept.reserve(samples.size());
    for (double x : samples) {
        if (std::abs(x - center) <= cutoff * robust_sigma) kept.push_back(x);
    }
    return kept;
}

RankPair median_ci_ranks(std::size_t n) {
    if (n == 0) return {};
    const double spread = 1.96 * std::sqrt(static_cast<double>(n));
    const double nd = static_cast<double>(n);
    const double low = std::floor((nd - spread) / 2);
    const double high = std::ceil(1 + (nd + spread) / 2);
    return {static_cast<std::size_t>(std::clamp(low, 1.0, nd)),
            static_cast<std::size_t>(std::clamp(high, 1.0, nd))};
}

RobustSummary summarize(std::span<const double> samples, double cutoff) {
    RobustSummary summary;
    if (samples.empty()) return summary;
    std::vector<double> kept = reject_outliers(samples, cutoff);
    std::sort(kept.begin(), kept.end());
    summary.kept = kept.size();
    summary.rejected = samples.size() - kept.size();
    summary.median = median(kept);
    const RankPair ranks = median_ci_ranks(kept.size());
    summary.ci_low = kept[ranks.low - 1];
    summary.ci_high = kept[ranks.high - 1];
    return summary;
}

}  // namespace piccolo::profiler
