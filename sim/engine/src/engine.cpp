// The event loop and the life of a transfer (sim/engine/README.md states the contract and works
// tiny cases by hand). A transfer of m bytes priced at level l (L, o_s, o_r, g, and W = (m-1)G):
//   READY     its dependencies are done. It asks its device for a send slot (offload overheads),
//             or its rank's send port (the gap) and then the processor (cpu overheads, LogP's
//             rule: o_s starts when the gap allows): the send starts at ts, o_s runs.
//   INJECT    ts + o_s. Then the network:
//             FIFO egress lanes of the units it leaves (network.hpp); under fair sharing the
//             transfer runs as a flow (FLOWS: its last byte has left; later, its share frees;
//             shares are re-planned once per time, after its last event). With no
//             limit on its way the window [ts + o_s, ts + o_s + W] is known at ts and the event
//             is skipped.
//   ARRIVE    the first byte reaches the destination's units, L after the injection starts:
//             FIFO ingress lanes of the units it enters, in tandem after the egress.
//   LAND      the first byte may enter the destination: a receive slot (offload) or the rank's
//             receive port (cpu); skipped when unlimited.
//   Reception runs from its start r to max(r + W, injection end + L): bytes cross the wire once.
//   offload:  delivered o_r after the reception ends. cpu: RECEIVED asks for the processor.
// The send is sent (its buffer reusable) when its last byte has left (eager), or when the
// receiver has taken the data (rendezvous, at or above the level's threshold). Compute tasks run
// on their rank's processor. Every wait is first come first served; equal times are ordered by
// (event kind, task id) as sim/engine/README.md says, never by file order or slot numbering.
#include "piccolo/engine/engine.hpp"

#include <fmt/format.h>
#include <algorithm>

#include "engine_dependencies.hpp"
#include "engine_levels.hpp"
#include "engine_pools.hpp"
#include "event_queue.hpp"
#include "flow_times.hpp"
#include "give_up.hpp"
#include "network.hpp"
#include "piccolo/core/error.hpp"
#include "pricing.hpp"
#include "run_record.hpp"
#include "slot_pool.hpp"

namespace piccolo {

namespace {

using namespace detail;

// Does some level charge overheads on the rank's processor? Without contention every level is
// priced offload: the cpu model's shared processor is contention.
bool cpu_overheads(const Machine& m, const SimOptions& o) {
    return o.contention && std::any_of(m.levels.begin(), m.levels.end(), [](const Level& l) {
               return l.overhead == OverheadModel::cpu;
           });
}

// Plain: no trace is recorded, lanes are FIFO and every level runs offload overheads (what most
// replays are). Its instantiation drops the other paths' branches from every step of a transfer.
template <bool Plain>
class Engine : PoolQueues<Engine<Plain>, Plain> {
    using Queues = PoolQueues<Engine<Plain>, Plain>;
    friend Queues;
    using Queues::events_;
    using Queues::pools_;
    using Queues::release;
    using Queues::wake;
    // Named here: a member template of a dependent base is not known as one in this class.
    template <Pool P>
    void request(Rank owner, TaskId t, SimTime now) {
        Queues::template request<P>(owner, t, now);
    }

  public:
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
          dependencies_(s, successors),
          give_up_(o.give_up_after),
          record_(m, ranks_, s.size(), o.record_trace) {
        if (pricing_.longest_cost() > max_seconds)
            throw InputError(fmt::format(
                "one message or compute task of this schedule would take {:.4g} s, longer than "
                "simulated time can count ({} s at femtosecond resolution); check the machine's "
                "parameters or simulate smaller messages",
                pricing_.longest_cost(), max_seconds));
        const bool slots_limited = o.contention && m.device_radix;
        pools_[send_slots] = SlotPool(ranks_, slots_limited ? m.device_radix : std::nullopt);
        if (slots_limited) pools_[receive_slots] = SlotPool(ranks_, m.device_radix);
        receive_slots_limited_ = slots_limited;
        const bool cpu = !Plain && cpu_overheads(m, o);
        // A million ranks' processors cost memory that an Allgather on offload never touches.
        if (cpu || std::any_of(s.kind.begin(), s.kind.end(),
                               [](TaskKind k) { return k != TaskKind::transfer; }))
            pools_[processors] = SlotPool(ranks_, 1);
        if (cpu) {
            pools_[send_ports] = SlotPool(ranks_, 1);
            pools_[receive_ports] = SlotPool(ranks_, 1);
            receiving_.assign(s.size(), false);
        }
        if (!levels_fixed_) level_.assign(s.size(), 0);
    }

    SimResult run() {
        dependencies_.start(events_);
        while (!events_.empty()) {
            const Event e = events_.pop();
            if (give_up_.stops(e)) return GiveUp::stopped_at(e.time);
            dispatch(e);
            give_up_.decided(record_.latest_completion());
            if (give_up_.proven()) return GiveUp::stopped_at(give_up_.proven_time());
            if (fair() && !events_.more_at_now()) plan_flows(e.time);
        }
        return std::move(record_).finish(s_);
    }

  private:
    void dispatch(const Event& e) {
        const auto kind = e.kind();
        if (kind >= EventKind::wake && kind <= EventKind::wake_last)
            return wake(
                static_cast<Pool>(static_cast<int>(kind) - static_cast<int>(EventKind::wake)),
                e.id(), e.time);
        switch (kind) {
            case EventKind::flows:
                return flows_due(e.time);
            case EventKind::received:
                receiving_[e.id()] = true;
                return request<processors>(s_.dst[e.id()], e.id(), e.time);
            case EventKind::ready:
                return ready_run(e.id(), e.time);
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

    // `since`: when the request was made (for a receive: when the first byte arrived).
    template <Pool P>
    void granted(TaskId t, SimTime start, SimTime since, SlotRef slot) {
        if constexpr (P == send_slots)
            start_send(t, start, slot);
        else if constexpr (P == processors)
            processor_granted(t, start, since, slot);
        else if constexpr (P == send_ports)
            port_granted(t, start, slot);
        else
            start_reception(t, start, since, slot);
    }

    // ---- what this replay models ----------------------------------------------------------
    [[nodiscard]] bool tracing() const { return !Plain && record_.tracing(); }
    [[nodiscard]] bool on_cpu(const Price& x) const {
        return !Plain && x.overhead == OverheadModel::cpu;
    }
    [[nodiscard]] bool fair() const { return !Plain && network_.fair(); }
    [[nodiscard]] bool fifo_lanes(std::size_t level) const {
        return Plain ? network_.constrained(level) : network_.fifo_lanes(level);
    }

    // ---- a transfer's life ------------------------------------------------------------------
    [[nodiscard]] std::size_t level_of(TaskId t) const { return level_[t]; }
    [[nodiscard]] const Price& price(TaskId t) const {
        return pricing_.at(level_of(t), s_.size_class[t]);
    }

    void ready(TaskId t, SimTime now) {
        if (s_.kind[t] != TaskKind::transfer) return request<processors>(s_.src[t], t, now);
        // Looked up at every later step of the transfer.
        if (!levels_fixed_)
            level_[t] = static_cast<std::uint8_t>(network_.level_of(s_.src[t], s_.dst[t]));
        if (tracing()) {
            record_.trace(t).task = t;
            record_.trace(t).ready = to_seconds(now);
        }
        // cpu (LogP): the send waits for the gap first; its o_s starts when the gap allows and
        // the processor is free.
        if (on_cpu(price(t))) return request<send_ports>(s_.src[t], t, now);
        request<send_slots>(s_.src[t], t, now);
    }

    // Offload: the send slot is taken at ts; o_s runs on it.
    void start_send(TaskId t, SimTime ts, SlotRef slot) {
        const Price& x = price(t);
        if (tracing()) record_.trace(t).send_start = to_seconds(ts);
        if (network_.constrained(level_of(t))) {
            slot.hold_until_known();  // until the injection is over
            events_.push({ts + x.o_s, EventKind::inject, t});
            return;
        }
        const SimTime start = ts + x.o_s, end = start + x.wire;
        slot.hold(end + std::max<SimTime>(0, x.g - x.o_s), end);
        injected(t, x, start, end);
    }

    // `since`: when the request was made (a compute task's ready time).
    void processor_granted(TaskId t, SimTime start, SimTime since, SlotRef slot) {
        if (s_.kind[t] != TaskKind::transfer) return computed(t, since, start, slot);
        const Price& x = price(t);
        // Not told by the rank: a quotient's transfer may go from a representative to itself
        // (a ring over one representative), its o_s and its o_r both on that rank's processor.
        if (!receiving_[t]) {  // o_s of a send
            slot.hold(start + x.o_s, start + x.o_s);
            if (tracing()) record_.trace(t).send_start = to_seconds(start);
            events_.push({start + x.o_s, EventKind::inject, t});
        } else {  // o_r of a receive
            slot.hold(start + x.o_r, start + x.o_r);
            delivered(t, x, start + x.o_r);
        }
    }

    // cpu: the gap allows the send at `start`; the port is held until the injection's end is
    // known, and o_s waits for the processor.
    void port_granted(TaskId t, SimTime start, SlotRef port) {
        port.hold_until_known();
        request<processors>(s_.src[t], t, start);
    }

    // The injection may start at `now` (o_s is over); the send slot or port is released once the
    // injection's end is known.
    void inject(TaskId t, SimTime now) {
        const Price& x = price(t);
        const std::size_t level = level_of(t);
        if (!network_.constrained(level)) return injection_window(t, x, now, now + x.wire, now);
        if (fair()) return start_flow(t, x, level, now);
        LaneWait wait;
        const SimTime start = network_.take_lanes(s_.src[t], false, level, now, x.hold, wait);
        record_.lane_wait(wait.level, wait.ingress, wait.delay);
        give_up_.decided(start + x.wire + x.L + x.o_r);  // a lane's grant is final
        injection_window(t, x, start, start + x.wire, now);
    }

    // The injection runs from `start` to `end`: the sender's slot or port frees after it.
    void injection_window(TaskId t, const Price& x, SimTime start, SimTime end, SimTime now) {
        release_sender(t, x, end, now);
        injected(t, x, start, end);
    }

    // The send slot (offload: max(0, g - o_s) after the injection's end) or the send port (cpu:
    // LogP's gap, g + W after o_s started, i.e. g - o_s after the end) frees; never before `now`,
    // when that end became known.
    void release_sender(TaskId t, const Price& x, SimTime end, SimTime now) {
        if (on_cpu(x))
            release(send_ports, s_.src[t], std::max(end + x.g - x.o_s, now), end, now);
        else
            release(send_slots, s_.src[t], end + std::max<SimTime>(0, x.g - x.o_s), end, now);
    }

    // The injection window is known: the first byte arrives L after its start.
    void injected(TaskId t, const Price& x, SimTime start, SimTime end) {
        if (tracing()) {
            record_.trace(t).inject_start = to_seconds(start);
            record_.trace(t).inject_end = to_seconds(end);
        }
        if (!x.rendezvous) sent(t, end);
        if (receive_queues(x) || fifo_lanes(level_of(t)))
            events_.push({start + x.L, EventKind::arrive, t});
        else
            finish_reception(t, x, start + x.L, end);
    }

    [[nodiscard]] bool receive_queues(const Price& x) const {
        return on_cpu(x) || receive_slots_limited_;
    }

    // The first byte reaches the destination's units: FIFO ingress lanes are taken in tandem (the
    // bytes cross them W from when all are free), then the device receives from that time on.
    void arrive(TaskId t, SimTime now) {
        const Price& x = price(t);
        const std::size_t level = level_of(t);
        SimTime at = now;
        if (fifo_lanes(level)) {
            LaneWait wait;
            at = network_.take_lanes(s_.dst[t], true, level, now, x.hold, wait);
            record_.lane_wait(wait.level, wait.ingress, wait.delay);
            give_up_.decided(at + x.wire + x.o_r);
        }
        // A reception from `at` at full speed ends W later: as if the bytes had left at at - L.
        if (!receive_queues(x)) return finish_reception(t, x, at, at - x.L + x.wire);
        if (at > now) return events_.push({at, EventKind::land, t});
        land(t, at);
    }

    void land(TaskId t, SimTime now) {
        const bool cpu = on_cpu(price(t));
        if (cpu) return request<receive_ports>(s_.dst[t], t, now);
        request<receive_slots>(s_.dst[t], t, now);
    }

    // A receive slot or port is taken at r for the transfer whose first byte arrived at `arrival`.
    void start_reception(TaskId t, SimTime r, SimTime arrival, SlotRef slot) {
        const Price& x = price(t);
        if (FlowTimes::Record* flow = fair() ? flow_times_.find(t) : nullptr) {
            slot.hold_until_known();  // until the reception's end is known
            flow->reception_start = r;
            if (flow->data_end == never) return;
            const SimTime end = flow->data_end;
            if (flow->over()) flow_times_.erase(t);
            return finish_reception(t, x, r, end);
        }
        finish_reception(t, x, r, arrival - x.L + x.wire, &slot);  // at full speed: W later
    }

    // Reception from r; the last byte left the source at `end`. `slot`: the receive slot or
    // port just taken (else the one held since the reception started, or none when unlimited).
    void finish_reception(TaskId t, const Price& x, SimTime r, SimTime end,
                          SlotRef* slot = nullptr) {
        const SimTime done = std::max(r + x.wire, end + x.L);
        if (tracing()) record_.trace(t).receive_start = to_seconds(r);
        if (x.rendezvous) sent(t, done);
        const bool cpu = on_cpu(x);
        const SimTime free = cpu ? done + x.g : done + x.o_r;
        if (slot) {
            slot->hold(free, done);
        } else if (receive_queues(x)) {
            release(cpu ? receive_ports : receive_slots, s_.dst[t], free, done, r);
        }
        if (cpu) return events_.push({done, EventKind::received, t});
        delivered(t, x, done + x.o_r);
    }

    // ---- fair sharing -------------------------------------------------------------------------
    void start_flow(TaskId t, const Price& x, std::size_t level, SimTime now) {
        FlowTimes::Record& flow = flow_times_.add(t) = {now, never, never, x.hold != 0};
        if (receive_queues(x))
            events_.push({now + x.L, EventKind::arrive, t});
        else
            flow.reception_start = now + x.L;
        if (x.hold == 0) return flow_done(t, x, now);  // nothing to move, no gap: instantaneous
        network_.uses(s_.src[t], s_.dst[t], level, x.bytes_per_second, uses_);
        network_.flows().start(t, now, static_cast<double>(x.hold),
                               static_cast<double>(x.hold - x.wire), uses_);
        if (x.wire == 0) flow_done(t, x, now);  // no bytes to move: only the gap's tail runs
    }

    // Every event at `now` has been served: the flows that started or ended get their shares,
    // and the next time a flow's data or work is done gets a FLOWS event (sim/engine/README.md,
    // "Events and ties").
    void plan_flows(SimTime now) {
        FairShare& flows = network_.flows();
        if (flows.pending()) flows.refill(now);
        const SimTime next = flows.next_due();
        if (next == never || next == flows_event_) return;
        events_.push({next, EventKind::flows, 0});
        flows_event_ = next;
    }

    // The flows whose last byte leaves now, then those whose work ends now, each in task order.
    void flows_due(SimTime now) {
        if (now == flows_event_) flows_event_ = never;
        FairShare& flows = network_.flows();
        if (flows.next_due() != now) return;  // the prediction moved
        flows.take_due(now, data_done_, ended_);
        for (TaskId t : data_done_) {
            flow_done(t, price(t), now);
            // As the flows' own events would: past the give-up limit, run() stops here.
            if (record_.latest_completion() > give_up_.stop_after()) return;
        }
        for (TaskId t : ended_) {
            FlowTimes::Record& flow = *flow_times_.find(t);
            record_.wait(WaitPoint::fair_sharing, now - flow.start - price(t).hold);
            flow.working = false;
            if (flow.over()) flow_times_.erase(t);
        }
    }

    // The flow's last byte has left at `end`.
    void flow_done(TaskId t, const Price& x, SimTime end) {
        FlowTimes::Record& flow = *flow_times_.find(t);
        flow.data_end = end;
        if (tracing()) {
            record_.trace(t).inject_start = to_seconds(flow.start);
            record_.trace(t).inject_end = to_seconds(end);
        }
        // Read before the calls below, which may start other flows and move the records.
        const SimTime reception = flow.reception_start;
        if (flow.over()) flow_times_.erase(t);
        release_sender(t, x, end, end);
        if (!x.rendezvous) sent(t, end);
        if (reception != never) finish_reception(t, x, reception, end);
    }

    // ---- completions ----------------------------------------------------------------------------
    void computed(TaskId t, SimTime ready, SimTime start, SlotRef processor) {
        const SimTime end = start + pricing_.compute_cost(s_.kind[t], s_.size_class[t]);
        processor.hold(end, end);
        record_.computed(t, s_.src[t], ready, start, end);
        release_successors(successors_.delivered, t, end);
    }

    // A send completes no later than its delivery, so it never sets the makespan.
    void sent(TaskId t, SimTime time) {
        if (tracing()) record_.trace(t).sent = to_seconds(time);
        if (successors_.sent.rows() > 0) release_successors(successors_.sent, t, time);
    }

    void delivered(TaskId t, const Price& x, SimTime time) {
        record_.delivered(t, level_of(t), s_.bytes(t), x.wire, s_.dst[t], time);
        release_successors(successors_.delivered, t, time);
    }

    void release_successors(const Csr<TaskId>& successors, TaskId t, SimTime time) {
        dependencies_.release(successors, t, time, events_);
    }

    // A READY event serves its task and the rest of its run (one event, not one per task), in
    // the order their own events would have been served: a task's requests may push an event for
    // this same time that goes before the next task's READY (a wake), and then the rest of the
    // run goes back into the queue behind it. `t` leads its run, or continues one.
    void ready_run(TaskId t, SimTime now) {
        const TaskId end = dependencies_.run_end(t);
        for (;;) {
            ready(t, now);
            if (++t == end || record_.latest_completion() > give_up_.stop_after())
                return;  // run() stops
            const Event next{now, EventKind::ready, t};
            if (events_.serves_before(next.key)) return events_.push(next);
        }
    }

    void record_pool_wait(Pool pool, SimTime delay) {
        switch (pool) {
            case send_slots:
            case receive_slots:
                return record_.slot_wait(pool == receive_slots, delay);
            case processors:
                return record_.wait(WaitPoint::processor, delay);
            case send_ports:
                return record_.wait(WaitPoint::send_port, delay);
            case receive_ports:
                return record_.wait(WaitPoint::receive_port, delay);
        }
    }

    const Schedule& s_;
    const Schedule::Successors& successors_;
    std::size_t ranks_;
    Pricing pricing_;
    Network network_;
    bool receive_slots_limited_ = false;
    std::vector<std::uint8_t> level_;  // per transfer, from READY on: the level pricing it
    bool levels_fixed_ = false;        // level_ was given (a quotient schedule)
    FlowTimes flow_times_;  // fair sharing only: the times of the flows under way
    // cpu overheads only, per task: its reception is over, so its processor request is its o_r.
    std::vector<bool> receiving_;
    std::vector<FairShare::Use> uses_;                        // scratch
    std::vector<TaskId> data_done_, ended_;                   // scratch
    SimTime flows_event_ = never;            // the FLOWS event queued last, until it is served
    Dependencies dependencies_;
    GiveUp give_up_;
    RunRecord record_;
};

// Does the replay fit Engine<true>: no trace, FIFO lanes, offload overheads everywhere?
bool plain(const Machine& m, const SimOptions& o) {
    const bool fair = o.contention && m.sharing == Sharing::fair;
    return !o.record_trace && !fair && !cpu_overheads(m, o);
}

SimResult replay(const Schedule& s, const Schedule::Successors& successors, const Machine& m,
                 const RankLayout& layout, const SimOptions& o,
                 std::span<const std::uint8_t> levels) {
    if (plain(m, o)) return Engine<true>(s, successors, m, layout, o, levels).run();
    return Engine<false>(s, successors, m, layout, o, levels).run();
}

}  // namespace

SimResult simulate(const Schedule& schedule, const Schedule::Successors& successors,
                   const Machine& machine, const RankLayout& layout, const SimOptions& options) {
    if (schedule.shape.ranks > layout.ranks())
        throw InputError(fmt::format("the schedule has {} ranks but the layout places only {}",
                                     schedule.shape.ranks, layout.ranks()));
    return replay(schedule, successors, machine, layout, options, {});
}

namespace detail {

SimResult simulate_with_levels(const Schedule& schedule, const Schedule::Successors& successors,
                               const Machine& machine, const RankLayout& layout,
                               const SimOptions& options, std::span<const std::uint8_t> levels) {
    return replay(schedule, successors, machine, layout, options, levels);
}

}  // namespace detail

SimResult simulate(const Schedule& schedule, const Machine& machine, const RankLayout& layout,
                   const SimOptions& options) {
    return simulate(schedule, schedule.joined_successors(), machine, layout, options);
}

}  // namespace piccolo
