// The event loop. A transfer goes through at most three events, all served in time order:
//   READY   all dependencies complete: queue for a send slot of the source device (FIFO).
//   INJECT  ts + o_s, only when the transfer leaves a node/group whose lanes are limited: take the
//           earliest free egress lane of every unit it leaves; injection (and everything after it,
//           the send slot's release included) shifts until they are free.
//   ARRIVE  first byte at the destination, only when the destination device has limited receive
//           slots or the transfer enters units with limited lanes: reception starts when a slot
//           and the ingress lanes are free (bytes are buffered until then).
// Reception then lasts (m-1)G and completion follows o_r later; the completion time is known at
// that point, so successors are released right away (their READY is queued at the time their
// last dependency completes). WAKE lets a device's send queue proceed when a slot frees.
// Compute tasks: READY, then they run one at a time per rank. Ties: (time, kind, task id).
#include "piccolo/engine.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <limits>

#include "event_queue.hpp"
#include "piccolo/error.hpp"

namespace piccolo {

namespace {

using detail::Event;
using detail::EventKind;

constexpr double unknown_time = std::numeric_limits<double>::infinity();

// `count` identical servers per owner (device or unit), each free from a time on; unlimited
// when count == 0. Servers are interchangeable, so a server is just its free time.
class Servers {
  public:
    Servers(std::size_t owners, int count)
        : count_(static_cast<std::size_t>(count)), free_(owners * count_, 0.0) {}
    [[nodiscard]] bool limited() const { return count_ > 0; }
    // A server of `owner` that is free at `now` if there is one (free servers are all alike),
    // otherwise the one that frees first.
    double& earliest(std::size_t owner, double now) {
        double* const first = &free_[owner * count_];
        double* best = first;
        for (double* server = first; server < first + count_; ++server) {
            if (*server <= now) return *server;
            if (*server < *best) best = server;
        }
        return *best;
    }
    // A server taken by a transfer whose release time is not known yet (free == unknown_time).
    double& unresolved(std::size_t owner) {
        double* s = &free_[owner * count_];
        while (*s != unknown_time) ++s;
        return *s;
    }

  private:
    std::size_t count_;
    std::vector<double> free_;
};

struct Waiting {  // a transfer queued for a send slot
    TaskId task;
    double ready;
};

class Engine {
  public:
    Engine(const Schedule& s, const Csr<TaskId>& successors, const Machine& m,
           const RankLayout& layout, const SimOptions& o)
        : s_(s),
          machine_(m),
          options_(o),
          ranks_(static_cast<std::size_t>(layout.ranks())),
          send_slots_(ranks_, radix(m.device_radix)),
          receive_slots_(ranks_, radix(m.device_radix)),
          waiting_(ranks_),
          waiting_head_(ranks_, 0),
          next_wake_(ranks_, unknown_time),
          compute_free_(ranks_, 0.0),
          successors_(successors),
          missing_(s.size()) {
        resolve_parameters();
        // Unit of every rank at every level below the system, and that level's lanes.
        for (std::size_t level = 0; level + 1 < m.levels.size(); ++level) {
            std::vector<int> units(ranks_);
            int count = 0;
            for (std::size_t r = 0; r < ranks_; ++r) {
                units[r] = layout.unit_of(static_cast<int>(r), level);
                count = std::max(count, units[r] + 1);
            }
            unit_.push_back(std::move(units));
            egress_.emplace_back(static_cast<std::size_t>(count), radix(m.levels[level].radix));
            ingress_.emplace_back(static_cast<std::size_t>(count), radix(m.levels[level].radix));
        }
        chosen_.resize(m.levels.size());
        // limited_lanes_below_[l]: a transfer priced at level l leaves a unit with limited lanes.
        limited_lanes_below_.assign(m.levels.size(), false);
        for (std::size_t level = 1; level < m.levels.size(); ++level)
            limited_lanes_below_[level] =
                limited_lanes_below_[level - 1] || egress_[level - 1].limited();
        result_.rank_finish.assign(ranks_, 0.0);
        for (const Level& level : m.levels) result_.levels.push_back({level.name});
        result_.queueing = {{"device send slots"}, {"device receive slots"}};
        for (std::size_t level = 0; level < unit_.size(); ++level) {
            result_.queueing.push_back({m.levels[level].name + " egress lanes"});
            result_.queueing.push_back({m.levels[level].name + " ingress lanes"});
        }
        if (options_.record_trace) trace_.resize(s.size());
    }

    SimResult run() {
        bool joins = false;  // does some task wait for more than one dependency?
        for (TaskId t = 0; t < s_.size(); ++t) {
            missing_[t] = static_cast<std::uint32_t>(s_.deps.row(t).size());
            joins = joins || missing_[t] > 1;
            if (missing_[t] == 0) events_.push({0.0, EventKind::ready, t});
        }
        if (joins) ready_at_.assign(s_.size(), 0.0);
        while (!events_.empty()) {
            const Event e = events_.pop();
            switch (e.kind()) {
                case EventKind::ready:
                    ready(e.id(), e.time);
                    break;
                case EventKind::wake:
                    wake(e.id(), e.time);
                    break;
                case EventKind::inject:
                    inject(e.id(), e.time);
                    break;
                case EventKind::arrive:
                    arrive(e.id(), e.time);
                    break;
            }
        }
        const std::size_t completed = result_.transfers + result_.computes;
        if (completed != s_.size())
            throw InputError(
                fmt::format("schedule never finishes: {} of {} tasks wait on a "
                            "dependency cycle (run piccolo verify)",
                            s_.size() - completed, s_.size()));
        if (options_.record_trace)
            for (TaskId t = 0; t < s_.size(); ++t)
                if (s_.kind[t] == TaskKind::transfer) result_.transfer_trace.push_back(trace_[t]);
        return std::move(result_);
    }

  private:
    static int radix(const std::optional<int>& r) { return r ? *r : 0; }

    // LogGP parameters of every (level, size) the schedule uses, resolved before the replay.
    void resolve_parameters() {
        const std::size_t sizes = s_.size_values.size();
        params_.resize(machine_.levels.size() * sizes);
        wire_.resize(params_.size());
        for (std::size_t level = 0; level < machine_.levels.size(); ++level)
            for (std::size_t c = 0; c < sizes; ++c) {
                const LogGP p =
                    machine_.levels[level].loggp.at(static_cast<double>(s_.size_values[c]));
                params_[level * sizes + c] = p;
                wire_[level * sizes + c] = static_cast<double>(s_.size_values[c] - 1) * p.G;
            }
    }
    [[nodiscard]] std::size_t level_of(TaskId t) const {
        const std::size_t a = static_cast<std::size_t>(s_.src[t]),
                          b = static_cast<std::size_t>(s_.dst[t]);
        for (std::size_t level = 0; level < unit_.size(); ++level)
            if (unit_[level][a] == unit_[level][b]) return level;
        return unit_.size();
    }
    // What one event needs of its transfer, derived once: the level that prices it, its LogGP
    // parameters and (m-1)G.
    struct Priced {
        std::size_t level;
        const LogGP* p;
        double wire;
    };
    [[nodiscard]] Priced priced(TaskId t) const {
        const std::size_t level = level_of(t);
        const std::size_t index = level * s_.size_values.size() + s_.size_class[t];
        return {level, &params_[index], wire_[index]};
    }
    [[nodiscard]] bool contention() const { return options_.contention; }
    // Does a transfer priced at `level` cross the boundary of a unit whose lanes are limited?
    [[nodiscard]] bool needs_lanes(const Priced& x) const {
        return contention() && limited_lanes_below_[x.level];
    }

    void record_wait(std::size_t point, double delay) {
        // Below a picosecond a "delay" is floating-point rounding of equal times, not queueing.
        if (delay <= 1e-12) return;
        QueueingStats& q = result_.queueing[point];
        ++q.delayed;
        q.total_delay += delay;
        q.max_delay = std::max(q.max_delay, delay);
    }

    void ready(TaskId t, double now) {
        if (s_.kind[t] != TaskKind::transfer) return run_compute(t, now);
        if (options_.record_trace) trace_[t] = {t, now};
        if (!contention() || !send_slots_.limited()) return start_send(t, now, nullptr);
        const auto device = static_cast<std::size_t>(s_.src[t]);
        if (waiting_head_[device] == waiting_[device].size()) {  // nobody queued before it
            double& slot = send_slots_.earliest(device, now);
            if (slot <= now) return start_send(t, now, &slot);
        }
        waiting_[device].push_back({t, now});
        wake(static_cast<TaskId>(device), now);
    }

    // Serve the device's send queue in FIFO order while a slot is free now.
    void wake(TaskId device, double now) {
        if (now >= next_wake_[device]) next_wake_[device] = unknown_time;
        std::vector<Waiting>& queue = waiting_[device];
        std::size_t& head = waiting_head_[device];
        while (head < queue.size()) {
            double& slot = send_slots_.earliest(device, now);
            if (slot > now) return schedule_wake(device, slot);  // unknown: INJECT will
            const Waiting next = queue[head++];
            record_wait(0, now - next.ready);
            start_send(next.task, now, &slot);
        }
        queue.clear();
        head = 0;
    }

    void schedule_wake(std::size_t device, double time) {
        if (time == unknown_time || time >= next_wake_[device]) return;
        next_wake_[device] = time;
        events_.push({time, EventKind::wake, static_cast<TaskId>(device)});
    }

    // ts = now: o_s starts. Without lane limits everything up to the arrival is known now.
    void start_send(TaskId t, double now, double* slot) {
        const Priced x = priced(t);
        if (options_.record_trace) trace_[t].send_start = now;
        if (needs_lanes(x)) {
            if (slot) *slot = unknown_time;  // released at INJECT
            events_.push({now + x.p->o_s, EventKind::inject, t});
            return;
        }
        if (slot) *slot = now + std::max(x.p->o_s, x.p->g) + x.wire;
        injected(t, x, now + x.p->o_s);
    }

    // Take one lane of every unit the transfer leaves, then release the send slot.
    void inject(TaskId t, double now) {
        const Priced x = priced(t);
        const double start = take_lanes(x, now, egress_, s_.src[t], 2);
        if (send_slots_.limited()) {
            const auto device = static_cast<std::size_t>(s_.src[t]);
            // The slot's busy time max(o_s, g) + (m-1)G from ts shifts with the injection.
            double& slot = send_slots_.unresolved(device);
            slot = start + (std::max(x.p->o_s, x.p->g) - x.p->o_s) + x.wire;
            if (waiting_head_[device] < waiting_[device].size()) schedule_wake(device, slot);
        }
        injected(t, x, start);
    }

    // Waits for one lane of each unit (below the transfer's common level) that `rank` belongs to,
    // holds them all for the (m-1)G window and returns the window's start.
    double take_lanes(const Priced& x, double now, std::vector<Servers>& lanes, Rank rank,
                      std::size_t first_point) {
        const std::size_t top = x.level;
        double start = now;
        std::size_t binding = top;
        std::size_t chosen = 0;
        for (std::size_t level = 0; level < top; ++level) {
            if (!lanes[level].limited()) continue;
            double& lane = lanes[level].earliest(static_cast<std::size_t>(unit_[level][rank]), now);
            chosen_[chosen++] = &lane;
            if (lane > start) {
                start = lane;
                binding = level;
            }
        }
        const double end = start + x.wire;
        for (std::size_t i = 0; i < chosen; ++i) *chosen_[i] = end;
        if (binding < top) record_wait(first_point + 2 * binding, start - now);
        return start;
    }

    // The first byte leaves at `start` and arrives L later.
    void injected(TaskId t, const Priced& x, double start) {
        if (options_.record_trace) {
            trace_[t].inject_start = start;
            trace_[t].inject_end = start + x.wire;
        }
        const double first_byte = start + x.p->L;
        if (needs_lanes(x) || (contention() && receive_slots_.limited()))
            events_.push({first_byte, EventKind::arrive, t});
        else
            received(t, x, first_byte);
    }

    // Reception needs a receive slot of the device and one ingress lane per unit it enters.
    void arrive(TaskId t, double now) {
        const Priced x = priced(t);
        const auto device = static_cast<std::size_t>(s_.dst[t]);
        double* slot = nullptr;
        double from = now;
        if (receive_slots_.limited()) {
            slot = &receive_slots_.earliest(device, now);
            from = std::max(now, *slot);
            record_wait(1, from - now);
        }
        const double start = take_lanes(x, from, ingress_, s_.dst[t], 3);
        if (slot) *slot = start + x.wire + x.p->o_r;
        received(t, x, start);
    }

    // Reception runs from `start`: (m-1)G, then o_r, and the data is usable.
    void received(TaskId t, const Priced& x, double start) {
        const double complete = start + x.wire + x.p->o_r;
        LevelStats& stats = result_.levels[x.level];
        ++stats.transfers;
        stats.bytes += s_.bytes(t);
        stats.wire_time += x.wire;
        ++result_.transfers;
        double& finish = result_.rank_finish[static_cast<std::size_t>(s_.dst[t])];
        finish = std::max(finish, complete);
        if (options_.record_trace) {
            trace_[t].receive_start = start;
            trace_[t].complete = complete;
            trace_[t].level = static_cast<std::uint8_t>(x.level);
        }
        completed(t, complete);
    }

    // Compute tasks run one at a time per rank, in the order they become ready.
    void run_compute(TaskId t, double now) {
        const ComputeCosts& c = machine_.compute;
        const auto bytes = static_cast<double>(s_.bytes(t));
        double cost = 0;
        switch (s_.kind[t]) {
            case TaskKind::reduce:
                cost = c.reduce_per_byte * bytes;
                break;
            case TaskKind::permute:
                cost = c.permute_latency + c.permute_per_byte * bytes;
                break;
            case TaskKind::copy:
                cost = c.copy_per_byte * bytes;
                break;
            case TaskKind::transfer:
                break;
        }
        const auto rank = static_cast<std::size_t>(s_.src[t]);
        const double start = std::max(now, compute_free_[rank]);
        const double end = start + cost;
        compute_free_[rank] = end;
        ++result_.computes;
        result_.compute_time += cost;
        result_.rank_finish[rank] = std::max(result_.rank_finish[rank], end);
        if (options_.record_trace) result_.compute_trace.push_back({t, now, start, end});
        completed(t, end);
    }

    // Task t completes at `time`: a successor whose last dependency this was is ready then.
    void completed(TaskId t, double time) {
        result_.makespan = std::max(result_.makespan, time);
        for (TaskId next : successors_.row(t)) {
            double ready = time;
            if (!ready_at_.empty()) ready = ready_at_[next] = std::max(ready_at_[next], time);
            if (--missing_[next] == 0) events_.push({ready, EventKind::ready, next});
        }
    }

    const Schedule& s_;
    const Machine& machine_;
    SimOptions options_;
    std::size_t ranks_;
    std::vector<LogGP> params_;           // per (level, size class)
    std::vector<double> wire_;            // (m-1)G per (level, size class)
    std::vector<std::vector<int>> unit_;  // per level below the system: unit of each rank
    Servers send_slots_, receive_slots_;
    std::vector<Servers> egress_, ingress_;  // per level below the system
    std::vector<std::vector<Waiting>> waiting_;
    std::vector<std::size_t> waiting_head_;
    std::vector<double> next_wake_;  // earliest WAKE event queued per device
    std::vector<double> compute_free_;
    const Csr<TaskId>& successors_;
    std::vector<std::uint32_t> missing_;     // dependencies not yet complete
    std::vector<double> ready_at_;           // latest dependency completion (tasks with joins)
    std::vector<bool> limited_lanes_below_;  // per level, see the constructor
    std::vector<double*> chosen_;            // scratch: one lane per level
    std::vector<TransferTrace> trace_;
    detail::EventQueue events_;
    SimResult result_;
};

}  // namespace

SimResult simulate(const Schedule& schedule, const Csr<TaskId>& successors, const Machine& machine,
                   const RankLayout& layout, const SimOptions& options) {
    if (schedule.shape.ranks > layout.ranks())
        throw InputError(fmt::format("the schedule has {} ranks but the layout places only {}",
                                     schedule.shape.ranks, layout.ranks()));
    return Engine(schedule, successors, machine, layout, options).run();
}

SimResult simulate(const Schedule& schedule, const Machine& machine, const RankLayout& layout,
                   const SimOptions& options) {
    return simulate(schedule, schedule.successors(), machine, layout, options);
}

}  // namespace piccolo
