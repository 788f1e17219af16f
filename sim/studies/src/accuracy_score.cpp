// Predicting the measured candidates with the engine, and scoring the predictions: best by
// measurement vs best by prediction per (collective, size), rank correlation, geometric means.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <tuple>

#include "piccolo/core/error.hpp"
#include "piccolo/engine/engine.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/studies/accuracy.hpp"

namespace piccolo {

namespace {

constexpr double kNoisyRelativeHalfWidth = 0.10;  // a CI wider than +-10 % of the median

// A time that jumps against its neighbours in size: slower than at a larger size by more than 2x,
// or more than 20x slower per doubling than at the size below (protocol switches stay near 6x).
// Such a time holds scheduler time slices (milliseconds), not the network.
std::size_t jumps_in_size(const Measurement& m) {
    std::map<std::tuple<Collective, std::string, int, std::string>,
             std::vector<std::pair<std::uint64_t, double>>>
        series;
    for (const MeasuredRow& r : m.candidates)
        series[{r.collective, r.algorithm, r.k, r.style}].emplace_back(r.bytes, r.median_s);
    std::size_t jumps = 0;
    for (auto& [candidate, points] : series) {
        std::sort(points.begin(), points.end());
        for (std::size_t i = 1; i < points.size(); ++i) {
            const auto [small_bytes, small_s] = points[i - 1];
            const auto [large_bytes, large_s] = points[i];
            const double doublings =
                std::log2(static_cast<double>(large_bytes) / static_cast<double>(small_bytes));
            if (small_s > 2 * large_s || large_s > small_s * std::pow(20.0, doublings)) ++jumps;
        }
    }
    return jumps;
}

std::vector<std::string> noise_reasons(const Measurement& m) {
    std::vector<std::string> out;
    if (m.ranks_per_host > 0 && m.cores_per_host > 0 && m.ranks_per_host > m.cores_per_host)
        out.push_back(fmt::format(
            "{} ranks on a host with {} cores: ranks take turns on the cores (oversubscribed), "
            "so times include waiting for a core",
            m.ranks_per_host, m.cores_per_host));
    std::size_t wide = 0;
    for (const MeasuredRow& r : m.candidates)
        if (r.ci_high_s - r.ci_low_s > 2 * kNoisyRelativeHalfWidth * r.median_s) ++wide;
    if (wide > 0)
        out.push_back(fmt::format(
            "{} of {} candidates have a 95 % confidence interval wider than +-{:.0f} % of "
            "the median",
            wide, m.candidates.size(), kNoisyRelativeHalfWidth * 100));
    if (const std::size_t jumps = jumps_in_size(m); jumps > 0)
        out.push_back(fmt::format(
            "{} time(s) jump against the same candidate at the next size (over 2x slower than "
            "at a larger size, or over 20x per doubling): the ranks lost scheduler time slices",
            jumps));
    return out;
}

SizeScore score_size(const Measurement& m, Collective collective, std::uint64_t bytes,
                     std::span<const double> predicted) {
    SizeScore s;
    s.collective = collective;
    s.bytes = bytes;
    for (std::size_t i = 0; i < m.candidates.size(); ++i) {
        const MeasuredRow& r = m.candidates[i];
        if (r.collective == collective && r.bytes == bytes)
            s.candidates.push_back({i, r.median_s, predicted[i]});
    }
    for (std::size_t i = 1; i < s.candidates.size(); ++i) {
        if (s.candidates[i].measured_s < s.candidates[s.measured_best].measured_s)
            s.measured_best = i;
        if (s.candidates[i].predicted_s < s.candidates[s.predicted_best].predicted_s)
            s.predicted_best = i;
    }
    const MeasuredRow& best = m.candidates[s.candidates[s.measured_best].row];
    const MeasuredRow& chosen = m.candidates[s.candidates[s.predicted_best].row];
    s.captured = best.median_s / chosen.median_s;
    s.within_noise = chosen.ci_low_s <= best.ci_high_s;
    std::vector<double> measured, predicted_times;
    for (const CandidateScore& c : s.candidates) {
        measured.push_back(c.measured_s);
        predicted_times.push_back(c.predicted_s);
    }
    s.spearman = spearman(predicted_times, measured);
    for (const MeasuredRow& r : m.library)
        if (r.collective == collective && r.bytes == bytes) s.library_s = r.median_s;
    return s;
}

}  // namespace

std::vector<double> average_ranks(std::span<const double> values) {
    std::vector<std::size_t> order(values.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
    std::vector<double> ranks(values.size());
    for (std::size_t first = 0; first < order.size();) {
        std::size_t last = first;  // the tie group is order[first..last]
        while (last + 1 < order.size() && values[order[last + 1]] == values[order[first]]) ++last;
        const double mean_rank = (static_cast<double>(first + last) / 2) + 1;
        for (std::size_t i = first; i <= last; ++i) ranks[order[i]] = mean_rank;
        first = last + 1;
    }
    return ranks;
}

double spearman(std::span<const double> a, std::span<const double> b) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (a.size() != b.size() || a.size() < 2) return nan;
    const std::vector<double> ra = average_ranks(a), rb = average_ranks(b);
    const double mean = (static_cast<double>(a.size()) + 1) / 2;  // of ranks 1..n, ties or not
    double cov = 0, var_a = 0, var_b = 0;
    for (std::size_t i = 0; i < ra.size(); ++i) {
        cov += (ra[i] - mean) * (rb[i] - mean);
        var_a += (ra[i] - mean) * (ra[i] - mean);
        var_b += (rb[i] - mean) * (rb[i] - mean);
    }
    if (var_a == 0 || var_b == 0) return nan;
    return cov / std::sqrt(var_a * var_b);
}

double geometric_mean(std::span<const double> values) {
    if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
    double log_sum = 0;
    for (double v : values) log_sum += std::log(v);
    return std::exp(log_sum / static_cast<double>(values.size()));
}

std::vector<double> predict_candidates(const Measurement& m, const Machine& machine) {
    if (m.ranks_per_node <= 0 || m.nodes * m.ranks_per_node != m.ranks)
        throw InputError(fmt::format(
            "{}: {} ranks on {} nodes of unequal size; piccolo simulates nodes of equal size "
            "(measure with --node-size, or on nodes of equal size)",
            m.origin, m.ranks, m.nodes));
    const RankLayout layout(machine, m.nodes, m.ranks_per_node);
    std::vector<double> out;
    out.reserve(m.candidates.size());
    for (const MeasuredRow& r : m.candidates) {
        // Payload where a level prices reclaim: it says which reductions write sent data.
        GenerateRequest request{r.collective,           r.algorithm,          r.k,   m.ranks,
                                r.bytes,                prices_reclaim(machine), parse_style(r.style),
                                m.root};
        try {
            out.push_back(simulate(generate(request), machine, layout).makespan);
        } catch (const InputError& e) {
            throw InputError(fmt::format("{}:{}: {}", m.origin, r.line, e.what()));
        }
    }
    return out;
}

AccuracyReport score_accuracy(Measurement m, std::span<const double> predicted) {
    AccuracyReport r;
    if (predicted.size() != m.candidates.size())
        throw InputError(
            fmt::format("{} predictions for {} candidates", predicted.size(), m.candidates.size()));
    for (const Collective collective : all_collectives) {
        std::vector<std::uint64_t> sizes;
        for (const MeasuredRow& row : m.candidates)
            if (row.collective == collective) sizes.push_back(row.bytes);
        std::sort(sizes.begin(), sizes.end());
        sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
        std::vector<double> captured;
        for (std::uint64_t bytes : sizes) {
            r.sizes.push_back(score_size(m, collective, bytes, predicted));
            captured.push_back(r.sizes.back().captured);
        }
        if (!captured.empty())
            r.geomean_by_collective.emplace_back(collective, geometric_mean(captured));
    }
    std::vector<double> all;
    for (const SizeScore& s : r.sizes) all.push_back(s.captured);
    r.geomean = geometric_mean(all);
    r.noise = noise_reasons(m);
    r.measurement = std::move(m);
    return r;
}

}  // namespace piccolo
