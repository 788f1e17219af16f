#pragma once
// Interchangeable servers served first come first served: a device's send or receive slots, a
// rank's processor, its send and receive ports (sim/engine/README.md). A slot is free from a time
// on, or held until a time not known yet (`never`) while its message is still moving under fair
// sharing. Slots are interchangeable, so they need no identity: whichever holder learns its release
// time sets any unknown one, and a request takes any slot free at its time.
//
// A limited pool (count slots per owner) grants a slot only when one is free at the request's
// time and nobody is queued before it; otherwise the request waits in the owner's FIFO queue and
// the engine serves the queue when a slot frees. An elastic pool has as many slots as needed and
// never queues: a request never waits for a slot that is busy with another message's data (a new
// slot opens), but a slot that is only in its gap (its data done, its gap g not yet over) is taken
// after the gap. That is "no contention, but the gap g stays": the case of the closed forms, where
// a rank has as many slots as it sends at once.
//
// Layout: a replay of a million ranks touches every owner's slots for every transfer, so a
// limited pool keeps only what it reads, each owner's free times side by side (one cache line
// for eight slots), and the owner's queue state in one record. Whether an owner has requests
// waiting is also one bit of a bitmap (128 KiB at a million owners, held in cache): every grant
// and release asks it, and most find no queue, so they never touch the queue's record. Only the
// elastic pool needs to know when a slot's data is done (to tell a slot in its gap from a busy
// one).

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "piccolo/core/assert.hpp"
#include "piccolo/schedules/schedule.hpp"
#include "sim_time.hpp"

namespace piccolo::detail {

struct Waiting {
    TaskId task;
    SimTime since;  // when the request was made
};

// A slot just granted: its holder says when it frees and when its data is done.
class SlotRef {
  public:
    SlotRef(SimTime& free, SimTime& data_end) : free_(&free), data_end_(&data_end) {}
    void hold(SimTime free, SimTime data_end) {
        *free_ = free;
        *data_end_ = data_end;
    }
    void hold_until_known() { hold(never, never); }

  private:
    SimTime* free_;
    SimTime* data_end_;
};

class SlotPool {
  public:
    SlotPool() = default;
    // count: slots per owner; empty = elastic.
    SlotPool(std::size_t owners, std::optional<int> count);

    [[nodiscard]] bool elastic() const { return count_ == 0; }
    // 0 for a pool never built (a replay that does not use it).
    [[nodiscard]] std::size_t owners() const { return elastic() ? grown_.size() : queues_.size(); }

    // The slot a request made at `now` gets, with the time it starts (>= now; later only for an
    // elastic slot in its gap). None: the request must queue. `queued` says the request is the
    // head of the owner's queue being served (it may take a slot although the queue is not empty).
    std::optional<SlotRef> claim(std::size_t owner, SimTime now, SimTime& start,
                                 bool queued = false);

    // Limited pools whose every holder says at once when its slot frees (no `never`), and whose
    // requests come in time order: first come, first served is then the slot that frees first,
    // taken at once. `start`: max(now, its free time).
    SlotRef claim_earliest(std::size_t owner, SimTime now, SimTime& start);

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
    SimTime& pending_wake(std::size_t owner) { return queues_[owner].pending_wake; }

  private:
    struct Slot {              // elastic pools
        SimTime free = 0;      // free from this time on; `never` while not known
        SimTime data_end = 0;  // its message's data is done by then (the gap may run on)
    };
    // Consecutive requests made at one time by consecutive tasks (a rank's sends of a round,
    // ready together: k - 1 of them in an all-to-all round) are stored as one stretch, so a queue
    // of thousands costs a few bytes, not a cache miss per request.
    struct Stretch {
        TaskId first;
        std::uint32_t count;
        SimTime since;
    };
    struct Queue {  // limited pools, per owner
        std::vector<Stretch> stretches;
        std::uint32_t head = 0;    // stretches[head] holds the front
        std::uint32_t served = 0;  // requests of stretches[head] already served
        SimTime pending_wake = never;
    };

    std::optional<SlotRef> claim_elastic(std::size_t owner, SimTime now, SimTime& start);
    // Limited pools: the owner's count_ free times.
    [[nodiscard]] std::span<SimTime> frees(std::size_t owner) {
        return {free_.data() + owner * count_, count_};
    }
    [[nodiscard]] std::span<const SimTime> frees(std::size_t owner) const {
        return {free_.data() + owner * count_, count_};
    }

    std::size_t count_ = 0;
    std::vector<SimTime> free_;             // limited: count_ per owner
    std::vector<Queue> queues_;             // limited
    std::vector<bool> waiting_;             // limited: owner o's queue is not empty
    std::vector<std::vector<Slot>> grown_;  // elastic: as many as each owner needed
    SimTime unread_data_end_ = 0;           // limited pools never read when data is done
};

// Inline: called for every transfer at every step, from the engine's loop.
inline std::optional<SlotRef> SlotPool::claim(std::size_t owner, SimTime now, SimTime& start,
                                              bool queued) {
    if (elastic()) return claim_elastic(owner, now, start);
    for (SimTime& free : frees(owner))
        if (free <= now) {
            if (!queued && waiting(owner)) return std::nullopt;  // first come, first served
            start = now;
            return SlotRef(free, unread_data_end_);
        }
    return std::nullopt;
}

inline SlotRef SlotPool::claim_earliest(std::size_t owner, SimTime now, SimTime& start) {
    SimTime& slot = server_for(frees(owner), now);
    start = std::max(now, slot);
    return SlotRef(slot, unread_data_end_);
}

inline void SlotPool::enqueue(std::size_t owner, Waiting request) {
    Queue& q = queues_[owner];
    if (!q.stretches.empty()) {  // pop empties stretches once all are served
        Stretch& last = q.stretches.back();
        if (last.since == request.since && std::uint64_t{last.first} + last.count == request.task) {
            ++last.count;
            return;
        }
    }
    q.stretches.push_back({request.task, 1, request.since});
    waiting_[owner] = true;
}

inline bool SlotPool::waiting(std::size_t owner) const {
    if (elastic()) return false;
    return waiting_[owner];
}

inline Waiting SlotPool::front(std::size_t owner) const {
    PICCOLO_ASSERT(waiting(owner));
    const Queue& q = queues_[owner];
    const Stretch& stretch = q.stretches[q.head];
    return {stretch.first + q.served, stretch.since};
}

inline void SlotPool::pop(std::size_t owner) {
    Queue& q = queues_[owner];
    if (++q.served < q.stretches[q.head].count) return;
    q.served = 0;
    if (++q.head == q.stretches.size()) {
        q.stretches.clear();
        q.head = 0;
        waiting_[owner] = false;
    }
}

// Precondition: one of the owner's slots is held until an unknown time (a release of a slot
// that was not held is an engine error).
inline void SlotPool::resolve(std::size_t owner, SimTime free, SimTime data_end) {
    if (elastic()) {
        for (Slot& slot : grown_[owner])
            if (slot.free == never) {
                slot = {free, data_end};
                return;
            }
    } else {
        for (SimTime& slot : frees(owner))
            if (slot == never) {
                slot = free;
                return;
            }
    }
    PICCOLO_ASSERT(!"a release of a slot that was not held");
}

inline SimTime SlotPool::next_release(std::size_t owner, SimTime now) const {
    SimTime earliest = never;
    auto consider = [&](SimTime free) {
        if (free >= now && free < earliest) earliest = free;
    };
    if (elastic()) {
        for (const Slot& slot : grown_[owner]) consider(slot.free);
    } else {
        for (SimTime free : frees(owner)) consider(free);
    }
    return earliest;
}

}  // namespace piccolo::detail
