#include "fair_share.hpp"

#include <algorithm>
#include <cmath>

namespace piccolo::detail {

std::uint32_t FairShare::add_constraint(double capacity) {
    constraints_.push_back({capacity, {}, 0, 0, 0});
    return static_cast<std::uint32_t>(constraints_.size() - 1);
}

SimTime FairShare::predicted_end(TaskId task) const {
    const auto found = slot_of_.find(task);
    return found == slot_of_.end() ? never : flows_[found->second].end;
}

SimTime FairShare::predicted_data_end(TaskId task) const {
    const auto found = slot_of_.find(task);
    return found == slot_of_.end() ? never : flows_[found->second].data_end;
}

void FairShare::data_done(TaskId task) {
    flows_[slot_of_.at(task)].data_end = never;
}

void FairShare::start(TaskId task, SimTime now, double work, double tail,
                      std::span<const Use> uses) {
    std::uint32_t slot = 0;
    if (free_.empty()) {
        slot = static_cast<std::uint32_t>(flows_.size());
        flows_.emplace_back();
        uses_.resize(uses_.size() + max_uses_);
    } else {
        slot = free_.back();
        free_.pop_back();
    }
    Flow& f = flows_[slot];
    f = Flow{task,
             work,
             tail,
             1.0,
             now,
             never,
             now,  // a placeholder that predict() replaces: the data is not done yet
             static_cast<std::uint32_t>(slot * max_uses_),
             static_cast<std::uint32_t>(uses.size()),
             false,
             0};
    std::copy(uses.begin(), uses.end(), uses_.begin() + f.first_use);
    for (const Use& u : uses) constraints_[u.constraint].flows.push_back(slot);
    slot_of_.emplace(task, slot);
    collect_component(slot);
    advance(now);
    fill();
    predict(now);
}

void FairShare::finish(TaskId task, SimTime now) {
    const auto found = slot_of_.find(task);
    const std::uint32_t slot = found->second;
    slot_of_.erase(found);
    Flow& f = flows_[slot];
    // Its neighbours are the component to recompute; the flow itself leaves it.
    collect_component(slot);
    for (const Use& u : uses_of(f)) {
        std::vector<std::uint32_t>& list = constraints_[u.constraint].flows;
        list.erase(std::find(list.begin(), list.end(), slot));
    }
    component_flows_.erase(std::find(component_flows_.begin(), component_flows_.end(), slot));
    f.uses = 0;
    free_.push_back(slot);
    advance(now);
    fill();
    predict(now);
}

// Every flow and constraint reachable from `flow` through shared constraints.
void FairShare::collect_component(std::uint32_t flow) {
    ++epoch_;
    component_flows_.assign(1, flow);
    component_constraints_.clear();
    flows_[flow].seen = epoch_;
    for (std::size_t i = 0; i < component_flows_.size(); ++i) {
        for (const Use& u : uses_of(flows_[component_flows_[i]])) {
            Constraint& c = constraints_[u.constraint];
            if (c.seen == epoch_) continue;
            c.seen = epoch_;
            component_constraints_.push_back(u.constraint);
            for (std::uint32_t other : c.flows) {
                if (flows_[other].seen == epoch_) continue;
                flows_[other].seen = epoch_;
                component_flows_.push_back(other);
            }
        }
    }
}

// Accounts every flow's progress at its old share up to `now`.
void FairShare::advance(SimTime now) {
    for (std::uint32_t slot : component_flows_) {
        Flow& f = flows_[slot];
        f.remaining = std::max(0.0, f.remaining - f.share * static_cast<double>(now - f.updated));
        f.updated = now;
    }
}

// Progressive filling over the component: all unfrozen shares rise together until a constraint
// saturates (its flows freeze there) or they reach full speed.
void FairShare::fill() {
    for (std::uint32_t slot : component_flows_) flows_[slot].frozen = false;
    std::size_t unfrozen = component_flows_.size();
    while (unfrozen > 0) {
        double level = 1.0;
        for (std::uint32_t j : component_constraints_) {
            Constraint& c = constraints_[j];
            c.used = c.unfrozen_weight = 0;
            for (std::uint32_t slot : c.flows) {
                const Flow& f = flows_[slot];
                for (const Use& u : uses_of(f))
                    if (u.constraint == j)
                        (f.frozen ? c.used : c.unfrozen_weight) +=
                            u.weight * (f.frozen ? f.share : 1);
            }
            if (c.unfrozen_weight > 0)
                level = std::min(level, (c.capacity - c.used) / c.unfrozen_weight);
        }
        level = std::max(level, 1e-12);  // rounding must not stop a flow
        auto freeze = [&](Flow& f) {
            if (f.frozen) return;
            f.frozen = true;
            f.share = level;
            --unfrozen;
        };
        if (level >= 1.0) {
            for (std::uint32_t slot : component_flows_) freeze(flows_[slot]);
            break;
        }
        for (std::uint32_t j : component_constraints_) {
            Constraint& c = constraints_[j];
            if (c.unfrozen_weight > 0 &&
                (c.capacity - c.used) / c.unfrozen_weight <= level * (1 + 1e-12))
                for (std::uint32_t slot : c.flows) freeze(flows_[slot]);
        }
    }
}

namespace {

// Femtoseconds to do `work` at `share`. Shares are ratios of small integers in the cases people
// check by hand: take the nearest whole femtosecond when the quotient is within a millionth of it.
// A share so small that the flow would outlast max_time is cut there: the engine then stops the
// run with its message on simulated time.
SimTime duration(double work, double share) {
    const double left = std::min(std::max(0.0, work) / share, static_cast<double>(max_time));
    const double whole = std::round(left);
    return static_cast<SimTime>(std::abs(left - whole) < 1e-6 ? whole : std::ceil(left));
}

}  // namespace

void FairShare::predict(SimTime now) {
    changed_.clear();
    for (std::uint32_t slot : component_flows_) {
        Flow& f = flows_[slot];
        const SimTime end = now + duration(f.remaining, f.share);
        const SimTime data_end =
            f.data_end == never ? never : now + duration(f.remaining - f.tail, f.share);
        if (end != f.end || data_end != f.data_end) {
            f.end = end;
            f.data_end = data_end;
            changed_.push_back(f.task);
        }
    }
}

}  // namespace piccolo::detail
