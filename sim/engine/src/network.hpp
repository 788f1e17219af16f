#pragma once
// What a transfer meets between two devices: the lanes of every node or group it leaves (egress)
// and enters (ingress), whose radix limits how many transfers cross the unit's boundary at once,
// and the internal capacity of the unit it stays inside (sim/engine/README.md).
//
// FIFO sharing: lanes are servers, one message at a time, first come first served, and a unit's
// lane that frees first is taken. A transfer takes one egress lane of every unit it leaves when
// its injection may start, and one ingress lane of every unit it enters when its first byte
// arrives there (L later); each lane is held max(g, (m-1)G): a lane charges a message at least
// the gap g (a NIC's message rate). Bytes that find the ingress busy wait in the network and
// cross the ingress link once it frees; in the tandem, a lane can sit idle while its next message
// waits elsewhere, which fair sharing does not lose.
// Fair sharing: the transfer becomes a flow of fair_share.hpp through the same constraints at
// once, so its bytes cross every wire together, at the share the busiest constraint allows.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "fair_share.hpp"
#include "piccolo/topologies/machine.hpp"
#include "sim_time.hpp"

namespace piccolo::detail {

// A lane wait, for the queueing statistics: which level's lanes held the transfer up and how long.
struct LaneWait {
    std::size_t level = 0;
    bool ingress = false;
    SimTime delay = 0;
};

class Network {
  public:
    Network(const Machine& machine, const RankLayout& layout, std::size_t ranks, bool contention);

    // The lowest level whose unit holds both ranks: its parameters price their messages.
    [[nodiscard]] std::size_t level_of(Rank a, Rank b) const;
    [[nodiscard]] std::size_t levels() const { return levels_; }
    // Does a transfer priced at `level` meet a limit on its way (lanes, or a capacity)?
    [[nodiscard]] bool constrained(std::size_t level) const { return constrained_[level]; }
    [[nodiscard]] bool fair() const { return fair_; }
    // FIFO: does a transfer priced at `level` cross lanes? (Else only capacities constrain it.)
    [[nodiscard]] bool fifo_lanes(std::size_t level) const { return !fair_ && constrained_[level]; }

    // FIFO: takes one lane of every limited unit that `rank` leaves (egress) or enters (ingress)
    // on the way of a transfer priced at `level`, for `hold` from when all are free (>= now);
    // returns that time.
    SimTime take_lanes(Rank rank, bool ingress, std::size_t level, SimTime now, SimTime hold,
                       LaneWait& wait);
    // Fair: the constraints a flow a -> b priced at `level` uses.
    void uses(Rank a, Rank b, std::size_t level, double bytes_per_second,
              std::vector<FairShare::Use>& out) const;
    FairShare& flows() { return flows_; }

  private:
    [[nodiscard]] int unit(std::size_t level, Rank r) const {
        return unit_[level * ranks_ + static_cast<std::size_t>(r)];
    }
    // The lane of `unit` that a message arriving at `now` takes (sim_time.hpp: server_for).
    SimTime& lane_for(std::vector<SimTime>& lanes, std::size_t level, int unit, SimTime now);

    std::size_t ranks_ = 0;
    std::size_t levels_ = 0;                 // machine levels (the last is the system)
    std::vector<int> unit_;                  // [level][rank], levels below the system
    std::vector<int> radix_;                 // per level below the system; 0 = unlimited
    std::vector<std::uint8_t> constrained_;  // per level (bytes: read for every transfer)
    std::vector<std::vector<SimTime>> egress_, ingress_;  // FIFO: [level][unit * radix + lane]
    bool fair_ = false;
    // Fair: constraint ids per level: lanes of unit u at egress_base_[l] + u (ingress likewise),
    // internal capacity at capacity_base_[l] + u (u = 0 for the system).
    std::vector<std::uint32_t> egress_base_, ingress_base_, capacity_base_;
    std::vector<std::uint8_t> has_capacity_;
    FairShare flows_;
};

// Inline: called for every transfer, from the engine's loop.
inline std::size_t Network::level_of(Rank a, Rank b) const {
    for (std::size_t level = 0; level + 1 < levels_; ++level)
        if (unit(level, a) == unit(level, b)) return level;
    return levels_ - 1;
}

inline SimTime& Network::lane_for(std::vector<SimTime>& lanes, std::size_t level, int u,
                                  SimTime now) {
    const auto radix = static_cast<std::size_t>(radix_[level]);
    return server_for({lanes.data() + static_cast<std::size_t>(u) * radix, radix}, now);
}

inline SimTime Network::take_lanes(Rank rank, bool ingress, std::size_t level, SimTime now,
                                   SimTime hold, LaneWait& wait) {
    std::vector<std::vector<SimTime>>& lanes = ingress ? ingress_ : egress_;
    SimTime start = now;
    wait = {};
    for (std::size_t l = 0; l < level; ++l) {
        if (radix_[l] == 0) continue;
        if (const SimTime lane = lane_for(lanes[l], l, unit(l, rank), now); lane > start) {
            start = lane;
            wait = {l, ingress, 0};
        }
    }
    // Nothing changed since the first pass: each unit's lane is the same one.
    for (std::size_t l = 0; l < level; ++l)
        if (radix_[l] != 0) lane_for(lanes[l], l, unit(l, rank), now) = start + hold;
    wait.delay = start - now;
    return start;
}

}  // namespace piccolo::detail
