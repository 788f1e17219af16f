// The sweep. Three steps, the first two in parallel on a tbb::task_arena of `threads` threads:
//  1. Templates: for every (collective, p, algorithm) generate the schedule of every candidate k
//     once (the DAG depends on p and k, not on the size or the machine), in slices of <= 32 k,
//     and keep only distinct DAGs (select_fingerprint.hpp): rm/prm with k = 5..7 and k = 4 are
//     often the same rounds.
//  2. Simulation: one task per (distinct schedule, scale) runs every message size through
//     one copy of the DAG resized in place (set_message_size()) and simulate() with successor
//     lists built once. Tasks are started largest first so that the last one to finish is small
//     (list scheduling), which keeps both cores busy to the end.
//  3. Ranking, serially, in the fixed (collective, scale, size, algorithm, k) order.
// Each simulation is deterministic and writes its own slot, so the result is the same for any
// number of threads.
#include "piccolo/select.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <unordered_map>

#include "piccolo/engine.hpp"
#include "piccolo/error.hpp"
#include "piccolo/generate.hpp"
#include "select_fingerprint.hpp"
#include "select_sweep.hpp"
#include "select_text.hpp"

namespace piccolo {

namespace {

using Clock = std::chrono::steady_clock;

using detail::CandidateSet;
using detail::not_run;
using detail::SweptAlgorithm;

struct DistinctSchedule {
    std::shared_ptr<const Schedule> schedule;  // released once every scale has simulated it
    std::size_t p_index = 0;                   // index into Sweep::ranks
};

// What step 1 produces for one slice of the candidates of a (collective, p, algorithm), before
// identical schedules are shared across slices and algorithms.
struct GeneratedSet {
    std::vector<std::pair<int, std::size_t>> k_to_local;  // (k, index into uniques)
    std::vector<Schedule> uniques;
    std::vector<std::uint64_t> signatures;
    std::string unavailable;
};

bool resize_by_payload(Collective c) {
    return c == Collective::allreduce;
}

class SweepRun {
  public:
    explicit SweepRun(const SelectRequest& request) : request_(request) {
        sweep_.collectives = unique_collectives(request.collectives);
        plan_algorithms();
        sweep_.sizes = request.sizes.empty() ? default_select_sizes() : request.sizes;
        check_sizes();
        // Increasing and distinct: rule lists (MPICH "<=" thresholds) rely on the order.
        std::sort(sweep_.sizes.begin(), sweep_.sizes.end());
        sweep_.sizes.erase(std::unique(sweep_.sizes.begin(), sweep_.sizes.end()),
                           sweep_.sizes.end());
        plan_scales();
        check_radices();
    }

    SelectResult run() {
        const int threads =
            request_.threads > 0 ? request_.threads : tbb::info::default_concurrency();
        tbb::task_arena arena(threads);
        arena.execute([&] {
            const auto start = Clock::now();
            make_schedules();
            const auto generated = Clock::now();
            simulate_all();
            stats_.generate_seconds = std::chrono::duration<double>(generated - start).count();
            stats_.simulate_seconds =
                std::chrono::duration<double>(Clock::now() - generated).count();
        });
        SelectResult result;
        result.machine = request_.machine.name;
        result.style = request_.style;
        result.contention = request_.contention;
        result.notes = notes_;
        detail::rank_sweep(sweep_, result);
        result.stats = stats_;
        return result;
    }

  private:
    // ---- validation -------------------------------------------------------------------------
    static std::vector<Collective> unique_collectives(const std::vector<Collective>& requested) {
        if (requested.empty())
            throw InputError("--collective: empty list (use allgather, allreduce or both)");
        std::vector<Collective> out;
        for (Collective c : requested)
            if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
        return out;
    }

    void plan_algorithms() {
        std::vector<std::string> names = request_.algorithms;
        if (names.empty())
            for (const AlgorithmInfo& info : algorithms()) names.emplace_back(info.name);
        for (const std::string& name : names) {
            const AlgorithmInfo& info = find_algorithm(name);  // throws on unknown names
            const bool seen = std::any_of(sweep_.algorithms.begin(), sweep_.algorithms.end(),
                                          [&](const SweptAlgorithm& a) { return a.info == &info; });
            if (!seen) sweep_.algorithms.push_back({&info, true});
        }
        for (const char* name : baseline_algorithms) {
            const AlgorithmInfo& info = find_algorithm(name);
            const bool seen = std::any_of(sweep_.algorithms.begin(), sweep_.algorithms.end(),
                                          [&](const SweptAlgorithm& a) { return a.info == &info; });
            if (!seen) sweep_.algorithms.push_back({&info, false});
        }
    }

    void check_sizes() const {
        if (sweep_.sizes.empty())
            throw InputError("--sizes: empty list (give at least one message size, e.g. 8,1KiB)");
        for (std::uint64_t bytes : sweep_.sizes)
            if (bytes == 0)
                throw InputError("--sizes: message sizes must be at least 1 byte (got 0)");
    }

    void plan_scales() {
        const std::vector<Scale> requested =
            request_.scales.empty() ? default_select_scales(request_.machine) : request_.scales;
        for (const Scale& s : requested) {
            if (s.nodes < 1)
                throw InputError(fmt::format("--nodes: must be >= 1 (got {})", s.nodes));
            if (s.ranks_per_node < 1)
                throw InputError(fmt::format("--ppn: must be >= 1 (got {})", s.ranks_per_node));
            if (s.ranks() < 2) {
                notes_.push_back(fmt::format("{}: skipped (a collective needs at least 2 ranks)",
                                             detail::scale_label(s)));
                continue;
            }
            if (std::find(sweep_.scales.begin(), sweep_.scales.end(), s) != sweep_.scales.end())
                continue;
            layouts_.emplace_back(request_.machine, s.nodes, s.ranks_per_node);  // validates
            sweep_.scales.push_back(s);
        }
        if (sweep_.scales.empty())
            throw InputError(
                "--nodes/--ppn: every scale has fewer than 2 ranks (use more nodes "
                "or more ranks per node)");
        for (const Scale& s : sweep_.scales)
            if (std::find(sweep_.ranks.begin(), sweep_.ranks.end(), s.ranks()) ==
                sweep_.ranks.end())
                sweep_.ranks.push_back(s.ranks());
    }

    void check_radices() const {
        if (request_.radices.empty()) return;
        const int largest = *std::max_element(sweep_.ranks.begin(), sweep_.ranks.end());
        for (int k : request_.radices) {
            if (k < 2) throw InputError(fmt::format("-k: every k must be at least 2 (got {})", k));
            if (k > largest)
                throw InputError(
                    fmt::format("-k: k = {} is larger than every p of the sweep "
                                "(largest p = {}); use 2 <= k <= p",
                                k, largest));
        }
        for (const SweptAlgorithm& a : sweep_.algorithms) {
            if (!a.reported || !a.info->has_radix) continue;
            bool any = false;
            for (Rank p : sweep_.ranks) any = any || !radices_for(*a.info, p).empty();
            if (!any)
                throw InputError(fmt::format(
                    "-k: no k in {{{}}} is valid for {} at any scale (p = {}; {} accepts k in "
                    "{{{}}} "
                    "for p = {}); add a valid k or drop {} from --algorithms",
                    fmt::join(request_.radices, ", "), a.info->name, fmt::join(sweep_.ranks, ", "),
                    a.info->name, fmt::join(a.info->valid_radices(sweep_.ranks.front()), ", "),
                    sweep_.ranks.front(), a.info->name));
        }
    }

    [[nodiscard]] std::vector<int> radices_for(const AlgorithmInfo& info, Rank p) const {
        if (!info.has_radix) return {0};
        std::vector<int> valid = info.valid_radices(p);
        if (request_.radices.empty()) return valid;
        std::vector<int> chosen;
        for (int k : valid)
            if (std::find(request_.radices.begin(), request_.radices.end(), k) !=
                request_.radices.end())
                chosen.push_back(k);
        return chosen;
    }

    // ---- step 1: distinct schedules ------------------------------------------------------------

    // A slice of the candidate k of one (collective, p, algorithm): the unit of work of step 1.
    // rm/prm have up to p - 1 candidates, so they are cut into slices to balance the threads.
    struct GenerateJob {
        std::size_t collective = 0, p_index = 0, algorithm = 0;
        std::vector<int> ks;
        std::uint64_t cost = 0;  // estimate: candidates x p
    };
    static constexpr std::size_t ks_per_job = 32;

    GeneratedSet generate_slice(const GenerateJob& job) const {
        const Collective collective = sweep_.collectives[job.collective];
        const Rank p = sweep_.ranks[job.p_index];
        const AlgorithmInfo& info = *sweep_.algorithms[job.algorithm].info;
        GeneratedSet out;
        if (job.ks.empty()) {
            out.unavailable = request_.radices.empty()
                                  ? fmt::format("no valid k for p = {}", p)
                                  : fmt::format("no k from -k is valid for p = {}", p);
            return out;
        }
        GenerateRequest g;
        g.collective = collective;
        g.algorithm = std::string(info.name);
        g.ranks = p;
        // Any size works for a template; an Allreduce needs at least one byte per segment.
        g.bytes = std::max<std::uint64_t>(1024, static_cast<std::uint64_t>(p));
        g.payload = resize_by_payload(collective);  // Allgather resizes without payload
        g.style = request_.style;
        std::unordered_map<std::uint64_t, std::vector<std::size_t>> by_signature;
        for (int k : job.ks) {
            g.k = k;
            Schedule schedule;
            try {
                schedule = generate(g);
            } catch (const InputError& e) {
                if (out.unavailable.empty()) out.unavailable = e.what();
                continue;
            }
            const std::uint64_t signature =
                detail::timing_signature(schedule, resize_by_payload(collective));
            std::optional<std::size_t> same;
            for (std::size_t u : by_signature[signature])
                if (detail::same_timing(out.uniques[u], schedule, resize_by_payload(collective))) {
                    same = u;
                    break;
                }
            if (!same) {
                same = out.uniques.size();
                by_signature[signature].push_back(*same);
                out.uniques.push_back(std::move(schedule));
                out.signatures.push_back(signature);
            }
            out.k_to_local.emplace_back(k, *same);
        }
        return out;
    }

    void make_schedules() {
        // Jobs in (collective, p, algorithm, k) order; that order also fixes which schedule
        // represents identical ones, so the result does not depend on the threads.
        std::vector<GenerateJob> jobs;
        for (std::size_t c = 0; c < sweep_.collectives.size(); ++c)
            for (std::size_t p = 0; p < sweep_.ranks.size(); ++p)
                for (std::size_t a = 0; a < sweep_.algorithms.size(); ++a) {
                    const std::vector<int> ks =
                        radices_for(*sweep_.algorithms[a].info, sweep_.ranks[p]);
                    std::size_t first = 0;
                    do {
                        const std::size_t last = std::min(ks.size(), first + ks_per_job);
                        GenerateJob job{c, p, a, {ks.begin() + first, ks.begin() + last}, 0};
                        job.cost = std::max<std::uint64_t>(1, job.ks.size()) *
                                   static_cast<std::uint64_t>(sweep_.ranks[p]);
                        jobs.push_back(std::move(job));
                        first = last;
                    } while (first < ks.size());
                }
        // Largest first, so that the last job to finish is a small one.
        std::vector<std::size_t> order(jobs.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t x, std::size_t y) { return jobs[x].cost > jobs[y].cost; });
        std::vector<GeneratedSet> generated(jobs.size());
        tbb::parallel_for(
            tbb::blocked_range<std::size_t>(0, jobs.size(), 1),
            [&](const tbb::blocked_range<std::size_t>& range) {
                for (std::size_t i = range.begin(); i != range.end(); ++i)
                    generated[order[i]] = generate_slice(jobs[order[i]]);
            },
            tbb::simple_partitioner());

        // Share identical schedules across slices and algorithms (rd is rm with k = 2, ...).
        sweep_.sets.resize(sweep_.collectives.size() * sweep_.ranks.size() *
                           sweep_.algorithms.size());
        std::vector<std::unordered_map<std::uint64_t, std::vector<std::size_t>>> known(
            sweep_.collectives.size() * sweep_.ranks.size());
        for (std::size_t j = 0; j < jobs.size(); ++j) {
            const GenerateJob& job = jobs[j];
            GeneratedSet& g = generated[j];
            std::vector<std::size_t> global(g.uniques.size());
            for (std::size_t u = 0; u < g.uniques.size(); ++u)
                global[u] =
                    share(job.collective, job.p_index, std::move(g.uniques[u]), g.signatures[u],
                          known[job.collective * sweep_.ranks.size() + job.p_index]);
            CandidateSet& set =
                sweep_.sets[sweep_.set_index(job.collective, job.p_index, job.algorithm)];
            stats_.candidates += g.k_to_local.size();
            for (auto [k, local] : g.k_to_local) set.candidates.push_back({k, global[local]});
            if (set.unavailable.empty()) set.unavailable = std::move(g.unavailable);
        }
        for (CandidateSet& set : sweep_.sets)
            if (!set.candidates.empty()) set.unavailable.clear();
    }

    std::size_t share(std::size_t c, std::size_t p, Schedule&& schedule, std::uint64_t signature,
                      std::unordered_map<std::uint64_t, std::vector<std::size_t>>& known) {
        for (std::size_t index : known[signature])
            if (detail::same_timing(*schedules_[index].schedule, schedule,
                                    resize_by_payload(sweep_.collectives[c])))
                return index;
        known[signature].push_back(schedules_.size());
        sweep_.rounds.push_back(detail::transfer_rounds(schedule));
        schedules_.push_back({std::make_shared<const Schedule>(std::move(schedule)), p});
        return schedules_.size() - 1;
    }

    // ---- step 2: simulation ---------------------------------------------------------------------
    [[nodiscard]] bool runs_at(const Schedule& s, std::uint64_t bytes) const {
        // set_message_size() cuts an Allreduce vector into shape.pieces segments of >= 1 byte.
        return s.shape.collective != Collective::allreduce || bytes >= s.shape.pieces;
    }

    struct SimJob {
        std::size_t schedule = 0;
        std::size_t scale = 0;
        std::uint64_t runs = 0;  // sizes it runs at
        std::uint64_t work = 0;  // tasks x runs: the cost estimate
    };

    void simulate_all() {
        std::vector<SimJob> jobs;
        std::vector<std::size_t> uses(schedules_.size(), 0);
        for (std::size_t s = 0; s < schedules_.size(); ++s) {
            const Schedule& schedule = *schedules_[s].schedule;
            std::uint64_t runs = 0;
            for (std::uint64_t bytes : sweep_.sizes) runs += runs_at(schedule, bytes) ? 1 : 0;
            for (std::size_t scale = 0; scale < sweep_.scales.size(); ++scale)
                if (sweep_.scales[scale].ranks() == sweep_.ranks[schedules_[s].p_index]) {
                    jobs.push_back({s, scale, runs, runs * schedule.size()});
                    ++uses[s];
                }
        }
        std::stable_sort(jobs.begin(), jobs.end(),
                         [](const SimJob& x, const SimJob& y) { return x.work > y.work; });
        std::uint64_t total = 0;
        for (const SimJob& j : jobs) total += j.work;
        stats_.distinct_schedules = schedules_.size();
        stats_.simulated_tasks = total;
        for (const SimJob& j : jobs) stats_.simulations += j.runs;
        if (request_.progress) request_.progress->set_total(total);

        sweep_.times.assign(schedules_.size() * sweep_.scales.size() * sweep_.sizes.size(),
                            not_run);
        auto remaining = std::make_unique<std::atomic<std::size_t>[]>(schedules_.size());
        for (std::size_t s = 0; s < schedules_.size(); ++s) remaining[s].store(uses[s]);
        const SimOptions options{request_.contention, false};

        tbb::parallel_for(
            tbb::blocked_range<std::size_t>(0, jobs.size(), 1),
            [&](const tbb::blocked_range<std::size_t>& range) {
                for (std::size_t i = range.begin(); i != range.end(); ++i) {
                    const SimJob& job = jobs[i];
                    std::shared_ptr<const Schedule> schedule = schedules_[job.schedule].schedule;
                    const RankLayout& layout = layouts_[job.scale];
                    // One copy and one set of successor lists per job; only sizes change below.
                    Schedule sized = *schedule;
                    const Schedule::Successors successors = sized.successors();
                    for (std::size_t z = 0; z < sweep_.sizes.size(); ++z) {
                        if (!runs_at(*schedule, sweep_.sizes[z])) continue;
                        set_message_size(sized, sweep_.sizes[z]);
                        sweep_.times[sweep_.time_index(job.schedule, job.scale, z)] =
                            simulate(sized, successors, request_.machine, layout, options).makespan;
                        if (request_.progress) request_.progress->add(sized.size());
                    }
                    // The last scale to use a schedule frees it: the sweep holds only what is
                    // still to run.
                    schedule.reset();
                    if (remaining[job.schedule].fetch_sub(1) == 1)
                        schedules_[job.schedule].schedule.reset();
                }
            },
            tbb::simple_partitioner());
    }

    const SelectRequest& request_;
    std::vector<RankLayout> layouts_;  // one per scale
    std::vector<std::string> notes_;
    detail::Sweep sweep_;
    std::vector<DistinctSchedule> schedules_;
    SweepStats stats_;
};

}  // namespace

std::vector<std::uint64_t> default_select_sizes() {
    std::vector<std::uint64_t> sizes;
    for (std::uint64_t bytes = 8; bytes <= (64ULL << 20); bytes *= 2) sizes.push_back(bytes);
    return sizes;
}

std::vector<Scale> default_select_scales(const Machine& machine) {
    // A machine of bounded size (last level with a fanout) holds the product of the fanouts
    // above the node level; the laptop preset is one node.
    long long capacity = 64;
    if (!machine.levels.empty() && machine.levels.back().fanout > 0) {
        long long nodes = 1;
        for (std::size_t l = 1; l < machine.levels.size() && nodes <= 64; ++l)
            nodes *= std::max(1, machine.levels[l].fanout);
        capacity = std::min(capacity, nodes);
    }
    std::vector<Scale> scales;
    const int ppn = machine.devices_per_node();
    for (int nodes = 1; nodes <= capacity; nodes *= 2) scales.push_back({nodes, ppn});
    return scales;
}

double PointSelection::speedup() const {
    const AlgorithmOutcome* b = best_outcome();
    return b && b->time > 0 ? baseline_time / b->time : 0.0;
}

double PointSelection::margin() const {
    const AlgorithmOutcome* b = best_outcome();
    return b && runner_up && b->time > 0 ? (runner_up->time - b->time) / b->time : 0.0;
}

std::string_view size_meaning(Collective collective) {
    return collective == Collective::allgather ? "per-rank contribution" : "vector size";
}

SelectResult select(const SelectRequest& request) {
    return SweepRun(request).run();
}

}  // namespace piccolo
