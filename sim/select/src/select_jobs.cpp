// Steps on the sweep's jobs between simulating and ranking (select_job.hpp).
#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <cstring>

#include "piccolo/core/error.hpp"
#include "piccolo/select/select_text.hpp"
#include "select_job.hpp"
#include "select_memory.hpp"

namespace piccolo::detail {

namespace {

// Equal wherever both ran; where a bound left one out, the other's time is not compared (a
// bounded job can be a baseline's DAG under another name: k-ring with k = p is ring).
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

// Job `to` is the same DAG as `from`: where a bound left `to` out and `from` ran, it takes the
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

// Every valid k is the default, and at tens of thousands of ranks the largest k make all-to-all
// rounds of billions of tasks: a job that only default k of a non-baseline algorithm with k
// stand for may be left out (and said so) instead of refusing the sweep.
bool may_leave_out(const Sweep& sweep, std::span<const Job> jobs, std::size_t u,
                   const SelectRequest& request) {
    if (!request.radices.empty()) return false;
    const Job& job = jobs[u];
    for (std::size_t a = 0; a < sweep.algorithms.size(); ++a) {
        const AlgorithmInfo& info = *sweep.algorithms[a].info;
        for (const Candidate& x :
             sweep.sets[sweep.set_index(job.collective, job.p_index, a)].candidates)
            if (x.schedule == u &&
                (!info.has_radix || is_baseline(sweep.collectives[job.collective], info.name)))
                return false;
    }
    return true;
}

// No job: its candidates fail as generate() refusals do (merge_identical drops them).
void leave_out(Job& job, std::uint64_t room) {
    job.error = fmt::format(
        "not simulated: needs about {} of memory, more than the {} the budget leaves; raise "
        "--memory-budget",
        format_memory(job.estimate), format_memory(room));
    job.left_out = true;
    job.runs = job.work = 0;
    job.bounded = false;
}

}  // namespace

std::uint64_t job_budget(const Sweep& sweep, std::span<Job> jobs, const SelectRequest& request) {
    const bool given = request.memory_budget > 0;
    const std::uint64_t budget = given ? request.memory_budget : default_memory_budget();
    const std::string origin = given ? "" : " (the default: half of the memory available now)";
    const std::uint64_t held = resident_bytes();
    if (held >= budget)
        throw InputError(fmt::format(
            "--memory-budget: the budget of {}{} is less than the {} piccolo holds before the "
            "sweep starts; raise --memory-budget",
            format_memory(budget), origin, format_memory(held)));
    for (std::size_t u = 0; u < jobs.size(); ++u) {
        Job& job = jobs[u];
        if (job.estimate <= budget - held) continue;
        if (may_leave_out(sweep, jobs, u, request)) {
            leave_out(job, budget - held);
            continue;
        }
        const AlgorithmInfo& info = *sweep.algorithms[job.algorithm].info;
        throw InputError(fmt::format(
            "--memory-budget: {} {}{} at p = {} needs about {} ({} tasks), more than the budget "
            "of {}{} leaves beside the {} piccolo holds; raise --memory-budget, or leave it out "
            "with --algorithms or -k, or use fewer --nodes",
            to_string(sweep.collectives[job.collective]), info.name,
            info.has_radix ? fmt::format(" with k = {}", job.k) : "", sweep.ranks[job.p_index],
            format_memory(job.estimate), job.counts.tasks(), format_memory(budget), origin,
            format_memory(held)));
    }
    return budget - held;
}

std::vector<std::string> left_out_notes(const Sweep& sweep, std::span<const Job> jobs) {
    std::vector<std::string> notes;
    for (std::size_t c = 0; c < sweep.collectives.size(); ++c)
        for (std::size_t p = 0; p < sweep.ranks.size(); ++p)
            for (std::size_t a = 0; a < sweep.algorithms.size(); ++a) {
                std::vector<int> ks;
                std::uint64_t largest = 0;
                for (const Candidate& x : sweep.sets[sweep.set_index(c, p, a)].candidates)
                    if (jobs[x.schedule].left_out) {
                        ks.push_back(x.k);
                        largest = std::max(largest, jobs[x.schedule].estimate);
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

std::size_t merge_identical(Sweep& sweep, std::span<const Job> jobs) {
    std::vector<std::size_t> same(jobs.size());
    std::size_t distinct = 0;
    for (std::size_t u = 0; u < jobs.size(); ++u) {
        same[u] = u;
        const Job& job = jobs[u];
        for (std::size_t v = 0; v < u && job.error.empty(); ++v) {
            const Job& other = jobs[v];
            if (same[v] == v && other.error.empty() && other.collective == job.collective &&
                other.p_index == job.p_index && same_task_counts(other, job) &&
                other.hash == job.hash && sweep.rounds[v] == sweep.rounds[u] &&
                same_times(sweep, u, v)) {
                same[u] = v;
                take_times(sweep, u, v);
                break;
            }
        }
        distinct += same[u] == u && job.error.empty() ? 1 : 0;
    }
    for (CandidateSet& set : sweep.sets) {
        std::vector<Candidate> kept;
        for (Candidate candidate : set.candidates) {
            const Job& job = jobs[candidate.schedule];
            if (!job.error.empty()) {
                if (set.unavailable.empty()) set.unavailable = job.error;
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

std::vector<JobCost> costliest_jobs(const Sweep& sweep, std::span<const Job> jobs,
                                    std::size_t count) {
    std::vector<JobCost> costs;
    for (const Job& job : jobs) {
        const AlgorithmInfo& info = *sweep.algorithms[job.algorithm].info;
        costs.push_back({candidate_label(sweep.collectives[job.collective], info.name,
                                         info.has_radix, job.k, sweep.ranks[job.p_index]),
                         job.generate_seconds, job.bound_seconds, job.simulate_seconds,
                         job.runs - job.bounded_runs, job.bounded_runs, job.stopped_runs});
    }
    count = std::min(count, costs.size());
    std::partial_sort(costs.begin(), costs.begin() + static_cast<std::ptrdiff_t>(count),
                      costs.end(),
                      [](const JobCost& a, const JobCost& b) { return a.seconds() > b.seconds(); });
    costs.resize(count);
    return costs;
}

}  // namespace piccolo::detail
