#pragma once
// The FIFO lane model (`sharing: fifo`, sim/engine/README.md, "The LogGP contract", 2 and 3):
// lanes are servers, one message at a time, first come first served, and a unit's lane that frees
// first is taken. A transfer takes one egress lane of every limited unit it leaves when its
// injection may start, and one ingress lane of every limited unit it enters when its first byte
// arrives there (L later); each lane is held max(g, (m-1)G): a lane charges a message at least
// the gap g (a NIC's message rate). Bytes that find the ingress busy wait in the network and cross
// the ingress link once it frees; in the tandem, a lane can sit idle while its next message waits
// elsewhere, which fair sharing (fair_lanes.hpp) does not lose. A lane's grant is final, so the
// transfer it serves is delivered no earlier than the grant plus what follows it: the give-up
// rule learns that then (give_up.hpp).
//
// A lane model of the engine (transfer_engine.hpp says what one provides).

#include <vector>

#include "network.hpp"
#include "piccolo/core/assert.hpp"
#include "pricing.hpp"
#include "sim_time.hpp"
#include "slot_pool.hpp"

namespace piccolo::detail {

class FifoLanes {
  public:
    // A reception's end is known when it starts (receive slots may be granted in order).
    static constexpr bool reception_end_known = true;

    FifoLanes(const Network& network, const Machine&) {
        const std::size_t below = network.levels() - 1;
        egress_.resize(below);
        ingress_.resize(below);
        for (std::size_t level = 0; level < below; ++level) {
            const auto servers = static_cast<std::size_t>(network.units(level)) *
                                 static_cast<std::size_t>(network.radix(level));
            egress_[level].assign(servers, 0);
            ingress_[level].assign(servers, 0);
        }
    }

    // INJECT of a transfer priced at `level`, which meets lanes on its way: the egress lanes of
    // every limited unit it leaves, from when all are free.
    template <class E>
    void inject(E& e, TaskId t, const Price& x, std::size_t level, SimTime now) {
        const SimTime start = take(e, e.schedule().src[t], false, level, now, x.hold);
        e.give_up().decided(start + x.wire + x.L + x.o_r);
        e.injection_window(t, x, start, start + x.wire, now);
    }

    // Does the first byte take lanes where it arrives (an ARRIVE event)?
    template <class E>
    [[nodiscard]] bool at_arrival(const E& e, std::size_t level) const {
        return e.network().constrained(level);
    }

    // ARRIVE: the ingress lanes are taken in tandem after the egress (the bytes cross them W from
    // when all are free); returns when the first byte may enter the destination device.
    template <class E>
    SimTime arrive(E& e, TaskId t, const Price& x, std::size_t level, SimTime now) {
        if (!at_arrival(e, level)) return now;
        const SimTime at = take(e, e.schedule().dst[t], true, level, now, x.hold);
        e.give_up().decided(at + x.wire + x.o_r);
        return at;
    }

    // A receive slot or port was taken at r: the engine finishes the reception now, its window
    // known since the injection.
    template <class E>
    bool reception_started(E&, TaskId, const Price&, SimTime, SlotRef&) {
        return false;
    }

    // Nothing to do after a time's events, and no FLOWS events.
    template <class E>
    void time_served(E&, SimTime) {}
    template <class E>
    void flows(E&, SimTime) {
        PICCOLO_ASSERT(!"FIFO lanes push no FLOWS event");
    }

  private:
    // Takes one lane of every limited unit that `rank` leaves (egress) or enters (ingress) on the
    // way of a transfer priced at `level`, for `hold` from when all are free (>= now); returns
    // that time and records the wait at the level that held it up.
    template <class E>
    SimTime take(E& e, Rank rank, bool ingress, std::size_t level, SimTime now, SimTime hold) {
        std::vector<std::vector<SimTime>>& lanes = ingress ? ingress_ : egress_;
        const Network& network = e.network();
        SimTime start = now;
        std::size_t held_at = 0;
        for (std::size_t l = 0; l < level; ++l) {
            if (network.radix(l) == 0) continue;
            if (const SimTime lane = lane_for(network, lanes[l], l, rank, now); lane > start) {
                start = lane;
                held_at = l;
            }
        }
        // Nothing changed since the first pass: each unit's lane is the same one.
        for (std::size_t l = 0; l < level; ++l)
            if (network.radix(l) != 0) lane_for(network, lanes[l], l, rank, now) = start + hold;
        e.record().lane_wait(held_at, ingress, start - now);  // recorded only when > 0
        return start;
    }

    // The lane of rank's unit at `level` that a message arriving at `now` takes (sim_time.hpp:
    // server_for).
    static SimTime& lane_for(const Network& network, std::vector<SimTime>& lanes, std::size_t level,
                             Rank rank, SimTime now) {
        const auto radix = static_cast<std::size_t>(network.radix(level));
        const auto unit = static_cast<std::size_t>(network.unit(level, rank));
        return server_for({lanes.data() + unit * radix, radix}, now);
    }

    std::vector<std::vector<SimTime>> egress_, ingress_;  // [level][unit * radix + lane]
};

}  // namespace piccolo::detail
