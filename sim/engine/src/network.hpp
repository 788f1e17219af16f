#pragma once
// The units between two devices (sim/engine/README.md): which level prices a transfer (the
// lowest whose unit holds both ends), the unit of each level a rank is in, how many transfers
// may cross a unit's boundary at once (its radix), and whether a transfer meets a limit on its
// way. What a limit does is the lane model's: fifo_lanes.hpp (whole messages hold lanes, first
// come first served) or fair_lanes.hpp (flows share them max-min fairly).

#include <cstdint>
#include <vector>

#include "piccolo/schedules/schedule.hpp"
#include "piccolo/topologies/machine.hpp"

namespace piccolo::detail {

class Network {
  public:
    Network(const Machine& machine, const RankLayout& layout, std::size_t ranks, bool contention);

    // The lowest level whose unit holds both ranks: its parameters price their messages.
    [[nodiscard]] std::size_t level_of(Rank a, Rank b) const;
    [[nodiscard]] std::size_t levels() const { return levels_; }
    // Does a transfer priced at `level` meet a limit on its way: the lanes of a level below it,
    // or (fair sharing) its own level's capacity?
    [[nodiscard]] bool constrained(std::size_t level) const { return constrained_[level]; }

    // Levels below the system: the unit of `level` that holds rank r, how many units the level
    // has, and the lanes of each of them (radix; 0: unlimited, or no contention).
    [[nodiscard]] int unit(std::size_t level, Rank r) const {
        return unit_[level * ranks_ + static_cast<std::size_t>(r)];
    }
    [[nodiscard]] int units(std::size_t level) const { return units_[level]; }
    [[nodiscard]] int radix(std::size_t level) const { return radix_[level]; }

  private:
    std::size_t ranks_ = 0;
    std::size_t levels_ = 0;                 // machine levels (the last is the system)
    std::vector<int> unit_;                  // [level][rank], levels below the system
    std::vector<int> units_;                 // per level below the system
    std::vector<int> radix_;                 // per level below the system; 0 = unlimited
    std::vector<std::uint8_t> constrained_;  // per level (bytes: read for every transfer)
};

// Inline: called for every transfer, from the engine's loop.
inline std::size_t Network::level_of(Rank a, Rank b) const {
    for (std::size_t level = 0; level + 1 < levels_; ++level)
        if (unit(level, a) == unit(level, b)) return level;
    return levels_ - 1;
}

}  // namespace piccolo::detail
