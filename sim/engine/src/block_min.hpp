#pragma once
// The least of many values that change often between reads: fair sharing's progressive filling
// (the constraints' levels, read once a round) and its due times (the groups' next times, read
// once a time step). Values sit in blocks of 64 whose minima are recomputed when read after a
// change, so a step that changes k values costs O(k) plus a read of O(n / 64 + 64 per changed
// block), where a heap would pay O(log n) per change and keep stale entries.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace piccolo::detail {

template <class T>
class BlockMin {
  public:
    // n values, each `empty` (greater than any value set).
    void assign(std::size_t n, T empty) {
        values_.assign(n, empty);
        block_min_.assign((n + 63) / 64, empty);
        dirty_.assign(block_min_.size(), 0);
        dirty_blocks_.clear();
        min_ = empty;
    }
    void set(std::size_t i, T value) {
        values_[i] = value;
        if (dirty_[i / 64]) return;
        dirty_[i / 64] = 1;
        dirty_blocks_.push_back(static_cast<std::uint32_t>(i / 64));
    }
    [[nodiscard]] T operator[](std::size_t i) const { return values_[i]; }
    T min() {
        if (dirty_blocks_.empty()) return min_;
        for (std::uint32_t b : dirty_blocks_) {
            const auto begin = values_.begin() + static_cast<std::ptrdiff_t>(b) * 64;
            const auto end = values_.begin() + static_cast<std::ptrdiff_t>(std::min(
                                                   std::size_t{b} * 64 + 64, values_.size()));
            block_min_[b] = *std::min_element(begin, end);
            dirty_[b] = 0;
        }
        dirty_blocks_.clear();
        min_ = *std::min_element(block_min_.begin(), block_min_.end());
        return min_;
    }
    // Calls f(i) for every value at most `bound`, in index order.
    template <class F>
    void for_each_at_most(T bound, F f) {
        min();
        for (std::size_t b = 0; b < block_min_.size(); ++b) {
            if (block_min_[b] > bound) continue;
            for (std::size_t i = b * 64; i < std::min(b * 64 + 64, values_.size()); ++i)
                if (values_[i] <= bound) f(i);
        }
    }

  private:
    std::vector<T> values_, block_min_;
    std::vector<std::uint8_t> dirty_;
    std::vector<std::uint32_t> dirty_blocks_;
    T min_ = std::numeric_limits<T>::max();  // before assign(): no value
};

}  // namespace piccolo::detail
