// The event loop. Each transfer goes through at most four events:
//   READY    all dependencies complete: queue for a send slot of the source device (FIFO).
//   INJECT   ts + o_s, only when the transfer leaves a node/group with limited lanes: take the
//            earliest free egress lane of every unit it leaves; injection (and everything after
//            it) shifts until they are free. Requests are served in time order, so lanes are FIFO.
//   ARRIVE   first byte at the destination (injection + L), only when the destination has
//            limited receive slots or ingress lanes: reception starts when a slot and the lanes
//            are free (buffered until then), lasts (m-1)G, completion follows o_r later.
//   COMPLETE data usable at dst: successors whose last dependency this was become READY.
// plus WAKE (a device's send queue may proceed) and, for compute tasks, READY and COMPLETE only.
// Events are ordered by (time, kind, task id), so runs are deterministic.
#include "piccolo/engine.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <queue>
#include <unordered_map>

#include "piccolo/error.hpp"

namespace piccolo {

namespace {

constexpr double unknown_time = std::numeric_limits<double>::infinity();

enum class EventKind : std::uint8_t { complete, ready, wake, inject, arrive };

struct Event {
    double time;
    EventKind kind;
    std::uint32_t id;  // task, or device for wake
    friend bool operator>(const Event& a, const Event& b) {
        if (a.time != b.time) return a.time > b.time;
        if (a.kind != b.kind) return a.kind > b.kind;
        return a.id > b.id;
    }
};

// `count` identical servers, each free from a time on; unlimited when count == 0.
class Slots {
public:
    Slots(std::size_t owners, int count) : count_(count), free_(owners * count, 0.0) {}
    [[nodiscard]] bool limited() const { return count_ > 0; }
    // Index of the server of `owner` that frees first.
    [[nodiscard]] std::size_t earliest(std::size_t owner) const {
        const std::size_t first = owner * count_;
        std::size_t best = first;
        for (std::size_t i = first + 1; i < first + count_; ++i)
            if (free_[i] < free_[best]) best = i;
        return best;
    }
    double& free_at(std::size_t slot) { return free_[slot]; }

private:
    std::size_t count_;
    std::vector<double> free_;
};

struct Waiting {  // a transfer queued for a send slot
    TaskId task;
    double ready;
};

struct Sending {  // a transfer holding a send slot, waiting for egress lanes
    double send_start;
    std::size_t slot;
};

struct LaneLevel {
    Slots egress, ingress;
};

class Engine {
public:
    Engine(const Schedule& s, const Machine& m, const RankLayout& layout, const SimOptions& o)
        : s_(s),
          machine_(m),
          layout_(layout),
          options_(o),
          ranks_(static_cast<std::size_t>(layout.ranks())),
          send_slots_(ranks_, limit(m.device_radix)),
          receive_slots_(ranks_, limit(m.device_radix)),
          waiting_(ranks_),
          waiting_head_(ranks_, 0),
          next_wake_(ranks_, unknown_time),
          compute_free_(ranks_, 0.0) {
        resolve_parameters();
        for (std::size_t level = 0; level + 1 < m.levels.size(); ++level) {
            std::size_t units = 0;
            for (std::size_t r = 0; r < ranks_; ++r)
                units = std::max(units, static_cast<std::size_t>(layout.unit_of(static_cast<int>(r), level)) + 1);
            const int radix = limit(m.levels[level].radix);
            lanes_.push_back({Slots(units, radix), Slots(units, radix)});
        }
        result_.rank_finish.assign(ranks_, 0.0);
        for (const Level& level : m.levels) result_.levels.push_back({level.name});
        for (std::string point : {"device send slots", "device receive slots"})
            result_.queueing.push_back({point});
        for (std::size_t level = 0; level < lanes_.size(); ++level) {
            result_.queueing.push_back({m.levels[level].name + " egress lanes"});
            result_.queueing.push_back({m.levels[level].name + " ingress lanes"});
        }
    }

    SimResult run() {
        const Csr<TaskId> successors = s_.successors();
        std::vector<std::uint32_t> missing(s_.size());
        for (TaskId t = 0; t < s_.size(); ++t) {
            missing[t] = static_cast<std::uint32_t>(s_.deps.row(t).size());
            if (missing[t] == 0) events_.push({0.0, EventKind::ready, t});
        }
        std::size_t completed = 0;
        while (!events_.empty()) {
            const Event e = events_.top();
            events_.pop();
            switch (e.kind) {
                case EventKind::ready: ready(e.id, e.time); break;
                case EventKind::wake: wake(e.id, e.time); break;
                case EventKind::inject: inject(e.id, e.time); break;
                case EventKind::arrive: arrive(e.id, e.time); break;
                case EventKind::complete:
                    ++completed;
                    result_.makespan = std::max(result_.makespan, e.time);
                    for (TaskId next : successors.row(e.id))
                        if (--missing[next] == 0) events_.push({e.time, EventKind::ready, next});
                    break;
            }
        }
        if (completed != s_.size())
            throw InputError(fmt::format("schedule never finishes: {} of {} tasks wait on a "
                                         "dependency cycle (run piccolo verify)",
                                         s_.size() - completed, s_.size()));
        if (options_.record_trace)
            for (TaskId t = 0; t < s_.size(); ++t)
                if (s_.kind[t] == TaskKind::transfer) result_.transfer_trace.push_back(trace_[t]);
        return std::move(result_);
    }

private:
    static int limit(const std::optional<int>& radix) { return radix ? *radix : 0; }

    // LogGP parameters of every (level, size) the schedule uses, resolved before the replay.
    void resolve_parameters() {
        const std::size_t sizes = s_.size_values.size();
        params_.resize(machine_.levels.size() * sizes);
        for (std::size_t level = 0; level < machine_.levels.size(); ++level)
            for (std::size_t c = 0; c < sizes; ++c)
                params_[level * sizes + c] =
                    machine_.levels[level].loggp.at(static_cast<double>(s_.size_values[c]));
    }
    [[nodiscard]] std::size_t level_of(TaskId t) const {
        return layout_.common_level(s_.src[t], s_.dst[t]);
    }
    [[nodiscard]] const LogGP& params(TaskId t) const {
        return params_[level_of(t) * s_.size_values.size() + s_.size_class[t]];
    }
    [[nodiscard]] double wire(TaskId t) const {  // (m-1)G
        return static_cast<double>(s_.bytes(t) - 1) * params(t).G;
    }
    [[nodiscard]] bool contention() const { return options_.contention; }
    // Lanes of the units this transfer leaves/enters: levels below its common level.
    [[nodiscard]] bool needs_lanes(TaskId t) const {
        const std::size_t top = std::min(level_of(t), lanes_.size());
        for (std::size_t level = 0; level < top; ++level)
            if (lanes_[level].egress.limited()) return true;
        return false;
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
        if (options_.record_trace) trace_ready(t, now);
        const auto device = static_cast<std::size_t>(s_.src[t]);
        if (!contention() || !send_slots_.limited()) return start_send(t, now, now, 0);
        waiting_[device].push_back({t, now});
        wake(static_cast<TaskId>(device), now);
    }

    // Serve the device's send queue in FIFO order while a slot is free now.
    void wake(TaskId device, double now) {
        if (now >= next_wake_[device]) next_wake_[device] = unknown_time;
        std::vector<Waiting>& queue = waiting_[device];
        std::size_t& head = waiting_head_[device];
        while (head < queue.size()) {
            const std::size_t slot = send_slots_.earliest(device);
            const double free = send_slots_.free_at(slot);
            if (free > now) return schedule_wake(device, free);  // unknown: INJECT will
            const Waiting next = queue[head++];
            start_send(next.task, now, next.ready, slot);
        }
        queue.clear();
        head = 0;
    }

    void schedule_wake(std::size_t device, double time) {
        if (time == unknown_time || time >= next_wake_[device]) return;
        next_wake_[device] = time;
        events_.push({time, EventKind::wake, static_cast<TaskId>(device)});
    }

    void start_send(TaskId t, double now, double ready_time, std::size_t slot) {
        record_wait(0, now - ready_time);
        const LogGP& p = params(t);
        if (contention() && needs_lanes(t)) {
            if (send_slots_.limited()) send_slots_.free_at(slot) = unknown_time;  // set at INJECT
            awaiting_lanes_.emplace(t, Sending{now, slot});
            events_.push({now + p.o_s, EventKind::inject, t});
            return;
        }
        injected(t, {now, slot}, now + p.o_s);
    }

    // Take one lane of every unit the transfer leaves, all for the same window.
    void inject(TaskId t, double now) {
        const auto sending = awaiting_lanes_.extract(t);
        const double start = take_lanes(t, now, /*egress=*/true, 2);
        injected(t, sending.mapped(), start);
    }

    // Waits for one lane of each unit the transfer leaves (egress) or enters (ingress), plus
    // `also_free` (a receive slot), and holds them all for its (m-1)G window. Returns the start.
    double take_lanes(TaskId t, double now, bool egress, std::size_t first_point,
                      double also_free = 0) {
        const std::size_t top = std::min(level_of(t), lanes_.size());
        double start = std::max(now, also_free);
        std::size_t binding = lanes_.size();
        lane_choice_.clear();
        for (std::size_t level = 0; level < top; ++level) {
            Slots& lanes = egress ? lanes_[level].egress : lanes_[level].ingress;
            if (!lanes.limited()) continue;
            const Rank rank = egress ? s_.src[t] : s_.dst[t];
            const std::size_t lane = lanes.earliest(static_cast<std::size_t>(layout_.unit_of(rank, level)));
            lane_choice_.push_back({level, lane});
            if (lanes.free_at(lane) > start) {
                start = lanes.free_at(lane);
                binding = level;
            }
        }
        for (auto [level, lane] : lane_choice_)
            (egress ? lanes_[level].egress : lanes_[level].ingress).free_at(lane) = start + wire(t);
        if (binding < lanes_.size()) record_wait(first_point + 2 * binding, start - now);
        return start;
    }
    // The first byte leaves at `start`: the send slot's busy time and the arrival follow.
    void injected(TaskId t, Sending sending, double start) {
        const LogGP& p = params(t);
        const double wire_time = wire(t);
        if (contention() && send_slots_.limited()) {
            const auto device = static_cast<std::size_t>(s_.src[t]);
            const double shift = start - (sending.send_start + p.o_s);
            send_slots_.free_at(sending.slot) =
                sending.send_start + shift + std::max(p.o_s, p.g) + wire_time;
            if (waiting_head_[device] < waiting_[device].size())
                schedule_wake(device, send_slots_.free_at(send_slots_.earliest(device)));
        }
        if (options_.record_trace) {
            trace_[t].send_start = sending.send_start;
            trace_[t].inject_start = start;
            trace_[t].inject_end = start + wire_time;
        }
        const double first_byte = start + p.L;
        if (contention() && (receive_slots_.limited() || needs_lanes(t)))
            events_.push({first_byte, EventKind::arrive, t});
        else
            received(t, first_byte);
    }

    // Reception needs a receive slot of the device and one ingress lane per unit it enters.
    void arrive(TaskId t, double now) {
        const auto device = static_cast<std::size_t>(s_.dst[t]);
        std::size_t slot = 0;
        double slot_free = 0;
        if (receive_slots_.limited()) {
            slot = receive_slots_.earliest(device);
            slot_free = receive_slots_.free_at(slot);
            record_wait(1, slot_free - now);
        }
        const double start = take_lanes(t, std::max(now, slot_free), /*egress=*/false, 3);
        if (receive_slots_.limited())
            receive_slots_.free_at(slot) = start + wire(t) + params(t).o_r;
        received(t, start);
    }

    // Reception runs from `start`: (m-1)G, then o_r.
    void received(TaskId t, double start) {
        const LogGP& p = params(t);
        const double complete = start + wire(t) + p.o_r;
        const std::size_t level = level_of(t);
        LevelStats& stats = result_.levels[level];
        ++stats.transfers;
        stats.bytes += s_.bytes(t);
        stats.wire_time += wire(t);
        ++result_.transfers;
        auto& finish = result_.rank_finish[static_cast<std::size_t>(s_.dst[t])];
        finish = std::max(finish, complete);
        if (options_.record_trace) {
            trace_[t].receive_start = start;
            trace_[t].complete = complete;
            trace_[t].level = static_cast<std::uint8_t>(level);
        }
        events_.push({complete, EventKind::complete, t});
    }

    // Compute tasks run one at a time per rank, in the order they become ready.
    void run_compute(TaskId t, double now) {
        const ComputeCosts& c = machine_.compute;
        const auto bytes = static_cast<double>(s_.bytes(t));
        double cost = 0;
        switch (s_.kind[t]) {
            case TaskKind::reduce: cost = c.reduce_per_byte * bytes; break;
            case TaskKind::permute: cost = c.permute_latency + c.permute_per_byte * bytes; break;
            case TaskKind::copy: cost = c.copy_per_byte * bytes; break;
            case TaskKind::transfer: break;
        }
        const auto rank = static_cast<std::size_t>(s_.src[t]);
        const double start = std::max(now, compute_free_[rank]);
        const double end = start + cost;
        compute_free_[rank] = end;
        ++result_.computes;
        result_.compute_time += cost;
        result_.rank_finish[rank] = std::max(result_.rank_finish[rank], end);
        if (options_.record_trace) result_.compute_trace.push_back({t, now, start, end});
        events_.push({end, EventKind::complete, t});
    }

    void trace_ready(TaskId t, double now) {
        if (trace_.empty()) trace_.resize(s_.size());
        trace_[t].task = t;
        trace_[t].ready = now;
    }

    const Schedule& s_;
    const Machine& machine_;
    const RankLayout& layout_;
    SimOptions options_;
    std::size_t ranks_;
    std::vector<LogGP> params_;
    Slots send_slots_, receive_slots_;
    std::vector<LaneLevel> lanes_;
    std::vector<std::vector<Waiting>> waiting_;
    std::vector<std::size_t> waiting_head_;
    std::vector<double> next_wake_;  // earliest WAKE event queued per device
    std::unordered_map<TaskId, Sending> awaiting_lanes_;  // between READY and INJECT
    std::vector<double> compute_free_;
    std::vector<TransferTrace> trace_;
    std::vector<std::pair<std::size_t, std::size_t>> lane_choice_;  // scratch: (level, lane)
    std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
    SimResult result_;
};

}  // namespace

SimResult simulate(const Schedule& schedule, const Machine& machine, const RankLayout& layout,
                   const SimOptions& options) {
    if (schedule.shape.ranks > layout.ranks())
        throw InputError(fmt::format("the schedule has {} ranks but the machine places only {} "
                                     "(raise --nodes or --ppn)",
                                     schedule.shape.ranks, layout.ranks()));
    SimResult result = Engine(schedule, machine, layout, options).run();
    return result;
}

}  // namespace piccolo
