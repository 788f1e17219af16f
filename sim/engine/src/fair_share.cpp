// Max-min fair sharing (fair_share.hpp states the model). One refill at a time step:
//   1. the components: every class and constraint connected, through shared constraints, to a
//      class that gained or lost a flow, or to a constraint that lost a class (the last
//      component is kept while no class comes or goes, and reused);
//   2. progressive filling over each component, by classes: the least of the constraints'
//      levels (block_min.hpp) gives the next saturation, whose classes freeze at that level;
//      each frozen class moves its count from unfrozen to frozen in its other constraints,
//      which compute their level again (a round costs what it freezes, not the component);
//   3. the groups: a class's bottleneck is the first of its constraints (in its order of uses,
//      the same for every flow of its kind) that saturated in its round, or none (full speed).
//      A group whose share or members change first brings its progress up to now at the old
//      share; a class whose bottleneck changed moves its flows, each keeping the work it has
//      left; flows that started join their class's group with all their work left.
// A group's predictions are then at + the work left at its share, rounded as duration() says.
// Every sum and every time depends only on which flows run through which constraints and when
// they started, never on the order of lists or on how flows group into classes: the quotient
// replay (docs/symmetry.md), where one class may stand for several of the full replay's, gives
// the same times bit for bit.
#include "fair_share.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <utility>

namespace piccolo::detail {

namespace {

// A group's progress counter starts again from zero once it reaches this much work (about a
// millisecond at full speed), so that the work a flow has left, the difference of two counter
// values, keeps the precision of a message's own work.
constexpr double rebase_at = 0x1p40;

// Femtoseconds to do `work` at `share`. Shares are ratios of small integers in the cases people
// check by hand: take the nearest whole femtosecond when the quotient is within a millionth of it.
// A share so small that the flow would outlast max_time is cut there: the engine then stops the
// run with its message on simulated time.
SimTime duration(double work, double share) {
    const double left = std::min(std::max(0.0, work) / share, static_cast<double>(max_time));
    const double whole = std::round(left);
    return static_cast<SimTime>(std::abs(left - whole) < 1e-6 ? whole : std::ceil(left));
}

std::uint64_t hash_of(std::span<const FairShare::Use> uses) {
    std::uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (const FairShare::Use& u : uses) {
        h = (h ^ u.constraint) * 0xff51afd7ed558ccdULL;
        h = (h ^ std::bit_cast<std::uint64_t>(u.weight)) * 0xc4ceb9fe1a85ec53ULL;
    }
    return h ^ (h >> 33);
}

}  // namespace

// ---- flows, classes and constraints -----------------------------------------------------------

std::uint32_t FairShare::add_constraint(double capacity) {
    constraints_.emplace_back();
    constraints_.back().capacity = capacity;
    return static_cast<std::uint32_t>(constraints_.size() - 1);
}

std::uint32_t FairShare::weight_index(Constraint& c, double weight) {
    for (std::uint32_t i = 0; i < c.weights.size(); ++i)
        if (c.weights[i].weight == weight) return i;
    c.weights.push_back({weight});
    const auto i = static_cast<std::uint32_t>(c.weights.size() - 1);
    c.ascending.insert(
        std::upper_bound(c.ascending.begin(), c.ascending.end(), weight,
                         [&](double x, std::uint32_t j) { return x < c.weights[j].weight; }),
        i);
    return i;
}

// Sum over the constraint's weights, in ascending order, of the count times the weight: the
// same however its flows came and went.
double FairShare::weight_sum(const Constraint& c, std::uint32_t Weight::*count) const {
    double sum = 0;
    for (std::uint32_t i : c.ascending)
        sum += static_cast<double>(c.weights[i].*count) * c.weights[i].weight;
    return sum;
}

std::uint32_t FairShare::class_of(std::span<const Use> uses) {
    const std::uint64_t key = hash_of(uses);
    std::uint32_t found = none;
    class_by_key_.find(key, [&](std::uint32_t k) {
        const std::span<const ClassUse> mine = uses_of(k);
        const bool same =
            mine.size() == uses.size() &&
            std::equal(mine.begin(), mine.end(), uses.begin(),
                       [&](const ClassUse& a, const Use& b) {
                           return a.constraint == b.constraint &&
                                  constraints_[a.constraint].weights[a.weight].weight == b.weight;
                       });
        if (same) found = k;
        return same;
    });
    if (found != none) return found;
    std::uint32_t id = 0;
    if (free_classes_.empty()) {
        id = static_cast<std::uint32_t>(classes_.size());
        classes_.emplace_back();
        state_.emplace_back();
        seen_.push_back(0);
        class_uses_.resize(class_uses_.size() + max_uses_);
    } else {
        id = free_classes_.back();
        free_classes_.pop_back();
    }
    Class& c = classes_[id];
    c.key = key;
    c.first = none;
    c.alive = true;
    state_[id] = {static_cast<std::uint32_t>(uses.size()), 0, 0, none, none};
    for (std::size_t i = 0; i < uses.size(); ++i) {
        Constraint& constraint = constraints_[uses[i].constraint];
        class_uses_[id * max_uses_ + i] = {uses[i].constraint,
                                           static_cast<std::uint32_t>(constraint.classes.size()),
                                           weight_index(constraint, uses[i].weight)};
        constraint.classes.push_back(id);
    }
    class_by_key_.insert(key, id);
    // A class whose constraints all lie in the component kept for reuse joins it; any other
    // change of the classes makes the component be searched again.
    const std::span<const ClassUse> mine = uses_of(id);
    if (component_ == classes_changed_ && !mine.empty() &&
        std::all_of(mine.begin(), mine.end(), [&](const ClassUse& u) {
            return constraints_[u.constraint].seen == component_epoch_;
        })) {
        seen_[id] = component_epoch_;
        component_classes_.push_back(id);
    } else {
        ++classes_changed_;
    }
    return id;
}

// The class has no flow left: its constraints forget it, and their components are refilled.
void FairShare::remove_class(std::uint32_t cls) {
    Class& c = classes_[cls];
    for (const ClassUse& u : uses_of(cls)) {
        Constraint& constraint = constraints_[u.constraint];
        const std::uint32_t moved = constraint.classes.back();
        constraint.classes[u.at] = moved;
        constraint.classes.pop_back();
        if (moved != cls)
            for (ClassUse& m : uses_of(moved))
                if (m.constraint == u.constraint) m.at = u.at;
        if (!constraint.dirty) {
            constraint.dirty = true;
            dirty_.push_back(u.constraint);
        }
    }
    class_by_key_.erase(c.key, cls);
    c.alive = c.dirty = false;
    state_[cls].group = none;
    free_classes_.push_back(cls);
    ++classes_changed_;
}

void FairShare::start(TaskId task, SimTime /*now*/, double work, double tail,
                      std::span<const Use> uses) {
    if (groups_.empty()) {
        groups_.resize(constraints_.size() + 1);
        due_.assign(groups_.size(), never);
    }
    std::uint32_t slot = 0;
    if (free_flows_.empty()) {
        slot = static_cast<std::uint32_t>(flows_.size());
        flows_.emplace_back();
    } else {
        slot = free_flows_.back();
        free_flows_.pop_back();
    }
    const std::uint32_t cls = class_of(uses);
    Class& c = classes_[cls];
    const double data = work - tail;
    flows_[slot] = Flow{task, cls, none, c.first, none, none, data > 0, work, data};
    if (c.first != none) flows_[c.first].previous = slot;
    c.first = slot;
    ++state_[cls].count;
    joining_.push_back(slot);
    for (const ClassUse& u : uses_of(cls)) ++constraints_[u.constraint].weights[u.weight].active;
    if (!c.dirty) {
        c.dirty = true;
        dirty_classes_.push_back(cls);
    }
}

// ---- refilling --------------------------------------------------------------------------------

void FairShare::refill(SimTime now) {
    ++epoch_;
    if (component_ == classes_changed_ &&
        std::all_of(dirty_classes_.begin(), dirty_classes_.end(),
                    [&](std::uint32_t cls) { return seen_[cls] == component_epoch_; })) {
        // No class went since the last refill, which found a single component holding every
        // class that changed, and those that came joined it: it is still their component.
        fill();
        apply(now);
    } else {
        std::size_t components = 0;
        for (std::uint32_t cls : dirty_classes_) {
            if (!classes_[cls].alive || seen_[cls] == epoch_) continue;
            collect_component(cls, none);
            fill();
            apply(now);
            ++components;
        }
        for (std::uint32_t j : dirty_) {
            Constraint& c = constraints_[j];
            c.dirty = false;
            if (c.seen == epoch_ || c.classes.empty()) continue;
            collect_component(none, j);
            fill();
            apply(now);
            ++components;
        }
        component_ = components == 1 ? classes_changed_ : classes_changed_ - 1;
        component_epoch_ = epoch_;
    }
    for (std::uint32_t cls : dirty_classes_) classes_[cls].dirty = false;
    dirty_classes_.clear();
    dirty_.clear();
    // Flows that started join their class's group with all their work left (the group's progress
    // brought up to now first: its share has not changed, or apply() did that already).
    for (std::uint32_t slot : joining_) {
        Flow& f = flows_[slot];
        const std::uint32_t g = state_[f.cls].group;
        touch(g, now);
        f.end += groups_[g].progress;
        f.data += groups_[g].progress;
        join(slot, g);
    }
    joining_.clear();
    for (std::uint32_t g : touched_groups_) schedule(g);
    touched_groups_.clear();
}

// Every class and constraint reachable from `cls` (or from `constraint`) through shared
// constraints.
void FairShare::collect_component(std::uint32_t cls, std::uint32_t constraint) {
    component_classes_.clear();
    component_constraints_.clear();
    if (cls != none) {
        seen_[cls] = epoch_;
        component_classes_.push_back(cls);
    } else {
        constraints_[constraint].seen = epoch_;
        component_constraints_.push_back(constraint);
    }
    std::size_t next_class = 0, next_constraint = 0;
    while (next_class < component_classes_.size() ||
           next_constraint < component_constraints_.size()) {
        for (; next_class < component_classes_.size(); ++next_class)
            for (const ClassUse& u : uses_of(component_classes_[next_class])) {
                Constraint& c = constraints_[u.constraint];
                if (c.seen == epoch_) continue;
                c.seen = epoch_;
                component_constraints_.push_back(u.constraint);
            }
        for (; next_constraint < component_constraints_.size(); ++next_constraint)
            for (std::uint32_t k : constraints_[component_constraints_[next_constraint]].classes) {
                if (seen_[k] == epoch_) continue;
                seen_[k] = epoch_;
                component_classes_.push_back(k);
            }
    }
}

// The constraint's level: the share its unfrozen flows would have if it bound them (infinite
// when none is left).
void FairShare::update_level(std::uint32_t j) {
    const Constraint& c = constraints_[j];
    levels_.set(c.index, c.unfrozen_weight > 0 ? (c.capacity - c.used) / c.unfrozen_weight
                                               : std::numeric_limits<double>::infinity());
}

// Progressive filling over the component: all unfrozen shares rise together until a constraint
// saturates (its classes freeze there: levels within a relative 1e-12 of the lowest saturate
// together) or they reach full speed. Sets each class's next_group and each saturated
// constraint's saturated_level.
void FairShare::fill() {
    ++fill_;
    moved_.clear();
    levels_.assign(component_constraints_.size(), std::numeric_limits<double>::infinity());
    for (std::size_t i = 0; i < component_constraints_.size(); ++i) {
        Constraint& c = constraints_[component_constraints_[i]];
        c.index = static_cast<std::uint32_t>(i);
        c.used = 0;
        for (Weight& w : c.weights) w.unfrozen = w.active, w.round = 0;
        c.unfrozen_weight = weight_sum(c, &Weight::unfrozen);
        update_level(component_constraints_[i]);
    }
    std::size_t unfrozen = component_classes_.size();
    const auto free_group = static_cast<std::uint32_t>(constraints_.size());
    while (unfrozen > 0) {
        const double level = std::max(std::min(1.0, levels_.min()), 1e-12);  // rounding must
                                                                             // not stop a flow
        if (level >= 1.0) {
            for (std::uint32_t k : component_classes_)
                if (state_[k].frozen != fill_) assign(k, free_group);
            break;
        }
        ++round_;
        saturated_.clear();
        levels_.for_each_at_most(level * (1 + 1e-12), [&](std::size_t i) {
            saturated_.push_back(component_constraints_[i]);
        });
        for (std::uint32_t j : saturated_) {
            Constraint& c = constraints_[j];
            c.saturated = round_;
            c.saturated_in = fill_;
            c.saturated_level = level;
            levels_.set(c.index, std::numeric_limits<double>::infinity());
        }
        touched_.clear();
        for (std::uint32_t j : saturated_)
            for (std::uint32_t k : constraints_[j].classes) unfrozen -= freeze(k) ? 1 : 0;
        for (std::uint32_t j : touched_) {
            Constraint& c = constraints_[j];
            c.used += weight_sum(c, &Weight::round) * level;
            for (Weight& w : c.weights) w.unfrozen -= std::exchange(w.round, 0);
            c.unfrozen_weight = weight_sum(c, &Weight::unfrozen);
            update_level(j);
        }
    }
}

// In the current round: the class freezes (false: it was frozen already), its bottleneck is the
// first of its constraints that saturated in this round, and its flows leave the unfrozen counts
// of the other constraints it uses.
bool FairShare::freeze(std::uint32_t k) {
    ClassState& cls = state_[k];
    if (cls.frozen == fill_) return false;
    cls.frozen = fill_;
    const std::span<const ClassUse> uses = uses_of(k);
    assign(k, std::find_if(uses.begin(), uses.end(), [&](const ClassUse& u) {
                  return constraints_[u.constraint].saturated == round_;
              })->constraint);
    const std::uint32_t n = cls.count;
    for (const ClassUse& u : uses) {
        Constraint& c = constraints_[u.constraint];
        if (c.saturated == round_) continue;  // done with this filling
        if (c.touched != round_) {
            c.touched = round_;
            touched_.push_back(u.constraint);
        }
        c.weights[u.weight].round += n;
    }
    return true;
}

// The filling puts class k in group g: a new class is there at once (its flows join after the
// refill), one that changes groups is moved by apply().
void FairShare::assign(std::uint32_t k, std::uint32_t g) {
    ClassState& cls = state_[k];
    cls.next_group = g;
    if (cls.group == g) return;
    if (cls.group == none)
        cls.group = g;
    else
        moved_.push_back(k);
}

// The filling's outcome for the component's groups and flows, at `now`.
void FairShare::apply(SimTime now) {
    for (std::uint32_t j : component_constraints_) {
        const Constraint& c = constraints_[j];
        if (c.saturated_in == fill_ && c.saturated_level != groups_[j].share) touch(j, now);
    }
    for (std::uint32_t k : moved_) {
        touch(state_[k].group, now);
        touch(state_[k].next_group, now);
    }
    // A class whose bottleneck changed takes its flows, with the work each has left, to the new
    // group; both counters are up to date.
    for (std::uint32_t k : moved_) {
        ClassState& c = state_[k];
        const Group& from = groups_[c.group];
        const Group& to = groups_[c.next_group];
        for (std::uint32_t slot = classes_[k].first; slot != none; slot = flows_[slot].next) {
            Flow& f = flows_[slot];
            if (f.end_at == none) continue;  // joining
            const double end = f.end - from.progress, data = f.data - from.progress;
            leave(slot);
            f.end = to.progress + end;
            f.data = to.progress + data;
            join(slot, c.next_group);
        }
        c.group = c.next_group;
    }
    for (std::uint32_t j : component_constraints_)
        if (const Constraint& c = constraints_[j]; c.saturated_in == fill_)
            groups_[j].share = c.saturated_level;
}

// The group's progress is accounted up to `now` at its current share (once per refill), before
// its share or members change; it is rebased to zero when it has grown large.
void FairShare::touch(std::uint32_t g, SimTime now) {
    Group& group = groups_[g];
    if (group.touched == epoch_) return;
    group.touched = epoch_;
    touched_groups_.push_back(g);
    if (group.ends.empty()) {
        group.progress = 0;
        group.at = now;
        return;
    }
    group.progress += group.share * static_cast<double>(now - group.at);
    group.at = now;
    if (group.progress < rebase_at) return;
    for (std::uint32_t slot : group.ends) {
        flows_[slot].end -= group.progress;
        flows_[slot].data -= group.progress;
    }
    group.progress = 0;
}

// The flow enters group g: Flow::end and Flow::data hold the counter values at which its work
// and its data are done.
void FairShare::join(std::uint32_t slot, std::uint32_t g) {
    Group& group = groups_[g];
    ends(group).push(slot);
    if (flows_[slot].data_left) data(group).push(slot);
}

void FairShare::leave(std::uint32_t slot) {
    Flow& f = flows_[slot];
    Group& group = groups_[state_[f.cls].group];
    ends(group).erase(f.end_at);
    if (f.data_at != none) data(group).erase(f.data_at);
}

SimTime FairShare::predicted(const Group& g, double target) const {
    return g.at + duration(target - g.progress, g.share);
}

void FairShare::schedule(std::uint32_t g) {
    const Group& group = groups_[g];
    SimTime next = never;
    if (!group.data.empty()) next = predicted(group, flows_[group.data.front()].data);
    if (!group.ends.empty())
        next = std::min(next, predicted(group, flows_[group.ends.front()].end));
    due_.set(g, next);
}

void FairShare::take_due(SimTime now, std::vector<TaskId>& data_done, std::vector<TaskId>& ended) {
    data_done.clear();
    ended.clear();
    touched_.clear();
    due_.for_each_at_most(
        now, [&](std::size_t g) { touched_.push_back(static_cast<std::uint32_t>(g)); });
    for (std::uint32_t g : touched_) {
        Group& group = groups_[g];
        while (!group.data.empty() && predicted(group, flows_[group.data.front()].data) <= now) {
            Flow& f = flows_[group.data.front()];
            data(group).erase(0);
            f.data_left = false;
            data_done.push_back(f.task);
        }
        while (!group.ends.empty() && predicted(group, flows_[group.ends.front()].end) <= now) {
            const std::uint32_t slot = group.ends.front();
            Flow& f = flows_[slot];
            ends(group).erase(0);
            if (f.data_at != none) {  // not before its data, which ends no later
                data(group).erase(f.data_at);
                data_done.push_back(f.task);
            }
            ended.push_back(f.task);
            // The flow leaves its class; the class's component is refilled at the next refill.
            Class& c = classes_[f.cls];
            (f.previous == none ? c.first : flows_[f.previous].next) = f.next;
            if (f.next != none) flows_[f.next].previous = f.previous;
            --state_[f.cls].count;
            for (const ClassUse& u : uses_of(f.cls))
                --constraints_[u.constraint].weights[u.weight].active;
            if (c.first == none) {
                remove_class(f.cls);
            } else if (!c.dirty) {
                c.dirty = true;
                dirty_classes_.push_back(f.cls);
            }
            f.cls = none;
            free_flows_.push_back(slot);
        }
        schedule(g);
    }
    std::sort(data_done.begin(), data_done.end());
    std::sort(ended.begin(), ended.end());
}

}  // namespace piccolo::detail
