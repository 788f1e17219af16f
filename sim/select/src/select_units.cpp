// Steps on the sweep's units between simulating and ranking (select_unit.hpp).
#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <cstring>

#include "piccolo/core/error.hpp"
#include "piccolo/select/select_text.hpp"
#include "select_memory.hpp"
#include "select_unit.hpp"

namespace piccolo::detail {

namespace {

// Equal wherever both ran; where a bound left one out, the other's time is not compared (a
// bounded unit can be a baseline's DAG under another name: k-ring with k = p is ring).
bool same_times(const Sweep& sweep, std::size_t a, std::size_t b) {
    const std::size_t points = sweep.scales.size() * sweep.sizes.size();
    for (std::size_t i = 0; i < points; ++i) {
        const double x = sweep.times[a * points + i], y = sweep.times[b * points + i];
        const bool bounded =
            !std::isnan(sweep.bounds[a * points + i]) || !std::isnan(sweep.bounds[b * points + i]);
        if (!bounded && std::memcmp(&x, &y, sizeof(double)) != 0) return false;
    }
    return true;
}

// Unit `to` is the same DAG as `from`: where a bound left `to` out and `from` ran, it takes the
// time (the candidates of both then read `to`'s).
void take_times(Sweep& sweep, std::size_t from, std::size_t to) {
    const std::size_t points = sweep.scales.size() * sweep.sizes.size();
    for (std::size_t i = 0; i < points; ++i)
        if (std::isnan(sweep.times[to * points + i]) &&
            !std::isnan(sweep.times[from * points + i])) {
            sweep.times[to * points + i] = sweep.times[from * points + i];
            sweep.bounds[to * points + i] = not_run;
        }
}

// Every valid k is the default, and at tens of thousands of ranks the largest k plan all-to-all
// rounds of billions of tasks: a unit that only default k of a non-baseline algorithm with k
// stand for may be left out (and said so) instead of refusing the sweep.
bool may_leave_out(const Sweep& sweep, std::span<const Unit> units, std::size_t u,
                   const SelectRequest& request) {
    if (!request.radices.empty()) return false;
    const Unit& unit = units[u];
    for (std::size_t a = 0; a < sweep.algorithms.size(); ++a) {
        const AlgorithmInfo& info = *sweep.algorithms[a].info;
        for (const Candidate& x :
             sweep.sets[sweep.set_index(unit.collective, unit.p_index, a)].candidates)
            if (x.schedule == u &&
                (!info.has_radix || is_baseline(sweep.collectives[unit.collective], info.name)))
                return false;
    }
    return true;
}

// No job: its candidates fail as generate() refusals do (merge_identical drops them).
void leave_out(Unit& unit, std::uint64_t room) {
    unit.error = fmt::format(
        "not simulated: needs about {} of memory, more than the {} the budget leaves; raise "
        "--memory-budget",
        format_memory(unit.estimate), format_memory(room));
    unit.left_out = true;
    unit.runs = unit.work = 0;
    unit.bounded = false;
}

}  // namespace

std::uint64_t job_budget(const Sweep& sweep, std::span<Unit> units, const SelectRequest& request) {
    const bool given = request.memory_budget > 0;
    const std::uint64_t budget = given ? request.memory_budget : default_memory_budget();
    const std::string origin = given ? "" : " (the default: half of the memory available now)";
    const std::uint64_t held = resident_bytes();
    if (held >= budget)
        throw InputError(fmt::format(
            "--memory-budget: the budget of {}{} is less than the {} piccolo holds before the "
            "sweep starts; raise --memory-budget",
            format_memory(budget), origin, format_memory(held)));
    for (std::size_t u = 0; u < units.size(); ++u) {
        Unit& unit = units[u];
        if (unit.estimate <= budget - held) continue;
        if (may_leave_out(sweep, units, u, request)) {
            leave_out(unit, budget - held);
            continue;
        }
        const AlgorithmInfo& info = *sweep.algorithms[unit.algorithm].info;
        throw InputError(fmt::format(
            "--memory-budget: {} {}{} at p = {} needs about {} ({} tasks), more than the budget "
            "of {}{} leaves beside the {} piccolo holds; raise --memory-budget, or leave it out "
            "with --algorithms or -k, or use fewer --nodes",
            to_string(sweep.collectives[unit.collective]), info.name,
            info.has_radix ? fmt::format(" with k = {}", unit.k) : "", sweep.ranks[unit.p_index],
            format_memory(unit.estimate), unit.counts.tasks(), format_memory(budget), origin,
            format_memory(held)));
    }
    return budget - held;
}

std::vector<std::string> left_out_notes(const Sweep& sweep, std::span<const Unit> units) {
    std::vector<std::string> notes;
    for (std::size_t c = 0; c < sweep.collectives.size(); ++c)
        for (std::size_t p = 0; p < sweep.ranks.size(); ++p)
            for (std::size_t a = 0; a < sweep.algorithms.size(); ++a) {
                std::vector<int> ks;
                std::uint64_t largest = 0;
                for (const Candidate& x : sweep.sets[sweep.set_index(c, p, a)].candidates)
                    if (units[x.schedule].left_out) {
                        ks.push_back(x.k);
                        largest = std::max(largest, units[x.schedule].estimate);
                    }
                if (ks.empty()) continue;
                notes.push_back(fmt::format(
                    "{} {} at p = {}: k = {} not simulated: more memory than the budget allows "
                    "(up to about {}); raise --memory-budget or choose k with -k",
                    to_string(sweep.collectives[c]), sweep.algorithms[a].info->name, sweep.ranks[p],
                    k_list_label(ks), format_memory(largest)));
            }
    return notes;
}

std::size_t merge_identical(Sweep& sweep, std::span<const Unit> units) {
    std::vector<std::size_t> same(units.size());
    std::size_t distinct = 0;
    for (std::size_t u = 0; u < units.size(); ++u) {
        same[u] = u;
        const Unit& unit = units[u];
        for (std::size_t v = 0; v < u && unit.error.empty(); ++v) {
            const Unit& other = units[v];
            if (same[v] == v && other.error.empty() && other.collective == unit.collective &&
                other.p_index == unit.p_index && same_task_counts(other, unit) &&
                other.hash == unit.hash && sweep.rounds[v] == sweep.rounds[u] &&
                same_times(sweep, u, v)) {
                same[u] = v;
                take_times(sweep, u, v);
                break;
            }
        }
        distinct += same[u] == u && unit.error.empty() ? 1 : 0;
    }
    for (CandidateSet& set : sweep.sets) {
        std::vector<Candidate> kept;
        for (Candidate candidate : set.candidates) {
            const Unit& unit = units[candidate.schedule];
            if (!unit.error.empty()) {
                if (set.unavailable.empty()) set.unavailable = unit.error;
                continue;
            }
            candidate.schedule = same[candidate.schedule];
            kept.push_back(candidate);
        }
        set.candidates = std::move(kept);
        if (!set.candidates.empty()) set.unavailable.clear();
    }
    return distinct;
}

std::vector<JobCost> costliest_jobs(const Sweep& sweep, std::span<const Unit> units,
                                    std::size_t count) {
    std::vector<JobCost> jobs;
    for (const Unit& unit : units) {
        const AlgorithmInfo& info = *sweep.algorithms[unit.algorithm].info;
        jobs.push_back({candidate_label(sweep.collectives[unit.collective], info.name,
                                        info.has_radix, unit.k, sweep.ranks[unit.p_index]),
                        unit.generate_seconds, unit.bound_seconds, unit.simulate_seconds,
                        unit.runs - unit.bounded_runs, unit.bounded_runs, unit.stopped_runs});
    }
    count = std::min(count, jobs.size());
    std::partial_sort(jobs.begin(), jobs.begin() + static_cast<std::ptrdiff_t>(count), jobs.end(),
                      [](const JobCost& a, const JobCost& b) { return a.seconds() > b.seconds(); });
    jobs.resize(count);
    return jobs;
}

}  // namespace piccolo::detail
