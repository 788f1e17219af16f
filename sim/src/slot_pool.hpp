#pragma once
// Interchangeable servers served first come first served: a device's send or receive slots, a
// rank's processor, its send and receive ports (sim/README.md). A slot is free from a time on, or
// held until a time not known yet (`never`) while its message is still moving under fair sharing.
// Slots are interchangeable, so they need no identity: whichever holder learns its release time
// sets any unknown one, and a request takes any slot free at its time.
//
// A limited pool (count slots per owner) grants a slot only when one is free at the request's
// time and nobody is queued before it; otherwise the request waits in the owner's FIFO queue and
// the engine serves the queue when a slot frees. An elastic pool has as many slots as needed and
// never queues: a request never waits for a slot that is busy with another message's data (a new
// slot opens), but a slot that is only in its gap (its data done, its gap g not yet over) is taken
// after the gap. That is "no contention, but the gap g stays": the case of the closed forms, where
// a rank has as many slots as it sends at once.

#include <cstdint>
#include <optional>
#include <vector>

#include "piccolo/schedule.hpp"
#include "sim_time.hpp"

namespace piccolo::detail {

struct Waiting {
    TaskId task;
    SimTime since;  // when the request was made
};

struct Slot {
    SimTime free = 0;      // free from this time on; `never` while not known
    SimTime data_end = 0;  // its message's data is done by then (the gap may run on)
};

class SlotPool {
  public:
    SlotPool() = default;
    // count: slots per owner; empty = elastic.
    SlotPool(std::size_t owners, std::optional<int> count);

    [[nodiscard]] bool elastic() const { return count_ == 0; }

    // The slot a request made at `now` gets, with the time it starts (>= now; later only for an
    // elastic slot in its gap). nullptr: the request must queue. `queued` says the request is the
    // head of the owner's queue being served (it may take a slot although the queue is not empty).
    Slot* claim(std::size_t owner, SimTime now, SimTime& start, bool queued = false);

    // The owner's FIFO queue of requests (task ids) waiting for a slot.
    void enqueue(std::size_t owner, Waiting request);
    [[nodiscard]] bool waiting(std::size_t owner) const;
    [[nodiscard]] Waiting front(std::size_t owner) const;
    void pop(std::size_t owner);

    // A slot held until an unknown time learns when it frees.
    void resolve(std::size_t owner, SimTime free, SimTime data_end);
    // The earliest known release after `now` among the owner's slots, or `never`.
    [[nodiscard]] SimTime next_release(std::size_t owner, SimTime now) const;
    // The time of the wake-up already queued for the owner (`never`: none).
    SimTime& pending_wake(std::size_t owner) { return pending_wake_[owner]; }

  private:
    [[nodiscard]] Slot* begin(std::size_t owner);
    [[nodiscard]] const Slot* begin(std::size_t owner) const;
    [[nodiscard]] std::size_t size(std::size_t owner) const;
    Slot* claim_elastic(std::size_t owner, SimTime now, SimTime& start);

    std::size_t count_ = 0;
    std::vector<Slot> slots_;                  // limited: count_ per owner
    std::vector<std::vector<Slot>> grown_;     // elastic: as many as each owner needed
    std::vector<std::vector<Waiting>> queue_;  // limited: waiting requests; head_ is the front
    std::vector<std::uint32_t> head_;
    std::vector<SimTime> pending_wake_;
};

// Inline: called for every transfer at every step, from the engine's loop.
inline Slot* SlotPool::begin(std::size_t owner) {
    return elastic() ? grown_[owner].data() : slots_.data() + owner * count_;
}

inline const Slot* SlotPool::begin(std::size_t owner) const {
    return elastic() ? grown_[owner].data() : slots_.data() + owner * count_;
}

inline std::size_t SlotPool::size(std::size_t owner) const {
    return elastic() ? grown_[owner].size() : count_;
}

inline Slot* SlotPool::claim(std::size_t owner, SimTime now, SimTime& start, bool queued) {
    if (elastic()) return claim_elastic(owner, now, start);
    if (!queued && waiting(owner)) return nullptr;  // first come, first served
    Slot* const first = begin(owner);
    for (Slot* slot = first; slot < first + count_; ++slot)
        if (slot->free <= now) {
            start = now;
            return slot;
        }
    return nullptr;
}

inline void SlotPool::enqueue(std::size_t owner, Waiting request) {
    queue_[owner].push_back(request);
}

inline bool SlotPool::waiting(std::size_t owner) const {
    return !elastic() && head_[owner] < queue_[owner].size();
}

inline Waiting SlotPool::front(std::size_t owner) const {
    return queue_[owner][head_[owner]];
}

inline void SlotPool::pop(std::size_t owner) {
    if (++head_[owner] == queue_[owner].size()) {
        queue_[owner].clear();
        head_[owner] = 0;
    }
}

inline void SlotPool::resolve(std::size_t owner, SimTime free, SimTime data_end) {
    Slot* const first = begin(owner);
    for (Slot* slot = first; slot < first + size(owner); ++slot)
        if (slot->free == never) {
            slot->free = free;
            slot->data_end = data_end;
            return;
        }
}

inline SimTime SlotPool::next_release(std::size_t owner, SimTime now) const {
    SimTime earliest = never;
    const Slot* const first = begin(owner);
    for (const Slot* slot = first; slot < first + size(owner); ++slot)
        if (slot->free >= now && slot->free < earliest) earliest = slot->free;
    return earliest;
}

}  // namespace piccolo::detail
