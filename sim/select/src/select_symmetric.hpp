#pragma once
// The selector's use of the exact symmetry reduction (docs/symmetry.md). A candidate whose full
// DAG is large and whose every scale is symmetric is replayed through quotient schedules of its
// representatives; its full DAG is built only for the sizes the symmetry does not cover (an
// Allreduce vector that does not cut into p equal segments), and only when it can be indexed.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "piccolo/engine/engine.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/quotient.hpp"
#include "piccolo/schedules/task_count.hpp"

namespace piccolo::detail {

// How a candidate of p ranks runs, decided before anything is generated.
struct SymmetryChoice {
    Rank representatives = 0;  // at the first scale of p; 0: the full engine everywhere
    std::string reason;        // the orbits, or why the symmetry does not hold
};

// The choice for `request` (its collective, algorithm, k and p) over the layouts of the sweep's
// scales of p: the reduction when check_symmetry() holds at every one of them.
SymmetryChoice choose_symmetry(const GenerateRequest& request, const Machine& machine,
                               std::span<const RankLayout* const> layouts,
                               const SimOptions& options);

// True when the quotient replays `request` at `bytes` (Allreduce: p equal segments).
bool symmetry_covers(const GenerateRequest& request, std::uint64_t bytes);

// For verbose output: how a candidate of `tasks` tasks is replayed, and why.
std::string engine_choice(const GenerateRequest& request, bool has_radix, std::uint64_t tasks,
                          const SymmetryChoice& choice);

// The note for an Allreduce whose full DAG cannot be indexed: ring and k-ring run only at sizes
// the quotient covers.
std::string uneven_note(Collective collective, Rank ranks);

// The counts of the quotient over c representatives: the full counts divided by the orbit size.
TaskCounts quotient_counts(const TaskCounts& full, Rank ranks, Rank representatives);

// Replays one candidate through its quotients, regenerating the quotient only when a scale has
// another number of representatives; sizes the quotient does not cover go to the full DAG, when
// the caller gave one.
class QuotientReplay {
  public:
    QuotientReplay(const GenerateRequest& request, Rank representatives, const Machine& machine,
                   const SimOptions& options);
    [[nodiscard]] const QuotientSchedule& quotient() const { return quotient_; }
    void set_full(Schedule full);

    // The full run's makespan on `layout` at `bytes`, and the tasks the engine replayed for it;
    // nothing when the size needs the full DAG and there is none.
    struct Replay {
        double makespan = 0;
        std::uint64_t tasks = 0;
    };
    std::optional<Replay> run(const RankLayout& layout, std::uint64_t bytes);

  private:
    GenerateRequest request_;
    const Machine& machine_;
    SimOptions options_;
    QuotientSchedule quotient_;
    Schedule::Successors successors_;
    std::optional<Schedule> full_;
    Schedule::Successors full_successors_;
};

}  // namespace piccolo::detail
