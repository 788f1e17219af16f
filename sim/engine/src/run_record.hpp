#pragma once
// What a replay reports (SimResult), gathered while it runs: per-level traffic, per-rank finish,
// queueing delay per contention point, and, when asked, every task's timeline. The engine tells
// it what happened; it keeps the bookkeeping out of the event loop.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "piccolo/engine/engine.hpp"
#include "piccolo/topologies/machine.hpp"
#include "sim_time.hpp"

namespace piccolo::detail {

// The points where a transfer can wait, in the order SimResult::queueing lists them: device
// send and receive slots, then egress and ingress lanes per level below the system, then these.
enum class WaitPoint : std::uint8_t { processor, send_port, receive_port, fair_sharing };

class RunRecord {
  public:
    RunRecord(const Machine& machine, std::size_t ranks, std::size_t tasks, bool trace);

    [[nodiscard]] bool tracing() const { return !trace_.empty(); }
    // The timeline of transfer t (tracing only).
    TransferTrace& trace(TaskId t) { return trace_[t]; }

    void delivered(TaskId t, std::size_t level, std::uint64_t bytes, SimTime wire, Rank to,
                   SimTime time);
    void computed(TaskId t, Rank rank, SimTime ready, SimTime start, SimTime end);
    void finished_at(SimTime time) { makespan_ = std::max(makespan_, time); }
    // The latest completion decided so far (the engine decides a delivery before its time).
    [[nodiscard]] SimTime latest_completion() const { return makespan_; }

    // A wait of `delay` at a device slot (receive: false = send slots), at a level's lanes, or at
    // one of the other points.
    void slot_wait(bool receive, SimTime delay) { wait(receive ? 1 : 0, delay); }
    void lane_wait(std::size_t level, bool ingress, SimTime delay) {
        wait(2 + 2 * level + (ingress ? 1 : 0), delay);
    }
    void wait(WaitPoint point, SimTime delay) {
        wait(result_.queueing.size() - 4 + static_cast<std::size_t>(point), delay);
    }

    // The result of a replay of `schedule` that ran to its end; throws InputError when some tasks
    // never ran (a dependency cycle).
    SimResult finish(const Schedule& schedule) &&;

  private:
    void wait(std::size_t point, SimTime delay) {
        if (delay > 0) add_wait(point, delay);  // most transfers wait nowhere
    }
    void add_wait(std::size_t point, SimTime delay);

    SimResult result_;
    std::vector<SimTime> rank_finish_;
    std::vector<TimeSum> wire_time_, total_delay_;  // per level, per waiting point
    std::vector<SimTime> max_delay_;                // per waiting point
    SimTime makespan_ = 0;
    TimeSum compute_time_;
    std::vector<TransferTrace> trace_;
};

// Inline: called once per transfer.
inline void RunRecord::delivered(TaskId t, std::size_t level, std::uint64_t bytes, SimTime wire,
                                 Rank to, SimTime time) {
    LevelStats& stats = result_.levels[level];
    ++stats.transfers;
    stats.bytes += bytes;
    wire_time_[level].add(wire);
    ++result_.transfers;
    SimTime& finish = rank_finish_[static_cast<std::size_t>(to)];
    finish = std::max(finish, time);
    makespan_ = std::max(makespan_, time);
    if (tracing()) {
        trace_[t].complete = to_seconds(time);
        trace_[t].level = static_cast<std::uint8_t>(level);
    }
}

}  // namespace piccolo::detail
