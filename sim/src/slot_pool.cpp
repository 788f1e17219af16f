#include "slot_pool.hpp"

namespace piccolo::detail {

SlotPool::SlotPool(std::size_t owners, std::optional<int> count)
    : count_(count ? static_cast<std::size_t>(*count) : 0), pending_wake_(owners, never) {
    if (elastic()) {
        grown_.resize(owners);
    } else {
        slots_.resize(owners * count_);
        queue_.resize(owners);
        head_.assign(owners, 0);
    }
}

Slot* SlotPool::claim_elastic(std::size_t owner, SimTime now, SimTime& start) {
    std::vector<Slot>& slots = grown_[owner];
    Slot* in_gap = nullptr;  // the slot whose gap ends first
    for (Slot& slot : slots) {
        if (slot.free <= now) {
            start = now;
            return &slot;
        }
        if (slot.data_end <= now && (!in_gap || slot.free < in_gap->free)) in_gap = &slot;
    }
    if (in_gap) {
        start = in_gap->free;
        return in_gap;
    }
    start = now;
    return &slots.emplace_back();
}

}  // namespace piccolo::detail
