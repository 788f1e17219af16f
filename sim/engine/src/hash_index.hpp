#pragma once
// Ids by a 64-bit hash of what they stand for, in one flat table (open addressing, linear
// probing): fair sharing finds a flow's class by the hash of its constraints. Several ids may
// share a hash; the caller compares what they stand for. No allocation per entry, so a replay
// that makes and drops thousands of classes leaves no scattered small blocks behind.

#include <cstdint>
#include <vector>

namespace piccolo::detail {

class HashIndex {
  public:
    // Calls f(id) for every id inserted under `hash`, until f returns true; returns whether one
    // did.
    template <class F>
    bool find(std::uint64_t hash, F f) const {
        if (slots_.empty()) return false;
        for (std::size_t i = hash & mask(); slots_[i].id != empty; i = (i + 1) & mask())
            if (slots_[i].hash == hash && f(slots_[i].id)) return true;
        return false;
    }
    void insert(std::uint64_t hash, std::uint32_t id) {
        if (2 * (size_ + 1) > slots_.size()) grow();
        place({hash, id});
        ++size_;
    }
    // Removes the entry (hash, id), which must be there; the entries after it in its probe run
    // move back so that no search stops early.
    void erase(std::uint64_t hash, std::uint32_t id) {
        std::size_t i = hash & mask();
        while (!(slots_[i].hash == hash && slots_[i].id == id)) i = (i + 1) & mask();
        for (std::size_t j = (i + 1) & mask(); slots_[j].id != empty; j = (j + 1) & mask()) {
            const std::size_t home = slots_[j].hash & mask();
            // Slot j's entry may fill the hole at i unless its home lies in (i, j].
            if (((j - home) & mask()) >= ((j - i) & mask())) {
                slots_[i] = slots_[j];
                i = j;
            }
        }
        slots_[i].id = empty;
        --size_;
    }

  private:
    static constexpr std::uint32_t empty = ~std::uint32_t{0};
    struct Slot {
        std::uint64_t hash = 0;
        std::uint32_t id = empty;
    };
    [[nodiscard]] std::size_t mask() const { return slots_.size() - 1; }
    void place(Slot s) {
        std::size_t i = s.hash & mask();
        while (slots_[i].id != empty) i = (i + 1) & mask();
        slots_[i] = s;
    }
    void grow() {
        std::vector<Slot> old(slots_.empty() ? 64 : 2 * slots_.size());
        old.swap(slots_);
        for (const Slot& s : old)
            if (s.id != empty) place(s);
    }

    std::vector<Slot> slots_;
    std::size_t size_ = 0;
};

}  // namespace piccolo::detail
