#pragma once
// Fair sharing's times of the transfers moving as flows (fair_lanes.hpp): when the flow started,
// when its last byte left and when its reception started; whichever of the last two comes second
// finishes the reception. A time per task for each (24 bytes a task) made a 4096-rank ring's
// replay under fair sharing 1,058 MB against 639 MB under FIFO lanes, yet only the flows under
// way need them: a record lives from the flow's start until both its work has ended and its
// reception has finished, and is found by its task through a small hash table (open addressing,
// linear probing, Fibonacci hashing: the ids under way are spread with the stride of a round).
// Records sit in a pool whose freed slots are reused, so memory follows the flows under way at
// once, not the schedule (tools/bench/history.md, "Fair sharing's times, per flow under way").

#include <bit>
#include <cstdint>
#include <vector>

#include "piccolo/core/assert.hpp"
#include "piccolo/schedules/schedule.hpp"
#include "sim_time.hpp"

namespace piccolo::detail {

class FlowTimes {
  public:
    struct Record {
        SimTime start = never;            // the flow started
        SimTime data_end = never;         // its last byte left
        SimTime reception_start = never;  // its reception started
        bool working = false;             // its work (the data and the gap's tail) runs on
        // Its record is needed no more: the work has ended and the reception finished.
        [[nodiscard]] bool over() const {
            return !working && data_end != never && reception_start != never;
        }
    };

    // The record of t's flow, or null when t has no flow under way.
    Record* find(TaskId t) {
        if (slots_.empty()) return nullptr;
        for (std::size_t i = home(t);; i = (i + 1) & mask()) {
            if (slots_[i].task == t) return &records_[slots_[i].record];
            if (slots_[i].task == empty) return nullptr;
        }
    }

    // A fresh record for t, which has none (a flow starts once).
    Record& add(TaskId t) {
        PICCOLO_ASSERT(find(t) == nullptr);
        if (2 * (size_ + 1) > slots_.size()) grow();
        std::uint32_t record;
        if (free_.empty()) {
            record = static_cast<std::uint32_t>(records_.size());
            records_.emplace_back();
        } else {
            record = free_.back();
            free_.pop_back();
            records_[record] = Record{};
        }
        place({t, record});
        ++size_;
        return records_[record];
    }

    // Drops t's record, which must be there. The entries after it in its probe run move back so
    // that no search stops early.
    void erase(TaskId t) {
        std::size_t i = home(t);
        while (slots_[i].task != t) {
            PICCOLO_ASSERT(slots_[i].task != empty);  // t's record is there
            i = (i + 1) & mask();
        }
        free_.push_back(slots_[i].record);
        for (std::size_t j = (i + 1) & mask(); slots_[j].task != empty; j = (j + 1) & mask()) {
            // Slot j's entry may fill the hole at i unless its home lies in (i, j].
            if (((j - home(slots_[j].task)) & mask()) >= ((j - i) & mask())) {
                slots_[i] = slots_[j];
                i = j;
            }
        }
        slots_[i].task = empty;
        --size_;
    }

  private:
    static constexpr TaskId empty = ~TaskId{0};  // no task has this id (ids are below 2^32 - 1)
    struct Slot {
        TaskId task = empty;
        std::uint32_t record = 0;
    };
    [[nodiscard]] std::size_t mask() const { return slots_.size() - 1; }
    [[nodiscard]] std::size_t home(TaskId t) const {
        return static_cast<std::size_t>((std::uint64_t{t} * 0x9E3779B97F4A7C15u) >> shift_);
    }
    void place(Slot s) {
        std::size_t i = home(s.task);
        while (slots_[i].task != empty) i = (i + 1) & mask();
        slots_[i] = s;
    }
    void grow() {
        std::vector<Slot> old(slots_.empty() ? 64 : 2 * slots_.size());
        old.swap(slots_);
        shift_ = 64 - static_cast<unsigned>(std::countr_zero(slots_.size()));
        for (const Slot& s : old)
            if (s.task != empty) place(s);
    }

    std::vector<Slot> slots_;  // a power of two, at most half full
    unsigned shift_ = 64;      // 64 - log2(slots_.size())
    std::size_t size_ = 0;
    std::vector<Record> records_;
    std::vector<std::uint32_t> free_;  // records_ slots not in use
};

}  // namespace piccolo::detail
