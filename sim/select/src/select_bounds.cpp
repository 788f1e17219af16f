// Which simulations of a large candidate a lower bound can leave out (select.hpp,
// bound_min_tasks; docs/bounds.md, "In the selector"). Decided from the times of every smaller
// candidate, all simulated first, so the choice does not depend on threads or timing.
#include <algorithm>
#include <cmath>
#include <limits>

#include "select_job.hpp"
#include "select_sweep.hpp"

namespace piccolo::detail {

namespace {

// A simulated candidate and the timing hash of its schedule.
struct Timed {
    TimedCandidate entry;
    TimingHash hash;
};

// Surely different schedules, even after identical DAGs merge (which needs equal hashes and
// equal times everywhere).
bool different_schedules(const Timed& a, const Timed& b) {
    return !(a.hash == b.hash) || a.entry.time != b.entry.time;
}

// The entry the ranking would choose among `entries`, or null.
const Timed* choose(const Sweep& sweep, Collective collective, const std::vector<Timed>& entries) {
    std::vector<TimedCandidate> plain;
    plain.reserve(entries.size());
    for (const Timed& e : entries) plain.push_back(e.entry);
    const TimedCandidate* chosen = choose_preferred(sweep, collective, plain);
    return chosen ? &entries[static_cast<std::size_t>(chosen - plain.data())] : nullptr;
}

// Large candidates left out have a bound above the threshold, so none of them is the best, ties
// with it, or changes which k an algorithm in the running offers: the best is the one the
// ranking picks from the candidates simulated here (each algorithm's preferred k, then the
// preferred algorithm), known now. The threshold is the fastest time of a candidate of another
// algorithm and schedule: the runner-up takes at most that, so a candidate whose bound is above
// it (beyond the tolerance) is neither the runner-up nor tied with it. Infinity when there is
// no such candidate.
double runner_up_limit(const Sweep& sweep, Collective collective,
                       const std::vector<Timed>& entries) {
    std::vector<Timed> bests;
    for (std::size_t a = 0; a < sweep.algorithms.size(); ++a) {
        std::vector<Timed> of_algorithm;
        for (const Timed& e : entries)
            if (e.entry.algorithm == a) of_algorithm.push_back(e);
        if (const Timed* chosen = choose(sweep, collective, of_algorithm))
            bests.push_back(*chosen);
    }
    const Timed* best = choose(sweep, collective, bests);
    double limit = std::numeric_limits<double>::infinity();
    if (!best) return limit;
    for (const Timed& e : entries)
        if (e.entry.algorithm != best->entry.algorithm && different_schedules(e, *best))
            limit = std::min(limit, e.entry.time);
    return limit;
}

}  // namespace

std::vector<double> bound_thresholds(const Sweep& sweep, std::span<const TimingHash> hashes) {
    std::vector<double> thresholds;
    for (std::size_t c = 0; c < sweep.collectives.size(); ++c)
        for (std::size_t scale = 0; scale < sweep.scales.size(); ++scale) {
            const auto p = static_cast<std::size_t>(
                std::find(sweep.ranks.begin(), sweep.ranks.end(), sweep.scales[scale].ranks()) -
                sweep.ranks.begin());
            for (std::size_t z = 0; z < sweep.sizes.size(); ++z) {
                std::vector<Timed> entries;
                for (std::size_t a = 0; a < sweep.algorithms.size(); ++a) {
                    if (!sweep.algorithms[a].reported_at(sweep.collectives[c])) continue;
                    for (const Candidate& cand : sweep.sets[sweep.set_index(c, p, a)].candidates)
                        if (const double t = sweep.time(cand.schedule, scale, z); !std::isnan(t))
                            entries.push_back({{a, &cand, t}, hashes[cand.schedule]});
                }
                thresholds.push_back(runner_up_limit(sweep, sweep.collectives[c], entries) *
                                     (1 + 3 * equal_time_tolerance));
            }
        }
    return thresholds;
}

bool mark_scouted(const Sweep& sweep, std::span<Job> jobs) {
    bool any = false;
    for (Job& job : jobs) {
        if (!job.bounded || job.left_out) continue;
        const auto& candidates =
            sweep.sets[sweep.set_index(job.collective, job.p_index, job.algorithm)].candidates;
        // A plain job of another algorithm (rm with k = 2 is rd's DAG) times only that one k.
        job.scouted = std::all_of(candidates.begin(), candidates.end(), [&](const Candidate& x) {
            return jobs[x.schedule].bounded || jobs[x.schedule].algorithm != job.algorithm;
        });
        any = any || job.scouted;
    }
    return any;
}

void mark_scouts(const Sweep& sweep, std::span<Job> jobs, std::span<const double> prebounds) {
    const std::size_t points = sweep.scales.size() * sweep.sizes.size();
    std::vector<std::size_t> scouted;
    for (std::size_t u = 0; u < jobs.size(); ++u)
        if (jobs[u].scouted) scouted.push_back(u);
    for (std::size_t u : scouted)
        for (std::size_t i = 0; i < points; ++i) {
            const double mine = prebounds[u * points + i];
            if (std::isnan(mine)) continue;
            const bool smallest = std::none_of(scouted.begin(), scouted.end(), [&](std::size_t v) {
                const double other = prebounds[v * points + i];
                return v != u && jobs[v].collective == jobs[u].collective &&
                       jobs[v].p_index == jobs[u].p_index &&
                       jobs[v].algorithm == jobs[u].algorithm &&
                       (other < mine || (other == mine && v < u));
            });
            if (smallest) jobs[u].stage = 1;
        }
}

double own_best(const Sweep& sweep, std::span<const Job> jobs, std::size_t u, std::size_t scale,
                std::size_t z, std::span<const char> alone) {
    const std::size_t c = jobs[u].collective, p = jobs[u].p_index;
    double most = 0;
    for (std::size_t a = 0; a < sweep.algorithms.size(); ++a) {
        const auto& candidates = sweep.sets[sweep.set_index(c, p, a)].candidates;
        if (std::none_of(candidates.begin(), candidates.end(),
                         [&](const Candidate& x) { return x.schedule == u; }))
            continue;
        double best = std::numeric_limits<double>::infinity();
        for (const Candidate& x : candidates)  // finished jobs only: no races
            if (jobs[x.schedule].stage < jobs[u].stage && (alone.empty() || alone[x.schedule]))
                if (const double t = sweep.time(x.schedule, scale, z); !std::isnan(t))
                    best = std::min(best, t);
        most = std::max(most, best * (1 + 3 * equal_time_tolerance));
    }
    return most;
}

std::vector<char> alone_jobs(const Sweep& sweep, std::span<const Job> jobs) {
    std::vector<char> alone(jobs.size(), 0);
    for (std::size_t v = 0; v < jobs.size(); ++v) {
        if (!jobs[v].hashed) continue;
        const std::size_t c = jobs[v].collective, p = jobs[v].p_index;
        bool differs = true;
        for (std::size_t a = 0; a < sweep.algorithms.size() && differs; ++a) {
            if (a == jobs[v].algorithm) continue;
            for (const Candidate& w : sweep.sets[sweep.set_index(c, p, a)].candidates) {
                const Job& other = jobs[w.schedule];
                const bool no_times = !other.error.empty();  // never merged
                // A job not generated yet (a later stage's) may still be v's DAG only where
                // their task counts are equal.
                const bool may_merge = same_task_counts(other, jobs[v]) &&
                                       (!other.hashed || other.hash == jobs[v].hash);
                if (w.schedule == v || (!no_times && may_merge)) {
                    differs = false;
                    break;
                }
            }
        }
        alone[v] = differs ? 1 : 0;
    }
    return alone;
}

}  // namespace piccolo::detail
