#pragma once
// Known data for executed collectives: each rank's input, the exact result every rank must end
// with, and the work that compute tasks do on a rank's arena.
//
// Allgather: byte j of block b is (131 b + 37 (b >> 8) + 7 j + 1) mod 255, never 0xFF.
// Allreduce: element i of rank r is ((5 r + 3 i) mod 11) + 1 as a double or float (sums of small
// integers are exact), or byte x is (29 r + 7 x + 3) mod 256 summed modulo 256.
// Everything else in the arena starts as 0xFF (poison): a send that ships a buffer before its data
// arrived, or a reduce that adds an operand not yet received, leaves a wrong byte behind.

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "piccolo/executor/plan.hpp"

namespace piccolo::exec {

inline constexpr std::byte poison{0xFF};

// In the collective's global coordinates (Allgather: block b at b * bytes; Allreduce: the vector).
struct Images {
    std::vector<std::byte> input;     // this rank's contribution (the rest unused)
    std::vector<std::byte> expected;  // the result
};
Images make_images(const CollectiveShape& shape, Element element, Rank rank);

// Poisons the arena and writes the rank's input where the plan wants it.
void prepare(const RankPlan& plan, const Images& images, std::span<std::byte> arena);

// The first wrong byte of the result, as one line naming the rank and the offset; nullopt if
// every byte is right.
std::optional<std::string> check_result(const RankPlan& plan, const Images& images,
                                        std::span<const std::byte> arena);

void apply_copies(std::span<const Stretch> stretches, std::span<std::byte> arena);
void apply_reduces(std::span<const Stretch> stretches, Element element, std::span<std::byte> arena);

}  // namespace piccolo::exec
