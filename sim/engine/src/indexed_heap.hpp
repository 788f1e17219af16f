#pragma once
// A binary min-heap of ids whose entries know their position, so that any entry can leave in
// O(log n): fair sharing's flows, in the heaps of their group (a flow leaves one when its class
// changes bottleneck). `key(id)` gives the ordering value, `at(id)` a reference to the position.

#include <cstdint>
#include <vector>

namespace piccolo::detail {

template <class Key, class At>
class IndexedHeap {
  public:
    IndexedHeap(std::vector<std::uint32_t>& heap, Key key, At at)
        : heap_(heap), key_(key), at_(at) {}

    void push(std::uint32_t id) {
        heap_.push_back(id);
        sift_up(static_cast<std::uint32_t>(heap_.size() - 1));
    }
    // Removes the entry at position `i` (0: the least).
    void erase(std::uint32_t i) {
        at_(heap_[i]) = none;
        const std::uint32_t last = heap_.back();
        heap_.pop_back();
        if (i == heap_.size()) return;
        heap_[i] = last;
        sift_up(i);
        sift_down(at_(last));
    }

    static constexpr std::uint32_t none = ~std::uint32_t{0};

  private:
    void place(std::uint32_t i, std::uint32_t id) {
        heap_[i] = id;
        at_(id) = i;
    }
    void sift_up(std::uint32_t i) {
        const std::uint32_t id = heap_[i];
        const auto key = key_(id);
        while (i > 0) {
            const std::uint32_t parent = (i - 1) / 2;
            if (!(key < key_(heap_[parent]))) break;
            place(i, heap_[parent]);
            i = parent;
        }
        place(i, id);
    }
    void sift_down(std::uint32_t i) {
        const std::uint32_t id = heap_[i];
        const auto key = key_(id);
        const auto size = static_cast<std::uint32_t>(heap_.size());
        for (std::uint32_t child = 2 * i + 1; child < size; child = 2 * i + 1) {
            if (child + 1 < size && key_(heap_[child + 1]) < key_(heap_[child])) ++child;
            if (!(key_(heap_[child]) < key)) break;
            place(i, heap_[child]);
            i = child;
        }
        place(i, id);
    }

    std::vector<std::uint32_t>& heap_;
    Key key_;
    At at_;
};

}  // namespace piccolo::detail
