#pragma once
// The offload overhead model (`overhead: offload`: GPUs, offloading NICs; sim/engine/README.md,
// "The LogGP contract", 1, 4 and 5): a send takes one of its device's send slots at ts and o_s
// runs on it; the slot is held until the injection ends plus max(0, g - o_s). A reception takes a
// receive slot, held until o_r after the reception ends, when the transfer is delivered. Without
// a device_radix (or without contention) the send slots are elastic and receptions never wait.
//
// An overhead model of the engine (transfer_engine.hpp says what one provides).

#include <algorithm>

#include "engine_pools.hpp"
#include "pricing.hpp"
#include "sim_time.hpp"

namespace piccolo::detail {

class OffloadOverheads {
  public:
    static constexpr OverheadModel kind = OverheadModel::offload;
    // The pools whose grants this model serves: the engine's own are the receive slots or ports
    // (a reception starts) and a compute task's processor.
    static constexpr bool grants(Pool pool) { return pool == send_slots; }

    OffloadOverheads(Pools& pools, std::size_t ranks, std::size_t, const Machine& m,
                     const SimOptions& o)
        : slots_limited_(o.contention && m.device_radix) {
        pools[send_slots] = SlotPool(ranks, slots_limited_ ? m.device_radix : std::nullopt);
        if (slots_limited_) pools[receive_slots] = SlotPool(ranks, m.device_radix);
    }

    // READY: the send asks its device for a send slot.
    template <class E>
    void send(E& e, TaskId t, SimTime now) {
        request<send_slots>(e, e.schedule().src[t], t, now);
    }

    // The send slot is taken at ts; o_s runs on it. Nothing limited on the way: the injection's
    // window is known now, and no INJECT event is needed.
    template <Pool P, class E>
    void granted(E& e, TaskId t, SimTime ts, SimTime, SlotRef slot) {
        static_assert(P == send_slots);
        const Price& x = e.price(t);
        e.started(t, ts);
        if (e.network().constrained(e.level_of(t))) {
            slot.hold_until_known();  // until the injection is over
            e.push({ts + x.o_s, EventKind::inject, t});
            return;
        }
        const SimTime start = ts + x.o_s, end = start + x.wire;
        slot.hold(end + std::max<SimTime>(0, x.g - x.o_s), end);
        e.injected(t, x, start, end);
    }

    // The injection ended at `end`, known at `now`: the send slot frees max(0, g - o_s) later.
    template <class E>
    void release_sender(E& e, TaskId t, const Price& x, SimTime end, SimTime now) {
        e.release(send_slots, e.schedule().src[t], end + std::max<SimTime>(0, x.g - x.o_s), end,
                  now);
    }

    // Does the first byte wait at the destination (for a receive slot)?
    [[nodiscard]] bool receive_waits() const { return slots_limited_; }

    // LAND: the first byte may enter the destination device: a receive slot.
    template <class E>
    void land(E& e, TaskId t, SimTime now) {
        request<receive_slots>(e, e.schedule().dst[t], t, now);
    }

    // The reception ran from r to `done`: delivered o_r later, when its receive slot (`slot`
    // just taken, else the one held since the reception started, if limited) frees.
    template <class E>
    void reception_done(E& e, TaskId t, const Price& x, SimTime r, SimTime done, SlotRef* slot) {
        const SimTime free = done + x.o_r;
        if (slot)
            slot->hold(free, done);
        else if (slots_limited_)
            e.release(receive_slots, e.schedule().dst[t], free, done, r);
        e.delivered(t, x, free);
    }

  private:
    bool slots_limited_;  // a device_radix, with contention: receive slots exist
};

}  // namespace piccolo::detail
