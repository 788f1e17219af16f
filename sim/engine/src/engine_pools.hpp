#pragma once
// A rank's slots, processor and ports as the engine waits for them (slot_pool.hpp keeps their
// state): first come, first served, a request is granted at once or queued until a WAKE event
// finds a slot free. The engine (transfer_engine.hpp) derives from PoolQueues, is called back
// when a request is granted (`granted<P>`) and to record the wait (`record_pool_wait<P>`), and
// queues the WAKE events (`push`): the event queue, and with it time, is the engine's.

#include <array>
#include <cstdint>

#include "event_queue.hpp"
#include "piccolo/core/assert.hpp"
#include "slot_pool.hpp"

namespace piccolo::detail {

// The pools a request can wait for; a WAKE event's kind says which one frees.
enum Pool : std::uint8_t { send_slots, receive_slots, processors, send_ports, receive_ports };
inline constexpr std::size_t pool_count = 5;
using Pools = std::array<SlotPool, pool_count>;

[[nodiscard]] inline EventKind wake_kind(Pool pool) {
    return static_cast<EventKind>(static_cast<int>(EventKind::wake) + pool);
}
[[nodiscard]] inline Pool pool_of(EventKind wake) {
    return static_cast<Pool>(static_cast<int>(wake) - static_cast<int>(EventKind::wake));
}

template <class Engine>
class PoolQueues {
  public:
    // The pool is a template argument: a request's path to what it was waiting for is then known
    // at compile time and inlined (every transfer makes two or three requests).
    template <Pool P>
    void request(Rank owner, TaskId t, SimTime now) {
        SlotPool& p = pools_[P];
        const auto o = static_cast<std::size_t>(owner);
        SimTime start = now;
        // Where a receive slot's release is known when it is granted and receive requests come
        // in time order (LAND), the queue's order is the slots' order, known now
        // (Engine::receive_slots_in_order says where).
        if constexpr (Engine::receive_slots_in_order && P == receive_slots) {
            SlotRef slot = p.claim_earliest(o, now, start);
            engine().template record_pool_wait<P>(start - now);  // recorded only when > 0
            return engine().template granted<P>(t, start, now, slot);
        }
        if (auto slot = p.claim(o, now, start))
            return engine().template granted<P>(t, start, now, *slot);
        p.enqueue(o, {t, now});
        schedule_wake(P, owner, now);
    }

    // A slot held until an unknown time learns it; requests waiting for it may go on.
    void release(Pool pool, Rank owner, SimTime free, SimTime data_end, SimTime now) {
        pools_[pool].resolve(static_cast<std::size_t>(owner), free, data_end);
        schedule_wake(pool, owner, now);
    }

  protected:
    void wake(Pool pool, Rank owner, SimTime now) {
        switch (pool) {
            case send_slots:
                return serve<send_slots>(owner, now);
            case receive_slots:
                return serve<receive_slots>(owner, now);
            case processors:
                return serve<processors>(owner, now);
            case send_ports:
                return serve<send_ports>(owner, now);
            case receive_ports:
                return serve<receive_ports>(owner, now);
        }
    }

    Pools pools_;

  private:
    // A slot of the owner's pool may have freed: grant the waiting requests in order while slots
    // are free.
    template <Pool P>
    void serve(Rank owner, SimTime now) {
        SlotPool& p = pools_[P];
        const auto o = static_cast<std::size_t>(owner);
        if (now >= p.pending_wake(o)) p.pending_wake(o) = never;
        while (p.waiting(o)) {
            SimTime start = now;
            auto slot = p.claim(o, now, start, true);
            if (!slot) return schedule_wake(P, owner, now);
            const Waiting w = p.front(o);
            p.pop(o);
            PICCOLO_ASSERT(start >= w.since);  // first come, first served: never before asked
            engine().template record_pool_wait<P>(start - w.since);
            engine().template granted<P>(w.task, start, w.since, *slot);
        }
    }

    void schedule_wake(Pool pool, Rank owner, SimTime now) {
        SlotPool& p = pools_[pool];
        const auto o = static_cast<std::size_t>(owner);
        if (!p.waiting(o)) return;
        const SimTime at = p.next_release(o, now);
        if (at == never || at >= p.pending_wake(o)) return;
        p.pending_wake(o) = at;
        engine().push({at, wake_kind(pool), static_cast<std::uint32_t>(owner)});
    }

    Engine& engine() { return static_cast<Engine&>(*this); }
};

// A request for pool P from a model of the engine (transfer_engine.hpp), where the engine's type
// is a template argument: e.request<P>(...) would need the `template` keyword at every call.
template <Pool P, class E>
void request(E& engine, Rank owner, TaskId t, SimTime now) {
    engine.template request<P>(owner, t, now);
}

}  // namespace piccolo::detail
