// The sweep, in bounded memory. Three steps:
//  1. Roster (select_roster.hpp), serially and without generating anything: every candidate
//     (collective, p, algorithm, k) is mapped to a job, one per distinct DAG, with its exact
//     task count and an estimate of the memory its job needs at its peak. A job that cannot fit
//     the memory budget at all is refused before anything starts (job_budget()).
//  2. Jobs, in parallel on a tbb::task_arena of `threads` threads: one job per job generates its
//     DAG, simulates it at every scale of its p and every size (resized in place), records the
//     times and frees the DAG. Jobs start largest first, and only while the estimates of the
//     running jobs fit the budget (BudgetedRunner): generation and simulation interleave, and
//     the sweep holds at most the DAGs it is simulating. A large DAG whose symmetry holds
//     (select_symmetric.hpp) is replaced by the quotient of its representatives' tasks.
//  3. Ranking, serially, in the fixed (collective, scale, size, algorithm, k) order, after DAGs of
//     different identities that are the same (select_fingerprint.hpp) are merged.
// Each simulation is deterministic and writes its own slot, so the result is the same for any
// number of threads and any budget. A JobRunner in the request (sweep_jobs.hpp) may run a batch
// of step 2 in several processes: each runs these steps alike and loads the others' job results
// before the next batch, so each holds the same sweep.
#include "piccolo/select/select.hpp"

#include <tbb/task_arena.h>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <unordered_map>

#include "piccolo/core/error.hpp"
#include "piccolo/engine/engine.hpp"
#include "piccolo/engine/lower_bound.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/task_count.hpp"
#include "piccolo/select/select_fingerprint.hpp"
#include "piccolo/select/select_text.hpp"
#include "piccolo/select/sweep_jobs.hpp"
#include "select_job.hpp"
#include "select_job_bounds.hpp"
#include "select_job_result.hpp"
#include "select_memory.hpp"
#include "select_roster.hpp"
#include "select_sweep.hpp"
#include "select_symmetric.hpp"

namespace piccolo {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_between(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
}

using detail::CandidateSet;
using detail::Job;
using detail::not_run;
using detail::SweptAlgorithm;

using detail::ChainHint;
using detail::CountsByScale;

class SweepRun {
  public:
    explicit SweepRun(const SelectRequest& request)
        : request_(request), roster_(detail::make_roster(request)) {}
    // It holds references into its own roster_ (sweep_, jobs_, layouts_): a copy would point
    // into the original.
    SweepRun(const SweepRun&) = delete;
    SweepRun& operator=(const SweepRun&) = delete;

    SelectResult run() {
        stats_.candidates = roster_.candidates;
        const std::uint64_t budget = detail::job_budget(sweep_, jobs_, request_);
        for (std::string& note : detail::left_out_notes(sweep_, jobs_))
            roster_.notes.push_back(note);
        const int threads =
            request_.threads > 0 ? request_.threads : tbb::info::default_concurrency();
        tbb::task_arena arena(threads);
        arena.execute([&] { run_all_jobs(budget, threads); });
        stats_.distinct_schedules = detail::merge_identical(sweep_, jobs_);
        SelectResult result;
        result.machine = request_.machine.name;
        result.style = request_.style;
        result.contention = request_.contention;
        result.notes = roster_.notes;
        result.engine_choices = roster_.engine_choices;
        detail::rank_sweep(sweep_, result);
        result.stats = stats_;
        return result;
    }

  private:
    // ---- step 2: jobs ---------------------------------------------------------------------------
    // Every job but the bounded ones, then those, against the thresholds the others' times set.
    void run_all_jobs(std::uint64_t budget, int threads) {
        std::uint64_t total = 0;
        for (const Job& u : jobs_) {
            total += u.work;
            stats_.simulations += u.runs;
        }
        stats_.simulated_tasks = total;
        if (request_.progress) request_.progress->set_total(total);
        sweep_.times.assign(jobs_.size() * sweep_.scales.size() * sweep_.sizes.size(), not_run);
        sweep_.bounds.assign(sweep_.times.size(), not_run);
        sweep_.rounds.assign(jobs_.size(), 0);
        run_batch(0, budget, threads);
        if (cancelled()) throw SweepCancelled();
        if (std::any_of(jobs_.begin(), jobs_.end(), [](const Job& u) { return u.bounded; })) {
            update_thresholds();
            if (detail::mark_scouted(sweep_, jobs_)) {
                prebounds_.assign(sweep_.times.size(), not_run);
                run_jobs(scouted_jobs(), budget, threads, [&](std::size_t u) { bound_job(u); });
                detail::mark_scouts(sweep_, jobs_, prebounds_);
                update_thresholds();  // the same thresholds; the scouted jobs are hashed now
                run_batch(1, budget, threads);
                update_thresholds();
            }
            split_last_stage();
            run_batch(2, budget, threads);
            update_thresholds();
            run_batch(3, budget, threads);
        }
        if (cancelled()) throw SweepCancelled();
        stats_.memory_budget = budget;
        for (const Job& u : jobs_) {
            stats_.generate_seconds += u.generate_seconds;
            stats_.bound_seconds += u.bound_seconds;
            stats_.simulate_seconds += u.simulate_seconds;
            stats_.bounded += u.bounded_runs;
            stats_.bounded_tasks += u.bounded_work;
            stats_.stopped += u.stopped_runs;
        }
        stats_.simulations -= stats_.bounded;
        stats_.simulated_tasks -= stats_.bounded_tasks;
        stats_.costliest = detail::costliest_jobs(sweep_, jobs_, costliest_shown);
    }
    static constexpr std::size_t costliest_shown = 8;

    // Between stages, serially: what the next stage's limits read.
    void update_thresholds() {
        std::vector<detail::TimingHash> hashes;
        for (const Job& u : jobs_) hashes.push_back(u.hash);
        thresholds_ = detail::bound_thresholds(sweep_, hashes);
        alone_ = detail::alone_jobs(sweep_, jobs_);
    }
    // The bounded jobs left after the scouts run in two stages, the lighter half (by tasks)
    // first: their times tighten the limits the heavier half is held to, whose bounds and stops
    // then save the most (at 75,264 ranks, rm with k = 98 replays 15 M tasks and k = 8 3 M).
    void split_last_stage() {
        std::vector<std::uint64_t> tasks;
        for (const Job& u : jobs_)
            if (u.stage == 2 && !u.left_out) tasks.push_back(u.counts.tasks());
        if (tasks.size() < 2) return;
        const auto middle = tasks.begin() + static_cast<std::ptrdiff_t>(tasks.size() / 2);
        std::nth_element(tasks.begin(), middle, tasks.end());
        for (Job& u : jobs_)
            if (u.stage == 2 && u.counts.tasks() > *middle) u.stage = 3;
    }
    [[nodiscard]] std::vector<std::size_t> scouted_jobs() const {
        std::vector<std::size_t> order;
        for (std::size_t u = 0; u < jobs_.size(); ++u)
            if (jobs_[u].scouted) order.push_back(u);
        return order;
    }

    void run_batch(int stage, std::uint64_t budget, int threads) {
        std::vector<std::size_t> order;
        for (std::size_t u = 0; u < jobs_.size(); ++u)
            if (jobs_[u].stage == stage && !jobs_[u].left_out) order.push_back(u);
        run_jobs(std::move(order), budget, threads, [&](std::size_t u) { run_job(u); });
    }

    // Largest first, so that the last job to finish is a small one (list scheduling), while the
    // estimates of the running jobs fit the budget.
    void run_jobs(std::vector<std::size_t> order, std::uint64_t budget, int threads,
                  const std::function<void(std::size_t)>& job) {
        auto work = [&](std::size_t u) { return jobs_[u].work; };
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t x, std::size_t y) { return work(x) > work(y); });
        std::vector<std::uint64_t> estimates;
        for (std::size_t u : order) estimates.push_back(jobs_[u].estimate);
        if (request_.runner) return run_elsewhere(order, std::move(estimates), budget, threads, job);
        detail::BudgetedRunner runner(std::move(estimates), budget);
        runner.run(threads, [&](std::size_t i) { job(order[i]); });
        stats_.memory_peak_estimate = std::max(stats_.memory_peak_estimate, runner.peak_estimate());
        stats_.memory_waits += runner.delayed();
    }

    // The same batch through the request's JobRunner: some jobs may run in other processes,
    // whose results it loads here (sweep_jobs.hpp). A job writes only its own job's slots.
    void run_elsewhere(const std::vector<std::size_t>& order, std::vector<std::uint64_t> estimates,
                       std::uint64_t budget, int threads,
                       const std::function<void(std::size_t)>& job) {
        JobBatch batch{std::move(estimates), budget, threads, request_.progress, {}, {}, {}};
        batch.run = [&](std::size_t i) { job(order[i]); };
        batch.save = [&](std::size_t i) {
            return detail::save_job_result(sweep_, jobs_[order[i]], order[i], prebounds_);
        };
        batch.load = [&](std::size_t i, std::string_view bytes) {
            detail::load_job_result(sweep_, jobs_[order[i]], order[i], prebounds_, bytes);
        };
        const JobBatchStats done = request_.runner->run(batch);
        stats_.memory_peak_estimate = std::max(stats_.memory_peak_estimate, done.peak_estimate);
        stats_.memory_waits += done.delayed;
    }

    // A scouted job's lower bound at every point it runs at, from its DAG (built and freed
    // here, and again if a stage simulates it).
    void bound_job(std::size_t u) {
        Job& job = jobs_[u];
        const auto start = Clock::now();
        std::optional<Schedule> built = build(u);
        if (!built) return;
        Schedule& schedule = *built;
        const auto generated = Clock::now();
        CountsByScale counts;
        for (const auto& [scale, z] : points_of(job)) {
            set_message_size(schedule, sweep_.sizes[z]);
            prebounds_[sweep_.time_index(u, scale, z)] =
                bound_at(u, schedule, scale, z, counts, true);
        }
        job.generate_seconds += seconds_between(start, generated);
        job.bound_seconds += seconds_between(generated, Clock::now());
    }

    // The job's DAG, its timing hash and rounds recorded the first time; none, and the job
    // failed, where generate() refuses it.
    std::optional<Schedule> build(std::size_t u) {
        Job& job = jobs_[u];
        std::optional<Schedule> schedule;
        try {
            schedule = generate(detail::template_request(sweep_, request_, job.collective,
                                                         job.p_index, job.algorithm, job.k));
        } catch (const InputError& e) {
            job.error = e.what();
            return std::nullopt;
        }
        if (job.hashed) return schedule;  // built before, for its bounds: the DAG is the same
        job.hash = detail::timing_hash(
            *schedule, detail::resize_by_payload(sweep_.collectives[job.collective]));
        job.hashed = true;
        sweep_.rounds[u] = detail::transfer_rounds(*schedule);
        return schedule;
    }

    // (scale, size) of every simulation of the job.
    [[nodiscard]] std::vector<std::pair<std::size_t, std::size_t>> points_of(const Job& job) const {
        std::vector<std::pair<std::size_t, std::size_t>> points;
        for (std::size_t scale = 0; scale < sweep_.scales.size(); ++scale)
            if (sweep_.scales[scale].ranks() == sweep_.ranks[job.p_index])
                for (std::size_t z = 0; z < sweep_.sizes.size(); ++z)
                    if (detail::runs_at(job.counts, sweep_.collectives[job.collective],
                                        sweep_.ranks[job.p_index], sweep_.sizes[z]))
                        points.emplace_back(scale, z);
        return points;
    }

    // The bound of the schedule (resized to the point), computed in full up to the larger of the
    // point's threshold and own_best(): a bound stopped early is still a bound, and above both.
    // 0 (a bound, not computed) where the threshold is infinite: nothing to compare with. The
    // dependency chain, three quarters of a pass, only where the servers' part is at least
    // half the threshold: below that the chain rarely leaves a point out (docs/bounds.md).
    // The scouts' pass (`whole`) computes every chain: it picks the candidates with the smallest
    // bounds. Otherwise `hint` carries what the job's smaller sizes showed (ChainHint).
    // `counts`: the job's, for the servers' part.
    double bound_at(std::size_t u, const Schedule& schedule, std::size_t scale, std::size_t z,
                    CountsByScale& counts, bool whole = false, ChainHint* hint = nullptr) {
        const double threshold = thresholds_[sweep_.point_index(jobs_[u].collective, scale, z)];
        if (std::isinf(threshold)) return 0;
        const double enough = std::max(threshold, detail::own_best(sweep_, jobs_, u, scale, z));
        double chain_from = whole ? 0 : chain_from_share * threshold;
        if (hint && hint->skips(scale)) chain_from = std::numeric_limits<double>::infinity();
        const SimOptions options{request_.contention, false};
        const detail::ServerCounts* counted =
            counts.at(schedule, request_.machine, layouts_[scale], scale);
        const MakespanBound bound =
            counted ? detail::makespan_lower_bound(schedule, request_.machine, layouts_[scale],
                                                   options, *counted, enough, chain_from)
                    : makespan_lower_bound(schedule, request_.machine, layouts_[scale], options,
                                           enough, chain_from);
        if (hint && bound.chain > 0 && bound.chain <= bound.servers) hint->chain_below(scale);
        return bound.seconds;
    }
    static constexpr double chain_from_share = 0.5;

    // A bounded job's time at a point matters up to the larger of the point's threshold and its
    // algorithms' best so far, and up to their best so far among DAGs no other algorithm has:
    // above either it is neither the best, nor the runner-up, nor its algorithm's best k
    // (docs/bounds.md). Infinity where the threshold is (nothing to compare with), and for
    // jobs that are not bounded.
    [[nodiscard]] double what_matters(std::size_t u, std::size_t scale, std::size_t z) const {
        const double threshold =
            jobs_[u].bounded ? thresholds_[sweep_.point_index(jobs_[u].collective, scale, z)]
                             : std::numeric_limits<double>::infinity();
        if (std::isinf(threshold)) return threshold;
        return std::min(std::max(threshold, detail::own_best(sweep_, jobs_, u, scale, z)),
                        detail::own_best(sweep_, jobs_, u, scale, z, alone_));
    }

    // A bounded job's simulation at a point is left out when its lower bound there (computed
    // before, for scouted jobs) is above the threshold, or above its algorithms' best so far
    // among DAGs no other algorithm has: it cannot be the best or the runner-up; the bound is
    // kept for the ranking.
    bool left_out(Job& job, std::size_t u, std::size_t scale, std::size_t z,
                  const Schedule* schedule, CountsByScale* counts = nullptr,
                  ChainHint* hint = nullptr) {
        if (!job.bounded) return false;
        const double threshold = std::min(thresholds_[sweep_.point_index(job.collective, scale, z)],
                                          detail::own_best(sweep_, jobs_, u, scale, z, alone_));
        const double bound = job.scouted ? prebounds_[sweep_.time_index(u, scale, z)]
                                         : bound_at(u, *schedule, scale, z, *counts, false, hint);
        if (std::isnan(bound) || bound <= threshold) return false;
        sweep_.bounds[sweep_.time_index(u, scale, z)] = bound;
        ++job.bounded_runs;
        job.bounded_work += job.counts.tasks();
        return true;
    }

    // One job: generate the job's DAG, simulate it everywhere it runs (and its bounds allow),
    // free it. A scouted job is not generated again where its bounds leave every point out.
    void run_job(std::size_t u) {
        Job& job = jobs_[u];
        if (cancelled()) return;
        if (!job.error.empty()) return;  // left out for memory, or refused by the bound pass
        if (job.symmetry.representatives > 0) return run_quotient_job(job, u);
        std::vector<std::pair<std::size_t, std::size_t>> points;
        for (const auto& [scale, z] : points_of(job)) {
            if (job.scouted && left_out(job, u, scale, z, nullptr))
                progress(job.counts.tasks());
            else
                points.emplace_back(scale, z);
        }
        if (points.empty()) return;
        const auto start = Clock::now();
        std::optional<Schedule> built = build(u);
        if (!built) return;
        Schedule& schedule = *built;
        const auto generated = Clock::now();
        std::optional<Schedule::Successors> successors;  // not built where bounds leave all out
        double bound_seconds = 0;
        ChainHint hint;  // points_of() lists each scale's sizes in ascending order
        CountsByScale counts;
        for (const auto& [scale, z] : points) {
            if (cancelled()) break;
            set_message_size(schedule, sweep_.sizes[z]);
            const auto bounding = Clock::now();
            const bool out = !job.scouted && left_out(job, u, scale, z, &schedule, &counts, &hint);
            bound_seconds += seconds_between(bounding, Clock::now());
            if (out) {
                progress(schedule.size());
                continue;
            }
            if (!successors) successors = schedule.joined_successors();
            SimOptions options{request_.contention, false};
            options.give_up_after = what_matters(u, scale, z);
            const SimResult run =
                simulate(schedule, *successors, request_.machine, layouts_[scale], options);
            if (run.gave_up) {  // left out as a bound past what matters leaves it out
                sweep_.bounds[sweep_.time_index(u, scale, z)] = run.makespan;
                ++job.stopped_runs;
            } else {
                sweep_.times[sweep_.time_index(u, scale, z)] = run.makespan;
            }
            progress(schedule.size());
        }
        job.generate_seconds += seconds_between(start, generated);
        job.bound_seconds += bound_seconds;
        job.simulate_seconds = seconds_between(generated, Clock::now()) - bound_seconds;
    }
    [[nodiscard]] bool cancelled() const {
        return request_.progress && request_.progress->cancelled();
    }

    void progress(std::uint64_t tasks) const {
        if (request_.progress) request_.progress->add(tasks);
    }

    // The same job through quotients: the full DAG is built only for the sizes they miss.
    void run_quotient_job(Job& job, std::size_t u) {
        const Collective collective = sweep_.collectives[job.collective];
        const auto start = Clock::now();
        const GenerateRequest g = detail::template_request(sweep_, request_, job.collective,
                                                           job.p_index, job.algorithm, job.k);
        std::optional<detail::QuotientReplay> replay;
        try {
            replay.emplace(g, job.symmetry.representatives, request_.machine,
                           SimOptions{request_.contention, false});
            if (job.full_too) replay->set_full(generate(g));
        } catch (const InputError& e) {
            job.error = e.what();
            return;
        }
        const QuotientSchedule& q = replay->quotient();
        job.hash = detail::timing_hash(q.schedule, detail::resize_by_payload(collective),
                                       q.destination, q.full_id);
        job.hashed = true;
        sweep_.rounds[u] = detail::transfer_rounds(q.schedule);
        const auto generated = Clock::now();
        for (std::size_t scale = 0; scale < sweep_.scales.size(); ++scale) {
            if (sweep_.scales[scale].ranks() != g.ranks) continue;
            for (std::size_t z = 0; z < sweep_.sizes.size(); ++z) {
                if (!detail::runs_at(job.counts, collective, g.ranks, sweep_.sizes[z])) continue;
                const auto run = replay->run(layouts_[scale], sweep_.sizes[z]);
                if (!run) continue;
                sweep_.times[sweep_.time_index(u, scale, z)] = run->makespan;
                if (request_.progress) request_.progress->add(run->tasks);
            }
        }
        job.generate_seconds = seconds_between(start, generated);
        job.simulate_seconds = seconds_between(generated, Clock::now());
    }

    const SelectRequest& request_;
    detail::SweepRoster roster_;
    detail::Sweep& sweep_ = roster_.sweep;
    std::vector<Job>& jobs_ = roster_.jobs;
    std::vector<RankLayout>& layouts_ = roster_.layouts;  // one per scale
    std::vector<double> thresholds_;                    // per point: see detail::bound_thresholds
    std::vector<char> alone_;                           // per job: see detail::alone_jobs
    std::vector<double> prebounds_;  // [job][scale][size]: bounded jobs' lower bounds
    SweepStats stats_;
};

}  // namespace

SelectResult select(const SelectRequest& request) {
    return SweepRun(request).run();
}

}  // namespace piccolo
