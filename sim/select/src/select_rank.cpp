// Step 3 of the sweep: the best (algorithm, k) per (collective, scale, size), serially and in a
// fixed order. Ties follow select.hpp's rule: the fastest time t is found first; every candidate
// within a relative 1e-9 of t is equal to it, and among those the preference decides (baseline,
// fewer rounds, smaller k, registry order). Deciding against the exact minimum, not pairwise,
// keeps the choice independent of the order candidates are looked at.
#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <tuple>

#include "piccolo/schedules/task_count.hpp"
#include "select_sweep.hpp"

namespace piccolo::detail {

namespace {

using Entry = TimedCandidate;

class Ranking {
  public:
    Ranking(const Sweep& sweep, std::size_t c, std::size_t scale, std::size_t size)
        : sweep_(sweep), c_(c), scale_(scale), size_(size) {}

    PointSelection point() const {
        PointSelection point;
        point.collective = sweep_.collectives[c_];
        point.scale = sweep_.scales[scale_];
        point.bytes = sweep_.sizes[size_];
        std::vector<Entry> bests;           // per reported algorithm: its best k, if any
        std::vector<std::size_t> reported;  // index into Sweep::algorithms
        std::vector<Entry> baselines;
        for (std::size_t a = 0; a < sweep_.algorithms.size(); ++a) {
            const bool shown = sweep_.algorithms[a].reported_at(point.collective);
            const bool base = is_baseline(point.collective, sweep_.algorithms[a].info->name);
            if (!shown && !base) continue;  // not in the roster at this collective
            Entry best;
            AlgorithmOutcome o = outcome(a, best);
            if (o.available && base) baselines.push_back(best);
            if (!shown) continue;
            if (o.available) bests.push_back(best);
            reported.push_back(a);
            point.algorithms.push_back(std::move(o));
        }
        if (const Entry* winner = choose(bests)) {
            const auto at = std::find(reported.begin(), reported.end(), winner->algorithm);
            point.best = static_cast<int>(at - reported.begin());
            point.runner_up = runner_up(*winner, reported);
        }
        if (const Entry* base = choose(baselines)) {
            point.baseline = std::string(sweep_.algorithms[base->algorithm].info->name);
            point.baseline_time = base->time;
        }
        return point;
    }

  private:
    [[nodiscard]] const CandidateSet& candidates(std::size_t a) const {
        const Rank p = sweep_.scales[scale_].ranks();
        const auto p_index = static_cast<std::size_t>(
            std::find(sweep_.ranks.begin(), sweep_.ranks.end(), p) - sweep_.ranks.begin());
        return sweep_.sets[sweep_.set_index(c_, p_index, a)];
    }
    [[nodiscard]] double time(const Candidate& cand) const {
        return sweep_.time(cand.schedule, scale_, size_);
    }
    const Entry* choose(const std::vector<Entry>& entries) const {
        return choose_preferred(sweep_, sweep_.collectives[c_], entries);
    }

    // Could a candidate left out still be, or tie with, the simulated best of its algorithm (its
    // bound within the tolerance of that time, or nothing simulated)?
    static bool undecided(const std::vector<Entry>& bounded, const Entry* chosen) {
        return std::any_of(bounded.begin(), bounded.end(), [&](const Entry& e) {
            return !chosen || e.time <= chosen->time * (1 + equal_time_tolerance);
        });
    }

    // `best`: the entry of the chosen k, when the algorithm could run.
    AlgorithmOutcome outcome(std::size_t a, Entry& best) const {
        const AlgorithmInfo& info = *sweep_.algorithms[a].info;
        const CandidateSet& set = candidates(a);
        AlgorithmOutcome out;
        out.algorithm = std::string(info.name);
        out.has_radix = info.has_radix;
        std::vector<Entry> entries, bounded;  // bounded: left out, time = its lower bound
        for (const Candidate& cand : set.candidates) {
            const double t = time(cand);
            if (std::isnan(t)) {
                const double b = sweep_.bound(cand.schedule, scale_, size_);
                if (!std::isnan(b)) bounded.push_back({a, &cand, b});
                continue;
            }
            if (info.has_radix) out.candidates.emplace_back(cand.k, t);
            entries.push_back({a, &cand, t});
        }
        const Entry* chosen = choose(entries);
        if (undecided(bounded, chosen)) {
            // A k left out might be this algorithm's best: its best is not known, only that it
            // is neither the best nor the runner-up here.
            out.skipped =
                "not simulated: a lower bound on its time shows it is neither the best nor the "
                "runner-up";
            return out;
        }
        if (!chosen) {
            out.skipped = set.unavailable;
            if (out.skipped.empty() && !set.candidates.empty())
                out.skipped = not_run_here(info, set);
            return out;
        }
        best = *chosen;
        out.available = true;
        out.k = chosen->candidate->k;
        out.time = chosen->time;
        for (const Candidate& cand : set.candidates)
            if (cand.schedule == chosen->candidate->schedule && cand.k != out.k)
                out.same_schedule_k.push_back(cand.k);
        return out;
    }

    // Why an algorithm whose candidates all exist ran at none of them at this size. MPICH's
    // scatter (a ceil cut: scatter-rd, scatter-ring) leaves its last chunk empty below
    // p (p - 1) + 1 bytes, where its DAG changes with the size. Otherwise: below a byte per
    // segment it cannot run (p segments: ring, k-ring; rabenseifner's 2^floor(log2 p)); above,
    // only the symmetry reduction could run it (its full DAG is too large), at multiples of p.
    std::string not_run_here(const AlgorithmInfo& info, const CandidateSet& set) const {
        const auto p = static_cast<std::uint64_t>(sweep_.scales[scale_].ranks());
        if (info.cut == Cut::ceil)
            return fmt::format(
                "MPICH's scatter leaves the last of its p = {} chunks of ceil(n/p) bytes "
                "empty at this size (below p (p - 1) + 1 bytes its DAG changes with the size)",
                p);
        const std::uint64_t pieces =
            count_tasks({sweep_.collectives[c_], std::string(info.name), set.candidates.front().k,
                         static_cast<Rank>(p), std::max<std::uint64_t>(1024, p), false})
                .pieces;
        const std::uint64_t bytes = sweep_.sizes[size_];
        if (pieces > 1 && pieces < p && bytes < pieces)
            return fmt::format("needs at least {} bytes (the buffer is cut into {} segments)",
                               pieces, pieces);
        if (bytes < p)
            return fmt::format("needs at least p = {} bytes (the vector is cut into p segments)",
                               p);
        return fmt::format(
            "runs only at vector sizes that are multiples of p = {} here (see the note)", p);
    }

    // The best candidate of another reported algorithm that runs a different schedule (prd and
    // prm with k = 2 are one DAG under two names: not an alternative to each other).
    std::optional<Choice> runner_up(const Entry& winner,
                                    const std::vector<std::size_t>& reported) const {
        std::vector<Entry> others;
        for (std::size_t a : reported) {
            if (a == winner.algorithm) continue;
            for (const Candidate& cand : candidates(a).candidates) {
                const double t = time(cand);
                if (!std::isnan(t) && cand.schedule != winner.candidate->schedule)
                    others.push_back({a, &cand, t});
            }
        }
        const Entry* second = choose(others);
        if (!second) return std::nullopt;
        const AlgorithmInfo& info = *sweep_.algorithms[second->algorithm].info;
        return Choice{std::string(info.name), info.has_radix, second->candidate->k, second->time};
    }

    const Sweep& sweep_;
    std::size_t c_, scale_, size_;
};

}  // namespace

bool is_baseline(Collective collective, std::string_view algorithm) {
    const std::span<const char* const> names = baseline_algorithms_of(collective);
    return std::find(names.begin(), names.end(), algorithm) != names.end();
}

const TimedCandidate* choose_preferred(const Sweep& sweep, Collective collective,
                                       std::span<const TimedCandidate> entries) {
    if (entries.empty()) return nullptr;
    double fastest = entries.front().time;
    for (const TimedCandidate& e : entries) fastest = std::min(fastest, e.time);
    const TimedCandidate* chosen = nullptr;
    for (const TimedCandidate& e : entries)
        if (e.time <= fastest + equal_time_tolerance * fastest &&
            (!chosen ||
             preference_of(sweep, collective, e.algorithm, *e.candidate) <
                 preference_of(sweep, collective, chosen->algorithm, *chosen->candidate)))
            chosen = &e;
    return chosen;
}

Preference preference_of(const Sweep& sweep, Collective collective, std::size_t algorithm,
                         const Candidate& candidate) {
    const std::string_view name = sweep.algorithms[algorithm].info->name;
    const auto all = algorithms();
    std::size_t registry_order = 0;
    while (registry_order < all.size() && all[registry_order].name != name) ++registry_order;
    return {!is_baseline(collective, name), sweep.rounds[candidate.schedule], candidate.k, registry_order};
}

void rank_sweep(const Sweep& sweep, SelectResult& result) {
    result.collectives = sweep.collectives;
    for (const SweptAlgorithm& a : sweep.algorithms)
        if (a.reported != 0) result.algorithms.emplace_back(a.info->name);
    result.scales = sweep.scales;
    result.sizes = sweep.sizes;
    result.points.reserve(sweep.collectives.size() * sweep.scales.size() * sweep.sizes.size());
    for (std::size_t c = 0; c < sweep.collectives.size(); ++c)
        for (std::size_t s = 0; s < sweep.scales.size(); ++s)
            for (std::size_t z = 0; z < sweep.sizes.size(); ++z)
                result.points.push_back(Ranking(sweep, c, s, z).point());
}

std::uint32_t transfer_rounds(const Schedule& schedule) {
    std::vector<std::uint32_t> depth(schedule.size(), 0);
    std::uint32_t deepest = 0;
    for (TaskId t = 0; t < schedule.size(); ++t) {
        std::uint32_t d = 0;
        for (TaskId dep : schedule.deps.row(t)) d = std::max(d, depth[dep]);
        for (TaskId dep : schedule.sent_deps_of(t)) d = std::max(d, depth[dep]);
        depth[t] = d + (schedule.kind[t] == TaskKind::transfer ? 1 : 0);
        deepest = std::max(deepest, depth[t]);
    }
    return deepest;
}

}  // namespace piccolo::detail
