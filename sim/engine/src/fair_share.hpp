#pragma once
// Max-min fair sharing of capacities among concurrent flows, by progressive filling: the fluid
// model of flow-level network simulators (SimGrid's "LMM"). A flow is a transfer moving through
// lanes and units; it needs `work` femtoseconds at full speed and runs at a share s in (0, 1] of
// full speed. Its data is done when all but `tail` of the work is: a message charges its lanes
// at least the gap g even when its bytes need less, and that remainder follows the data. A
// constraint j bounds sum over its flows f of weight_jf * s_f by capacity_j:
//   - the lanes of a unit in one direction: weight 1 (a flow at full speed fills one lane),
//     capacity = the radix, so k flows through a unit of radix r get min(1, r / k) each;
//   - a unit's internal capacity: weight = the flow's bytes per second at full speed, capacity in
//     bytes per second.
// Progressive filling raises every unfrozen flow's share together; when a constraint saturates,
// its flows freeze at that share; flows that meet no saturated constraint end at full speed.
// Only flows that share a constraint with a starting or finishing flow, directly or through
// others (its connected component), are recomputed. The cost of an event depends on how many
// flows are in that component, never on message sizes.

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "piccolo/schedules/schedule.hpp"
#include "sim_time.hpp"

namespace piccolo::detail {

class FairShare {
  public:
    struct Use {
        std::uint32_t constraint;
        double weight;
    };

    // A flow uses at most `max_uses` constraints.
    explicit FairShare(std::size_t max_uses = 1) : max_uses_(max_uses) {}
    std::uint32_t add_constraint(double capacity);

    // Starts the flow of `task` at `now` (its progress so far, of every flow, is accounted up to
    // `now` first). Afterwards changed() lists the flows whose predicted ends moved.
    void start(TaskId task, SimTime now, double work, double tail, std::span<const Use> uses);
    // The flow of `task` ended at `now` (its predicted end); the others speed up.
    void finish(TaskId task, SimTime now);
    // Its data is done (at its predicted data end): that prediction no longer moves.
    void data_done(TaskId task);
    [[nodiscard]] SimTime predicted_end(TaskId task) const;
    [[nodiscard]] SimTime predicted_data_end(TaskId task) const;  // never once done
    [[nodiscard]] const std::vector<TaskId>& changed() const { return changed_; }

  private:
    struct Flow {
        TaskId task = 0;
        double remaining = 0;  // femtoseconds of work at full speed
        double tail = 0;       // the part of the work after the data
        double share = 0;
        SimTime updated = 0;       // remaining holds at this time
        SimTime end = never;       // predicted
        SimTime data_end = never;  // predicted; never once the data is done
        std::uint32_t first_use = 0, uses = 0;
        bool frozen = false;
        std::uint32_t seen = 0;  // component search epoch
    };
    struct Constraint {
        double capacity = 0;
        std::vector<std::uint32_t> flows;  // active flow slots
        std::uint32_t seen = 0;
        double used = 0, unfrozen_weight = 0;  // scratch for the filling
    };

    void collect_component(std::uint32_t flow);
    void advance(SimTime now);
    void fill();
    void predict(SimTime now);
    [[nodiscard]] std::span<const Use> uses_of(const Flow& f) const {
        return {uses_.data() + f.first_use, f.uses};
    }

    std::vector<Constraint> constraints_;
    std::vector<Flow> flows_;  // slots; free ones listed in free_
    std::vector<std::uint32_t> free_;
    std::vector<Use> uses_;  // per flow slot, a fixed stride region
    std::unordered_map<TaskId, std::uint32_t> slot_of_;
    std::vector<std::uint32_t> component_flows_, component_constraints_;
    std::vector<TaskId> changed_;
    std::uint32_t epoch_ = 0;
    std::size_t max_uses_;
};

}  // namespace piccolo::detail
