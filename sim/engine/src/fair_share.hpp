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
//
// How it stays cheap (fair_share.cpp says more):
//   - Shares are refilled once per simulated time (refill(), after every event of that time),
//     and only for the flows connected, through shared constraints, to a flow that started or
//     ended since (their connected components).
//   - Flows with the same constraints and weights form a *class*: they always have the same
//     share, so the filling works on classes, a count each. Each constraint keeps its flows'
//     count per weight, and its sums are counts times weights times levels, the same whatever
//     the order in which flows started or the classes they form.
//   - A flow's progress is kept by the constraint that bottlenecks it (its *group*; flows at
//     full speed share one more group): all of a group's flows move at its share, so the group
//     keeps one progress counter, and each flow the counter values at which its data and its
//     work are done, in two heaps. When a share changes, only the group's counter is brought up
//     to date; a flow is touched when it starts, ends, or its class changes bottleneck.
// The cost of a time step depends on the classes of the components refilled and on the
// constraints, never on message sizes, and not on how many flows each class holds.

#include <cstdint>
#include <span>
#include <vector>

#include "block_min.hpp"
#include "hash_index.hpp"
#include "indexed_heap.hpp"
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

    // The flow of `task` starts at `now`. Its share is set by the next refill(), at `now`.
    // When work == tail its data is done at once: the caller treats it as done now, and
    // take_due() never lists it as such.
    void start(TaskId task, SimTime now, double work, double tail, std::span<const Use> uses);
    // Has a flow started or ended since the last refill()?
    [[nodiscard]] bool pending() const { return !dirty_classes_.empty() || !dirty_.empty(); }
    // Refills the shares of the flows connected to those that started or ended, at `now`: call
    // it once every event at `now` has been served, before time advances.
    void refill(SimTime now);
    // The earliest predicted time at which some flow's data is done or its work ends; never
    // when no flow runs.
    [[nodiscard]] SimTime next_due() { return due_.min(); }
    // The flows whose data is done at `now` and those whose work ends at `now` (those leave),
    // each list in task order. Precondition: now == next_due().
    void take_due(SimTime now, std::vector<TaskId>& data_done, std::vector<TaskId>& ended);

  private:
    static constexpr std::uint32_t none = ~std::uint32_t{0};  // as IndexedHeap's

    struct Flow {
        TaskId task = 0;
        std::uint32_t cls = none;                    // its class
        std::uint32_t previous = none, next = none;  // its neighbours in its class's list
        std::uint32_t end_at = none;   // its position in its group's heap of ends, none before
                                       // it joins a group (at the refill after its start)
        std::uint32_t data_at = none;  // its position in the group's heap of data ends
        bool data_left = false;        // its data is not done
        // The values of its group's progress at which its work and its data are done. Before it
        // joins a group: its work and the work of its data.
        double end = 0, data = 0;
    };
    struct ClassUse {
        std::uint32_t constraint;
        std::uint32_t at;      // the class's position in the constraint's class list
        std::uint32_t weight;  // its entry in the constraint's weights
    };
    // Per class slot: what the refilling reads for every class of a component, kept small
    // and together (Class holds the rest).
    struct ClassState {
        std::uint32_t uses = 0;           // its constraints, at class_uses_[slot * max_uses_]
        std::uint32_t count = 0;          // its flows
        std::uint32_t frozen = 0;         // the filling that froze it
        std::uint32_t group = none;       // the group its flows are in
        std::uint32_t next_group = none;  // the group the filling assigns
    };
    struct Class {
        std::uint64_t key = 0;              // hash of its uses
        std::uint32_t first = none;         // its flows: a list through Flow::next
        bool alive = false, dirty = false;  // dirty: listed in dirty_classes_
    };
    // A constraint's flows of one weight: how many there are, and during a filling how many are
    // still unfrozen and how many froze in the current round.
    struct Weight {
        double weight;
        std::uint32_t active = 0, unfrozen = 0, round = 0;
    };
    struct Constraint {
        double capacity = 0;
        std::vector<std::uint32_t> classes;    // the classes with flows through it
        std::vector<Weight> weights;           // in order of first use
        std::vector<std::uint32_t> ascending;  // their indices by ascending weight
        std::uint32_t seen = 0;                // component search epoch
        bool dirty = false;                    // lost a class since the last refill
        // The filling's scratch.
        double used = 0, unfrozen_weight = 0;
        std::uint32_t index = 0;         // its position in the component
        std::uint32_t saturated = 0;     // the round it saturated in
        std::uint32_t saturated_in = 0;  // the filling it saturated in
        std::uint32_t touched = 0;       // the last round that froze some of its flows
        double saturated_level = 0;      // the share it gives its flows then
    };
    // The flows a constraint bottlenecks (or, the last group, the flows at full speed): they all
    // move at `share`, and have done `progress` femtoseconds of work each since the counter's
    // origin, as accounted at `at`.
    struct Group {
        double share = 1, progress = 0;
        SimTime at = 0;
        std::vector<std::uint32_t> ends, data;  // heaps of flow slots by Flow::end, Flow::data
        std::uint32_t touched = 0;              // refill epoch
    };
    std::uint32_t class_of(std::span<const Use> uses);
    void remove_class(std::uint32_t cls);
    void collect_component(std::uint32_t cls, std::uint32_t constraint);
    void fill();
    bool freeze(std::uint32_t cls);
    void assign(std::uint32_t cls, std::uint32_t group);
    void apply(SimTime now);
    void touch(std::uint32_t group, SimTime now);
    void join(std::uint32_t slot, std::uint32_t group);
    void leave(std::uint32_t slot);
    void schedule(std::uint32_t group);
    void update_level(std::uint32_t constraint);
    [[nodiscard]] double weight_sum(const Constraint& c, std::uint32_t Weight::*count) const;
    [[nodiscard]] static std::uint32_t weight_index(Constraint& c, double weight);
    [[nodiscard]] std::span<ClassUse> uses_of(std::uint32_t cls) {
        return {class_uses_.data() + cls * max_uses_, state_[cls].uses};
    }
    [[nodiscard]] SimTime predicted(const Group& g, double target) const;

    // A group's heap of flows by the counter value at which their work (or data) is done.
    [[nodiscard]] auto ends(Group& g) {
        return IndexedHeap(
            g.ends, [this](std::uint32_t f) { return flows_[f].end; },
            [this](std::uint32_t f) -> std::uint32_t& { return flows_[f].end_at; });
    }
    [[nodiscard]] auto data(Group& g) {
        return IndexedHeap(
            g.data, [this](std::uint32_t f) { return flows_[f].data; },
            [this](std::uint32_t f) -> std::uint32_t& { return flows_[f].data_at; });
    }

    std::vector<Constraint> constraints_;
    std::vector<Group> groups_;  // one per constraint, then the group of flows at full speed
    std::vector<Class> classes_;
    std::vector<ClassState> state_;    // per class slot
    std::vector<std::uint32_t> seen_;  // per class slot: its component search epoch
    std::vector<std::uint32_t> free_classes_;
    std::vector<ClassUse> class_uses_;  // per class slot, a fixed stride region
    HashIndex class_by_key_;
    std::vector<Flow> flows_;  // slots; free ones listed in free_flows_
    std::vector<std::uint32_t> free_flows_;
    std::vector<std::uint32_t> joining_;                // flows started since the last refill
    std::vector<std::uint32_t> dirty_classes_, dirty_;  // seeds of the next refill
    std::vector<std::uint32_t> component_classes_, component_constraints_;
    std::vector<std::uint32_t> saturated_, touched_, touched_groups_, moved_;
    // How many times a class came or went; the value when the component lists above were
    // collected, if they hold the only component of that refill (else any other value), and the
    // epoch that marked its classes.
    std::uint64_t classes_changed_ = 0, component_ = ~std::uint64_t{0};
    std::uint32_t component_epoch_ = 0;
    BlockMin<double> levels_;  // the filling's: per constraint of the component, its level
    BlockMin<SimTime> due_;    // per group, the next time a flow's data or work is done
    std::uint32_t epoch_ = 0;  // refills
    std::uint32_t fill_ = 0;   // fillings
    std::uint32_t round_ = 0;  // rounds of fillings
    std::size_t max_uses_;
};

}  // namespace piccolo::detail
