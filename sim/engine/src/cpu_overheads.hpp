#pragma once
// The cpu overhead model (`overhead: cpu`: classic LogGP, MPI ranks on cores; sim/engine/README.md,
// "The LogGP contract", 1, 4 and 5): o_s and o_r run on the rank's one processor, which also runs
// its compute tasks, first come first served. As in LogP, a send first takes the rank's send port,
// which frees g - o_s after the previous injection's last byte (never before that end is known),
// then waits for the processor; the first byte leaves when o_s ends. A reception takes the
// receive port, which frees g after the reception ends; o_r then waits for the processor (a
// RECEIVED event) and the transfer is delivered when it ends. Device slots are not used.
//
// An overhead model of the engine (transfer_engine.hpp says what one provides).

#include <algorithm>
#include <vector>

#include "engine_pools.hpp"
#include "piccolo/core/assert.hpp"
#include "pricing.hpp"
#include "sim_time.hpp"

namespace piccolo::detail {

// Does some level charge overheads on the rank's processor? Without contention every level is
// priced offload: the cpu model's shared processor is contention.
inline bool cpu_overheads(const Machine& m, const SimOptions& o) {
    return o.contention && std::any_of(m.levels.begin(), m.levels.end(), [](const Level& l) {
               return l.overhead == OverheadModel::cpu;
           });
}

class CpuOverheads {
  public:
    static constexpr OverheadModel kind = OverheadModel::cpu;
    // The pools whose grants this model serves (a processor's only for transfers: a compute
    // task's is the engine's).
    static constexpr bool grants(Pool pool) { return pool == send_ports || pool == processors; }

    // Its pools and state exist only where some level uses it.
    CpuOverheads(Pools& pools, std::size_t ranks, std::size_t tasks, const Machine& m,
                 const SimOptions& o) {
        if (!cpu_overheads(m, o)) return;
        pools[processors] = SlotPool(ranks, 1);
        pools[send_ports] = SlotPool(ranks, 1);
        pools[receive_ports] = SlotPool(ranks, 1);
        receiving_.assign(tasks, false);
    }

    // READY: the send waits for the gap first (its send port); o_s starts when the gap allows
    // and the processor is free.
    template <class E>
    void send(E& e, TaskId t, SimTime now) {
        request<send_ports>(e, e.schedule().src[t], t, now);
    }

    // The gap allows the send at `start`: the port is held until the injection's end is known,
    // and o_s waits for the processor. The processor granted at `start` runs o_s of a send, or
    // o_r of a reception (not told by the rank: a quotient's transfer may go from a
    // representative to itself, its o_s and its o_r both on that rank's processor).
    template <Pool P, class E>
    void granted(E& e, TaskId t, SimTime start, SimTime, SlotRef slot) {
        static_assert(P == send_ports || P == processors);
        if constexpr (P == send_ports) {
            slot.hold_until_known();
            request<processors>(e, e.schedule().src[t], t, start);
        } else {
            const Price& x = e.price(t);
            if (!receiving_[t]) {  // o_s of a send
                slot.hold(start + x.o_s, start + x.o_s);
                e.started(t, start);
                e.push({start + x.o_s, EventKind::inject, t});
            } else {  // o_r of a receive
                slot.hold(start + x.o_r, start + x.o_r);
                e.delivered(t, x, start + x.o_r);
            }
        }
    }

    // The injection ended at `end`, known at `now`: the send port frees g - o_s later (LogP's
    // gap: g + W after o_s started), never before `now`.
    template <class E>
    void release_sender(E& e, TaskId t, const Price& x, SimTime end, SimTime now) {
        e.release(send_ports, e.schedule().src[t], std::max(end + x.g - x.o_s, now), end, now);
    }

    // The first byte always waits for the receive port.
    [[nodiscard]] static bool receive_waits() { return true; }

    // LAND: the reception takes the receive port.
    template <class E>
    void land(E& e, TaskId t, SimTime now) {
        request<receive_ports>(e, e.schedule().dst[t], t, now);
    }

    // The reception ran from r to `done`: the receive port (`port` just taken, else the one held
    // since the reception started) frees g later; o_r waits for the processor.
    template <class E>
    void reception_done(E& e, TaskId t, const Price& x, SimTime r, SimTime done, SlotRef* port) {
        const SimTime free = done + x.g;
        if (port)
            port->hold(free, done);
        else
            e.release(receive_ports, e.schedule().dst[t], free, done, r);
        e.push({done, EventKind::received, t});
    }

    // RECEIVED: the last byte is in; o_r asks for the processor.
    template <class E>
    void received(E& e, TaskId t, SimTime now) {
        PICCOLO_ASSERT(!receiving_[t]);  // a reception ends once
        receiving_[t] = true;
        request<processors>(e, e.schedule().dst[t], t, now);
    }

  private:
    // Per task: its reception is over, so its processor request is its o_r.
    std::vector<bool> receiving_;
};

}  // namespace piccolo::detail
