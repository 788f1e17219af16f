#pragma once
// The event loop and the life of a transfer (sim/engine/README.md states the contract and works
// tiny cases by hand). A transfer of m bytes priced at level l (L, o_s, o_r, g, and W = (m-1)G):
//   READY     its dependencies are done. The overhead model of level l decides what the send
//             waits for: a send slot (offload), or the send port and then the processor (cpu):
//             the send starts at ts, o_s runs.
//   INJECT    ts + o_s: the first byte may leave. The lane model takes the egress lanes (FIFO) or
//             starts a flow (fair sharing). With no limit on its way the window
//             [ts + o_s, ts + o_s + W] is known at ts and the event is skipped.
//   ARRIVE    the first byte reaches the destination's units, L after the injection starts: the
//             lane model's ingress lanes (FIFO), in tandem after the egress.
//   LAND      the first byte may enter the destination: a receive slot (offload) or the rank's
//             receive port (cpu); skipped when unlimited.
//   Reception runs from its start r to max(r + W, injection end + L): bytes cross the wire once.
//   Then the overhead model delivers it: o_r after the reception ends (offload), or RECEIVED
//   asks for the processor and o_r runs on it (cpu).
// The send is sent (its buffer reusable) when its last byte has left (eager), or when the
// receiver has taken the data (rendezvous, at or above the level's threshold). Compute tasks run
// on their rank's processor. Every wait is first come first served; equal times are ordered by
// (event kind, task id) as sim/engine/README.md says, never by file order or slot numbering.
//
// The models are the engine's template arguments; the engine never asks which one runs. Their
// steps take the engine (`e`) and call back the steps of its public section.
//   Lanes (fifo_lanes.hpp, fair_lanes.hpp): what a transfer meets between the devices.
//     inject(e, t, x, level, now)      INJECT, where a limit is on the way: lanes or a flow
//     at_arrival(e, level)             does the first byte take something where it arrives?
//     arrive(e, t, x, level, now)      ARRIVE: when the first byte may enter the device
//     reception_started(e, t, x, r, slot)  true if the model finishes that reception later
//     flows(e, now), time_served(e, now)   its FLOWS event; after every event
//     reception_end_known              a reception's end is known when it starts
//   Overheads (level_overheads.hpp: offload_overheads.hpp, cpu_overheads.hpp per level): where
//   o_s and o_r run.
//     send(e, t, now)                  READY: what the send waits for
//     granted<P>(e, t, start, since, slot)  a slot of a pool it serves (grants(P)) granted
//     release_sender(e, t, x, end, now)     the injection's end is known: the sender frees
//     receive_waits()                  does the first byte wait at the destination?
//     land(e, t, now)                  LAND: what the reception waits for
//     reception_done(e, t, x, r, done, slot)  the receiver frees, the transfer is delivered
//     received(e, t, now)              RECEIVED, for a model whose receptions end in one
// Traces: this instantiation records a trace when SimOptions::record_trace asks (the lean one,
// most replays, never does). How to add a model: sim/engine/README.md, "Models".
//
// The engine is in an unnamed namespace: engine.cpp, its one includer, instantiates it, and its
// steps, local to that file, are inlined into the loop where each is called (with external
// linkage GCC 12 kept start_reception out of line: 3.6 % more instructions in a replay,
// tools/bench/history.md, "The engine's models behind interfaces").

#include <fmt/format.h>

#include <algorithm>
#include <span>

#include "engine_dependencies.hpp"
#include "engine_pools.hpp"
#include "event_queue.hpp"
#include "give_up.hpp"
#include "network.hpp"
#include "piccolo/core/assert.hpp"
#include "piccolo/core/error.hpp"
#include "pricing.hpp"
#include "reclaim.hpp"
#include "run_record.hpp"
#include "slot_pool.hpp"
#include "task_steps.hpp"

namespace piccolo::detail {
namespace {

template <class Lanes, class Overheads, bool Traces>
class Engine : public PoolQueues<Engine<Lanes, Overheads, Traces>> {
    using Queues = PoolQueues<Engine<Lanes, Overheads, Traces>>;
    friend Queues;
    using Queues::pools_;

  public:
    // Receive slots granted at once, in the order they free (PoolQueues::request): valid where a
    // reception's end is known when it starts, as receive requests come in time order. Only the
    // lean instantiation does it (FIFO lanes, offload overheads alone, no trace); the others
    // queue them, so they grant them at the WAKE events they always have (a give-up limit is
    // proven at the same step).
    static constexpr bool receive_slots_in_order =
        Lanes::reception_end_known && Overheads::offload_only && !Traces;

    Engine(const Schedule& s, const Schedule::Successors& successors, const Machine& m,
           const RankLayout& layout, const SimOptions& o,
           std::span<const std::uint8_t> fixed_levels = {})
        : s_(s),
          successors_(successors),
          ranks_(static_cast<std::size_t>(layout.ranks())),
          pricing_(s, m, o.contention),
          network_(m, layout, ranks_, o.contention),
          level_(fixed_levels.begin(), fixed_levels.end()),
          levels_fixed_(!fixed_levels.empty()),
          lanes_(network_, m),
          overheads_(pools_, ranks_, s.size(), m, o),
          dependencies_(s, successors),
          give_up_(o.give_up_after),
          record_(m, ranks_, s.size(), Traces && o.record_trace),
          steps_(s.size()) {
        // A million ranks' processors cost memory that an Allgather on offload never touches.
        if (pools_[processors].owners() == 0 &&
            std::any_of(s.kind.begin(), s.kind.end(),
                        [](TaskKind k) { return k != TaskKind::transfer; }))
            pools_[processors] = SlotPool(ranks_, 1);
        if (!levels_fixed_) level_.assign(s.size(), 0);
        reclaim_ = reclaim_times(s, m, [&](TaskId t) {
            return levels_fixed_ ? std::size_t{level_[t]} : network_.level_of(s.src[t], s.dst[t]);
        });
        const double longest = pricing_.longest_cost() +
                               (reclaim_.empty() ? 0.0 : to_seconds(std::ranges::max(reclaim_)));
        if (longest > max_seconds)
            throw InputError(fmt::format(
                "one message or compute task of this schedule would take {:.4g} s, longer than "
                "simulated time can count ({} s at femtosecond resolution); check the machine's "
                "parameters or simulate smaller messages",
                longest, max_seconds));
    }

    SimResult run() {
        dependencies_.start(events_);
        while (!events_.empty()) {
            const Event e = events_.pop();
            if (give_up_.stops(e)) return GiveUp::stopped_at(e.time);
            dispatch(e);
            give_up_.decided(record_.latest_completion());
            if (give_up_.proven()) return GiveUp::stopped_at(give_up_.proven_time());
            lanes_.time_served(*this, e.time);
        }
        return std::move(record_).finish(s_);
    }

    // ---- what the models read -----------------------------------------------------------
    [[nodiscard]] const Schedule& schedule() const { return s_; }
    [[nodiscard]] const Network& network() const { return network_; }
    [[nodiscard]] std::size_t level_of(TaskId t) const { return level_[t]; }
    [[nodiscard]] const Price& price(TaskId t) const {
        return pricing_.at(level_of(t), s_.size_class[t]);
    }
    [[nodiscard]] bool tracing() const { return Traces && record_.tracing(); }
    [[nodiscard]] RunRecord& record() { return record_; }
    [[nodiscard]] GiveUp& give_up() { return give_up_; }
    // Does the first byte of a transfer priced x wait at its destination (ARRIVE, LAND)?
    [[nodiscard]] bool receive_waits(const Price& x) {
        return overheads_.with(x, [](const auto& model) { return model.receive_waits(); });
    }
    // Is there an event left at the time being served?
    [[nodiscard]] bool more_at_now() const { return events_.more_at_now(); }

    // ---- the steps the models take ------------------------------------------------------------
    // Time never goes backwards: an event is for now or later (EventQueue::push asserts it).
    void push(Event e) { events_.push(e); }

    // The send of t starts at ts (its slot, or its processor for o_s, granted).
    void started(TaskId t, SimTime ts) {
        steps_.started(t);
        if (tracing()) record_.trace(t).send_start = to_seconds(ts);
    }

    // The injection runs from `start` to `end`, known at `now`: the sender's slot or port frees
    // after it, and the first byte arrives L after its start.
    void injection_window(TaskId t, const Price& x, SimTime start, SimTime end, SimTime now) {
        release_sender(t, x, end, now);
        injected(t, x, start, end);
    }

    void release_sender(TaskId t, const Price& x, SimTime end, SimTime now) {
        PICCOLO_ASSERT(end >= now);  // an injection's end is known no later than it comes
        overheads_.with(x, [&](auto& model) { model.release_sender(*this, t, x, end, now); });
    }

    // The injection window is known (the sender's slot or port released or about to be).
    void injected(TaskId t, const Price& x, SimTime start, SimTime end) {
        PICCOLO_ASSERT(start <= end);
        if (tracing()) {
            record_.trace(t).inject_start = to_seconds(start);
            record_.trace(t).inject_end = to_seconds(end);
        }
        if (!x.rendezvous) sent(t, end);
        if (receive_waits(x) || lanes_.at_arrival(*this, level_of(t)))
            push({start + x.L, EventKind::arrive, t});
        else
            finish_reception(t, x, start + x.L, end);
    }

    // Reception from r; the last byte left the source at `end`. `slot`: the receive slot or
    // port just taken (else the one held since the reception started, or none when unlimited).
    void finish_reception(TaskId t, const Price& x, SimTime r, SimTime end,
                          SlotRef* slot = nullptr) {
        const SimTime done = std::max(r + x.wire, end + x.L);
        if (tracing()) record_.trace(t).receive_start = to_seconds(r);
        if (x.rendezvous) sent(t, done);
        overheads_.with(x, [&](auto& model) { model.reception_done(*this, t, x, r, done, slot); });
    }

    // A send completes no later than its delivery, so it never sets the makespan. rows(), not
    // the cheaper empty(): with empty() GCC 12 inlines this step early into finish_reception,
    // which then stays out of line on the reception's path, and a lean replay runs 4.4 % more
    // instructions (tools/bench/history.md, "Packed successor lists").
    void sent(TaskId t, SimTime time) {
        if (tracing()) record_.trace(t).sent = to_seconds(time);
        if (successors_.sent.rows() > 0) release_successors(successors_.sent, t, time);
    }

    void delivered(TaskId t, const Price& x, SimTime time) {
        steps_.completed(t);
        record_.delivered(t, level_of(t), s_.bytes(t), x.wire, s_.dst[t], time);
        release_successors(successors_.delivered, t, time);
    }

  private:
    void dispatch(const Event& e) {
        const auto kind = e.kind();
        if (kind >= EventKind::wake && kind <= EventKind::wake_last)
            return this->wake(pool_of(kind), e.id(), e.time);
        switch (kind) {
            case EventKind::flows:
                return lanes_.flows(*this, e.time);
            case EventKind::received:
                return overheads_.received(*this, e.id(), e.time);
            case EventKind::ready:
                return ready_cohort(e.id(), e.time);
            case EventKind::inject:
                return inject(e.id(), e.time);
            case EventKind::arrive:
                return arrive(e.id(), e.time);
            case EventKind::land:
                return land(e.id(), e.time);
            default:
                return;
        }
    }

    // A slot of pool P is granted to t from `start`; `since`: when the request was made (for a
    // reception: when the first byte arrived; for a compute task: when it was ready). The
    // receiver's slot or port starts the reception; the rest is the overhead model's, but for a
    // compute task's processor.
    template <Pool P>
    void granted(TaskId t, SimTime start, SimTime since, SlotRef slot) {
        if constexpr (P == receive_slots || P == receive_ports) {
            start_reception(t, start, since, slot);
        } else {
            if (P == processors && s_.kind[t] != TaskKind::transfer)
                return computed(t, since, start, slot);
            overheads_.template granted<P>(*this, t, start, since, slot);
        }
    }

    // ---- a transfer's life ------------------------------------------------------------------
    void ready(TaskId t, SimTime now) {
        steps_.ready(t);
        if (s_.kind[t] != TaskKind::transfer)
            return this->template request<processors>(s_.src[t], t, now);
        // Looked up at every later step of the transfer.
        if (!levels_fixed_)
            level_[t] = static_cast<std::uint8_t>(network_.level_of(s_.src[t], s_.dst[t]));
        if (tracing()) {
            record_.trace(t).task = t;
            record_.trace(t).ready = to_seconds(now);
        }
        overheads_.with(price(t), [&](auto& model) { model.send(*this, t, now); });
    }

    // o_s is over: the injection may start at `now`.
    void inject(TaskId t, SimTime now) {
        const Price& x = price(t);
        const std::size_t level = level_of(t);
        if (!network_.constrained(level)) return injection_window(t, x, now, now + x.wire, now);
        lanes_.inject(*this, t, x, level, now);
    }

    // The first byte reaches the destination's units; the device receives from when the lanes
    // let it in.
    void arrive(TaskId t, SimTime now) {
        const Price& x = price(t);
        const SimTime at = lanes_.arrive(*this, t, x, level_of(t), now);
        // A reception from `at` at full speed ends W later: as if the bytes had left at at - L.
        if (!receive_waits(x)) return finish_reception(t, x, at, at - x.L + x.wire);
        if (at > now) return push({at, EventKind::land, t});
        land(t, at);
    }

    void land(TaskId t, SimTime now) {
        overheads_.with(price(t), [&](auto& model) { model.land(*this, t, now); });
    }

    // A receive slot or port is taken at r for the transfer whose first byte arrived at `arrival`.
    void start_reception(TaskId t, SimTime r, SimTime arrival, SlotRef slot) {
        PICCOLO_ASSERT(r >= arrival);
        const Price& x = price(t);
        if (lanes_.reception_started(*this, t, x, r, slot)) return;
        finish_reception(t, x, r, arrival - x.L + x.wire, &slot);  // at full speed: W later
    }

    // ---- completions ----------------------------------------------------------------------------
    void computed(TaskId t, SimTime ready, SimTime start, SlotRef processor) {
        PICCOLO_ASSERT(start >= ready);
        steps_.started(t);
        steps_.completed(t);
        const SimTime end = start + pricing_.compute_cost(s_.kind[t], s_.size_class[t]) +
                            (reclaim_.empty() ? 0 : reclaim_[t]);
        processor.hold(end, end);
        record_.computed(t, s_.src[t], ready, start, end);
        release_successors(successors_.delivered, t, end);
    }

    void release_successors(const PackedRows& successors, TaskId t, SimTime time) {
        dependencies_.release(successors, t, time, events_);
    }

    // A READY event serves its task and the rest of its cohort (one event, not one per task), in
    // the order their own events would have been served: a task's requests may push an event for
    // this same time that goes before the next task's READY (a wake), and then the rest of the
    // cohort goes back into the queue behind it. `t` leads its cohort, or continues one.
    void ready_cohort(TaskId t, SimTime now) {
        const TaskId end = dependencies_.cohort_end(t);
        for (;;) {
            ready(t, now);
            if (++t == end || record_.latest_completion() > give_up_.stop_after())
                return;  // run() stops
            const Event next{now, EventKind::ready, t};
            if (events_.serves_before(next.key)) return push(next);
        }
    }

    template <Pool P>
    void record_pool_wait(SimTime delay) {
        if constexpr (P == send_slots || P == receive_slots)
            record_.slot_wait(P == receive_slots, delay);
        else if constexpr (P == processors)
            record_.wait(WaitPoint::processor, delay);
        else if constexpr (P == send_ports)
            record_.wait(WaitPoint::send_port, delay);
        else
            record_.wait(WaitPoint::receive_port, delay);
    }

    const Schedule& s_;
    const Schedule::Successors& successors_;
    std::size_t ranks_;
    Pricing pricing_;
    Network network_;
    std::vector<std::uint8_t> level_;  // per transfer, from READY on: the level pricing it
    bool levels_fixed_ = false;        // level_ was given (a quotient schedule)
    EventQueue events_;  // the loop's own: time is the time of its last event, never earlier
    Lanes lanes_;
    Overheads overheads_;
    Dependencies dependencies_;
    GiveUp give_up_;
    RunRecord record_;
    TaskSteps steps_;  // checked where PICCOLO_ASSERT is on
    std::vector<SimTime> reclaim_;  // per task, or empty: none pays (reclaim.hpp)
};

}  // namespace
}  // namespace piccolo::detail
