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

Slot* SlotPool::begin(std::size_t owner) {
    return elastic() ? grown_[owner].data() : slots_.data() + owner * count_;
}
const Slot* SlotPool::begin(std::size_t owner) const {
    return elastic() ? grown_[owner].data() : slots_.data() + owner * count_;
}
std::size_t SlotPool::size(std::size_t owner) const {
    return elastic() ? grown_[owner].size() : count_;
}

Slot* SlotPool::claim(std::size_t owner, SimTime now, SimTime& start, bool queued) {
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

void SlotPool::enqueue(std::size_t owner, Waiting request) {
    queue_[owner].push_back(request);
}

bool SlotPool::waiting(std::size_t owner) const {
    return !elastic() && head_[owner] < queue_[owner].size();
}

Waiting SlotPool::front(std::size_t owner) const {
    return queue_[owner][head_[owner]];
}

void SlotPool::pop(std::size_t owner) {
    if (++head_[owner] == queue_[owner].size()) {
        queue_[owner].clear();
        head_[owner] = 0;
    }
}

void SlotPool::resolve(std::size_t owner, SimTime free, SimTime data_end) {
    Slot* const first = begin(owner);
    for (Slot* slot = first; slot < first + size(owner); ++slot)
        if (slot->free == never) {
            slot->free = free;
            slot->data_end = data_end;
            return;
        }
}

SimTime SlotPool::next_release(std::size_t owner, SimTime now) const {
    SimTime earliest = never;
    const Slot* const first = begin(owner);
    for (const Slot* slot = first; slot < first + size(owner); ++slot)
        if (slot->free >= now && slot->free < earliest) earliest = slot->free;
    return earliest;
}

}  // namespace piccolo::detail
