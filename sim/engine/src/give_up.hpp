#pragma once
// SimOptions::give_up_after inside the engine: what proves a replay's makespan past the limit
// (sim/engine/README.md). Events come in time order, so a step of a task not yet complete past the
// limit proves it, and so does a completion decided ahead of its time: a delivery known when its
// reception starts, or the earliest delivery a FIFO lane's grant fixes.

#include "event_queue.hpp"
#include "piccolo/engine/engine.hpp"
#include "sim_time.hpp"

namespace piccolo::detail {

class GiveUp {
  public:
    explicit GiveUp(double seconds) : stop_after_(last_time_within(seconds)) {}

    // The latest step or decided completion that does not stop the replay.
    [[nodiscard]] SimTime stop_after() const { return stop_after_; }

    // Does this event, served now, prove the makespan past the limit? A wake, or a fair-share
    // prediction, may be stale (its owner's queue served earlier, the flow's rate changed) and
    // proves nothing.
    [[nodiscard]] bool stops(const Event& e) const {
        if (e.time <= stop_after_) [[likely]]  // stop_after_ <= max_time
            return false;
        if (e.time > max_time) throw_too_long();
        return e.kind() >= EventKind::received;
    }
    // Some task completes no earlier than `at`.
    void decided(SimTime at) {
        if (at > proven_) proven_ = at;
    }
    [[nodiscard]] bool proven() const { return proven_ > stop_after_; }
    [[nodiscard]] SimTime proven_time() const { return proven_; }

    static SimResult stopped_at(SimTime time);
    [[noreturn]] static void throw_too_long();

  private:
    SimTime stop_after_;
    SimTime proven_ = 0;  // the latest completion decided so far
};

}  // namespace piccolo::detail
