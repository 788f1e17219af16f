#pragma once
// The waiters some but not all of whose dependencies are done, with how many are left and the
// latest time so far (engine_dependencies.hpp). A record for every waiter (12 bytes) was a
// quarter of the replay's memory for a 4096-rank ring in the nccl style (16.8 M waiters), yet
// few are under way at once, and their ids lie close together: the generators number tasks
// round by round, and a replay is busy with a round or two at a time. So the records live in a
// window of ids: slot = id mod capacity (a power of two), every id under way within one window
// of the capacity, so that no two share a slot and neighbours stay neighbours in memory. The
// window doubles when the ids under way spread wider than half of it, and turns into a record
// for every waiter (the layout before, never more memory) once it would be as large, or once
// recomputing its bounds has cost more than a few slots per record added.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "sim_time.hpp"

namespace piccolo::detail {

class PartialWaiters {
  public:
    struct [[gnu::packed]] Entry {
        SimTime ready_at = 0;       // the latest dependency's time so far
        std::uint32_t missing = 0;  // dependencies not yet done; 0: no waiter here
    };

    // Waiters are numbered 0 .. waiters - 1.
    explicit PartialWaiters(std::size_t waiters) : waiters_(waiters) {}

    // The waiter's record, or null when it has none.
    Entry* find(std::uint32_t waiter) {
        if (dense_) return slots_[waiter].missing != 0 ? &slots_[waiter] : nullptr;
        if (size_ == 0 || waiter < lo_ || waiter > hi_) return nullptr;
        Entry& e = slots_[waiter & mask_];
        return e.missing != 0 ? &e : nullptr;
    }

    // Adds the record of a waiter that has none (missing >= 1).
    void add(std::uint32_t waiter, SimTime ready_at, std::uint32_t missing) {
        ++adds_;
        if (!dense_) {
            const std::uint32_t lo = size_ == 0 ? waiter : std::min(lo_, waiter);
            const std::uint32_t hi = size_ == 0 ? waiter : std::max(hi_, waiter);
            if (std::size_t{hi - lo} < slots_.size()) {
                lo_ = lo;
                hi_ = hi;
            } else {
                fit(waiter);
            }
        }
        slot(waiter) = {ready_at, missing};
        ++size_;
    }

    // Removes a record that find() returned.
    void erase(Entry& entry) {
        entry.missing = 0;
        --size_;
    }

  private:
    Entry& slot(std::uint32_t waiter) { return slots_[dense_ ? waiter : waiter & mask_]; }

    // The id of the record in slot i: the one in the window [lo_, hi_] (bounds that records
    // erased since may have left too wide, but never wider than the slots).
    [[nodiscard]] std::uint32_t id_at(std::size_t i) const {
        return static_cast<std::uint32_t>(lo_ + ((i - lo_) & mask_));
    }

    // `waiter` does not fit the window: recompute the bounds from the records, and double the
    // window until it holds them and `waiter` with half of it to spare.
    void fit(std::uint32_t waiter) {
        scanned_ += slots_.size();
        std::uint32_t lo = waiter, hi = waiter;
        for (std::size_t i = 0; i < slots_.size(); ++i)
            if (slots_[i].missing != 0) {
                lo = std::min(lo, id_at(i));
                hi = std::max(hi, id_at(i));
            }
        std::size_t capacity = std::max<std::size_t>(slots_.size(), 1024);
        while (2 * (std::size_t{hi - lo} + 1) > capacity) capacity *= 2;
        if (capacity >= waiters_ || scanned_ > 8 * adds_)
            relayout(waiters_, true);
        else if (capacity != slots_.size())
            relayout(capacity, false);
        lo_ = lo;
        hi_ = hi;
    }

    // The records in `capacity` slots, by id mod capacity or (dense) by id.
    void relayout(std::size_t capacity, bool dense) {
        std::vector<Entry> fresh(capacity);
        for (std::size_t i = 0; i < slots_.size(); ++i)
            if (slots_[i].missing != 0) {
                const std::uint32_t id = id_at(i);
                fresh[dense ? id : id & (capacity - 1)] = slots_[i];
            }
        slots_ = std::move(fresh);
        dense_ = dense;
        mask_ = capacity - 1;
    }

    std::size_t waiters_;
    std::vector<Entry> slots_;
    std::size_t mask_ = 0;
    bool dense_ = false;
    std::uint32_t lo_ = 0, hi_ = 0;  // every id under way lies in [lo_, hi_] (when size_ > 0)
    std::size_t size_ = 0;
    std::uint64_t adds_ = 0, scanned_ = 0;  // what fit() has cost, against the records added
};

}  // namespace piccolo::detail
