// Step 1 of a sweep: the roster (select_roster.hpp).
#include "select_roster.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <limits>
#include <unordered_map>

#include "piccolo/core/error.hpp"
#include "piccolo/schedules/task_count.hpp"
#include "piccolo/select/select_text.hpp"
#include "select_memory.hpp"
#include "select_symmetric.hpp"

namespace piccolo::detail {

GenerateRequest template_request(const Sweep& sweep, const SelectRequest& request, std::size_t c,
                                 std::size_t p, std::size_t a, int k) {
    GenerateRequest g;
    g.collective = sweep.collectives[c];
    g.algorithm = std::string(sweep.algorithms[a].info->name);
    g.k = k;
    g.ranks = sweep.ranks[p];
    // Any size works for a template; an Allreduce needs at least one byte per segment, and a
    // Bcast a multiple of p: MPICH's scatter (scatter-rd, scatter-ring) then cuts it into p
    // chunks that all hold bytes, as at every size above p (p - 1).
    const auto ranks = static_cast<std::uint64_t>(g.ranks);
    g.bytes = std::max<std::uint64_t>(1024, ranks);
    if (g.collective == Collective::bcast) g.bytes = (g.bytes + ranks - 1) / ranks * ranks;
    g.payload = resize_by_payload(g.collective);  // blocks of `bytes` resize without payload
    g.style = request.style;
    g.root = select_root;
    return g;
}

namespace {

class RosterMaker {
  public:
    explicit RosterMaker(const SelectRequest& request) : request_(request) {
        sweep_.collectives = unique_collectives(request.collectives);
        sweep_.algorithms = swept_algorithms(request.algorithms, sweep_.collectives);
        sweep_.sizes = swept_sizes(request.sizes);
        list_scales();
        check_radices(request.radices, sweep_);
        list_jobs();
    }

    SweepRoster take() && { return std::move(roster_); }

  private:
    // ---- scales -------------------------------------------------------------------------------
    void list_scales() {
        const std::vector<Scale> requested =
            request_.scales.empty() ? default_select_scales(request_.machine) : request_.scales;
        for (const Scale& s : requested) {
            if (s.nodes < 1)
                throw InputError(fmt::format("--nodes: must be >= 1 (got {})", s.nodes));
            if (s.ranks_per_node < 1)
                throw InputError(fmt::format("--ppn: must be >= 1 (got {})", s.ranks_per_node));
            if (s.ranks() < 2) {
                roster_.notes.push_back(fmt::format(
                    "{}: skipped (a collective needs at least 2 ranks)", scale_label(s)));
                continue;
            }
            if (std::find(sweep_.scales.begin(), sweep_.scales.end(), s) != sweep_.scales.end())
                continue;
            roster_.layouts.emplace_back(request_.machine, s.nodes, s.ranks_per_node);  // validates
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

    // ---- jobs ----------------------------------------------------------------------------------
    // Large candidates (symmetry_min_tasks) run through quotients where the symmetry holds.
    [[nodiscard]] SymmetryChoice choose_symmetry(const GenerateRequest& g,
                                                 const TaskCounts& counts) const {
        if (counts.tasks() < request_.symmetry_min_tasks) return {};
        std::vector<const RankLayout*> layouts;
        for (std::size_t s = 0; s < sweep_.scales.size(); ++s)
            if (sweep_.scales[s].ranks() == g.ranks) layouts.push_back(&roster_.layouts[s]);
        return detail::choose_symmetry(g, request_.machine, layouts, {request_.contention, false});
    }

    Job make_job(std::size_t c, std::size_t p, std::size_t a, int k, const TaskCounts& counts,
                 SymmetryChoice symmetry) {
        Job job;
        job.collective = c;
        job.p_index = p;
        job.algorithm = a;
        job.k = k;
        job.counts = counts;
        job.symmetry = std::move(symmetry);
        const Rank ranks = sweep_.ranks[p];
        const Rank representatives = job.symmetry.representatives;
        const TaskCounts replayed =
            representatives > 0 ? quotient_counts(counts, ranks, representatives) : counts;
        const GenerateRequest g = template_request(sweep_, request_, c, p, a, k);
        const bool indexable = counts.tasks() <= std::numeric_limits<std::uint32_t>::max();
        std::uint64_t sizes = 0, work = 0;
        bool uneven = false;  // a size the quotient does not cover
        for (std::uint64_t bytes : sweep_.sizes) {
            if (!runs_at(counts, sweep_.collectives[c], ranks, bytes)) continue;
            const bool covered = representatives == 0 || symmetry_covers(g, bytes);
            uneven = uneven || !covered;
            if (!covered && !indexable) continue;
            ++sizes;
            work += covered ? replayed.tasks() : counts.tasks();
        }
        job.full_too = uneven && indexable;
        job.bounded = request_.bound_min_tasks > 0 && counts.tasks() >= request_.bound_min_tasks &&
                      representatives == 0 &&
                      !is_baseline(sweep_.collectives[c], sweep_.algorithms[a].info->name);
        job.stage = job.bounded ? 2 : 0;
        if (uneven && !indexable) note_uneven(c, ranks);
        const bool fair = request_.contention && request_.machine.sharing == Sharing::fair;
        const std::optional<int> radix = request_.machine.device_radix;
        job.estimate =
            estimate_job_bytes(replayed, ranks, fair, radix) +
            (representatives > 0 && job.full_too ? estimate_job_bytes(counts, ranks, fair, radix)
                                                 : 0);
        for (const Scale& scale : sweep_.scales)
            if (scale.ranks() == ranks) {
                job.runs += sizes;
                job.work += work;
            }
        return job;
    }

    // Once per (collective, p): sizes that neither the quotient nor the full DAG can replay.
    void note_uneven(std::size_t c, Rank ranks) {
        std::string note = uneven_note(sweep_.collectives[c], ranks);
        if (std::find(roster_.notes.begin(), roster_.notes.end(), note) == roster_.notes.end())
            roster_.notes.push_back(std::move(note));
    }

    // The candidates of one (collective, p, algorithm) into their jobs; `identities` holds the
    // jobs of (collective, p) so far.
    void list_set(std::size_t c, std::size_t p, std::size_t a,
                  std::unordered_map<std::string, std::size_t>& identities) {
        CandidateSet& set = sweep_.sets[sweep_.set_index(c, p, a)];
        const AlgorithmInfo& info = *sweep_.algorithms[a].info;
        const Collective collective = sweep_.collectives[c];
        // Neither reported here nor this collective's baseline (ring, a baseline of Allgather,
        // in a sweep of Reduce_scatter too): nothing reads its times.
        if (!sweep_.algorithms[a].reported_at(collective) && !is_baseline(collective, info.name))
            return;
        if (!builds(info, collective)) {
            set.unavailable = fmt::format("{} does not build {}", info.name, to_string(collective));
            return;
        }
        const std::vector<int> ks =
            radices_for(*sweep_.algorithms[a].info, sweep_.ranks[p], request_.radices);
        if (ks.empty())
            set.unavailable =
                request_.radices.empty()
                    ? fmt::format("no valid k for p = {}", sweep_.ranks[p])
                    : fmt::format("no k from -k is valid for p = {}", sweep_.ranks[p]);
        for (int k : ks) {
            const GenerateRequest g = template_request(sweep_, request_, c, p, a, k);
            const TaskCounts counts = count_tasks(g);
            SymmetryChoice symmetry = choose_symmetry(g, counts);
            if (symmetry.representatives == 0 &&
                counts.tasks() > std::numeric_limits<std::uint32_t>::max()) {
                // More tasks than the IR can index: generate() refuses it before allocating, with
                // the numbers; that refusal is the reason shown for the candidate.
                try {
                    generate(g);
                } catch (const InputError& e) {
                    if (set.unavailable.empty()) set.unavailable = e.what();
                    continue;
                }
            }
            const auto [at, added] = identities.try_emplace(dag_identity(g), roster_.jobs.size());
            if (added) {
                if (counts.tasks() >= request_.symmetry_min_tasks)
                    roster_.engine_choices.push_back(engine_choice(
                        g, sweep_.algorithms[a].info->has_radix, counts.tasks(), symmetry));
                roster_.jobs.push_back(make_job(c, p, a, k, counts, std::move(symmetry)));
            } else if (is_baseline(collective, info.name)) {
                // The baseline always runs and owns its DAG, also where an earlier algorithm's
                // candidate listed it (knomial with k = 2 is binomial's tree, and knomial comes
                // first): the other algorithm's k then times only that one k, as rm's k = 2 is
                // rd's DAG, and its bounded k are scouted (docs/bounds.md).
                Job& job = roster_.jobs[at->second];
                job.algorithm = a;
                job.k = k;
                job.bounded = false;
                job.stage = 0;
            }
            set.candidates.push_back({k, at->second});
            ++roster_.candidates;
        }
        if (!set.candidates.empty()) set.unavailable.clear();
    }

    void list_jobs() {
        sweep_.sets.resize(sweep_.collectives.size() * sweep_.ranks.size() *
                           sweep_.algorithms.size());
        for (std::size_t c = 0; c < sweep_.collectives.size(); ++c)
            for (std::size_t p = 0; p < sweep_.ranks.size(); ++p) {
                std::unordered_map<std::string, std::size_t> identities;
                for (std::size_t a = 0; a < sweep_.algorithms.size(); ++a)
                    list_set(c, p, a, identities);
            }
    }

    const SelectRequest& request_;
    SweepRoster roster_;
    Sweep& sweep_ = roster_.sweep;
};

}  // namespace

SweepRoster make_roster(const SelectRequest& request) {
    return RosterMaker(request).take();
}

}  // namespace piccolo::detail
