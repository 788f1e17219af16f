#include "slot_pool.hpp"

namespace piccolo::detail {

SlotPool::SlotPool(std::size_t owners, std::optional<int> count)
    : count_(count ? static_cast<std::size_t>(*count) : 0) {
    if (elastic()) {
        grown_.resize(owners);
    } else {
        free_.resize(owners * count_);
        queues_.resize(owners);
        waiting_.resize(owners);
    }
}

std::optional<SlotRef> SlotPool::claim_elastic(std::size_t owner, SimTime now, SimTime& start) {
    std::vector<Slot>& slots = grown_[owner];
    Slot* in_gap = nullptr;  // the slot whose gap ends first
    for (Slot& s : slots) {
        if (s.free <= now) {
            start = now;
            return SlotRef(s.free, s.data_end);
        }
        if (s.data_end <= now && (!in_gap || s.free < in_gap->free)) in_gap = &s;
    }
    if (in_gap) {
        start = in_gap->free;
        return SlotRef(in_gap->free, in_gap->data_end);
    }
    start = now;
    Slot& fresh = slots.emplace_back();
    return SlotRef(fresh.free, fresh.data_end);
}

}  // namespace piccolo::detail
