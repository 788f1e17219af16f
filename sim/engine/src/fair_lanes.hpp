#pragma once
// The fair-sharing lane model (`sharing: fair`, sim/engine/README.md, "Fair sharing"): an
// injection becomes a flow of fair_share.hpp through the egress and ingress lanes of every limited
// unit on its way and, where its level has one, the capacity of the lowest unit holding both ends,
// all at once: its bytes cross every wire together, at the share the busiest constraint allows.
// A flow's last byte leaves when its work but the gap's tail is done; its reception, which may
// have started before (a receive slot taken at the first byte's arrival), then finishes. Shares are
// refilled once per time, after the time's last event, for the flows connected to those that
// started or ended (FLOWS events bring the predicted ends).
//
// A lane model of the engine (transfer_engine.hpp says what one provides).

#include <cstdint>
#include <vector>

#include "event_queue.hpp"
#include "fair_share.hpp"
#include "flow_times.hpp"
#include "network.hpp"
#include "piccolo/core/assert.hpp"
#include "pricing.hpp"
#include "run_record.hpp"
#include "sim_time.hpp"
#include "slot_pool.hpp"

namespace piccolo::detail {

class FairLanes {
  public:
    // A reception's end waits for its flow's last byte (a receive slot is held until then).
    static constexpr bool reception_end_known = false;

    FairLanes(const Network& network, const Machine& machine);

    // INJECT of a transfer priced at `level`, which meets a limit on its way: its flow starts.
    template <class E>
    void inject(E& e, TaskId t, const Price& x, std::size_t level, SimTime now) {
        FlowTimes::Record& flow = times_.add(t) = {now, never, never, x.hold != 0};
        if (e.receive_waits(x))
            e.push({now + x.L, EventKind::arrive, t});
        else
            flow.reception_start = now + x.L;
        if (x.hold == 0) return data_done(e, t, x, now);  // nothing to move, no gap: instantaneous
        uses(e.schedule().src[t], e.schedule().dst[t], level, x.bytes_per_second);
        flows_.start(t, now, static_cast<double>(x.hold), static_cast<double>(x.hold - x.wire),
                     uses_);
        if (x.wire == 0) data_done(e, t, x, now);  // no bytes to move: only the gap's tail runs
    }

    // Flows take nothing at their arrival: they hold their ingress lanes from their start.
    template <class E>
    [[nodiscard]] bool at_arrival(const E&, std::size_t) const {
        return false;
    }
    template <class E>
    SimTime arrive(E&, TaskId, const Price&, std::size_t, SimTime now) {
        return now;
    }

    // A receive slot or port was taken at r for t: true when t moves as a flow, whose reception
    // finishes here if its last byte has left, else when it leaves (data_done).
    template <class E>
    bool reception_started(E& e, TaskId t, const Price& x, SimTime r, SlotRef& slot) {
        FlowTimes::Record* flow = times_.find(t);
        if (!flow) return false;
        slot.hold_until_known();  // until the reception's end is known
        flow->reception_start = r;
        if (flow->data_end == never) return true;
        const SimTime end = flow->data_end;
        if (flow->over()) times_.erase(t);
        e.finish_reception(t, x, r, end);
        return true;
    }

    // Every event at `now` has been served: the flows that started or ended get their shares,
    // and the next time a flow's data or work is done gets a FLOWS event (sim/engine/README.md,
    // "Events and ties").
    template <class E>
    void time_served(E& e, SimTime now) {
        if (e.more_at_now()) return;
        if (flows_.pending()) flows_.refill(now);
        const SimTime next = flows_.next_due();
        if (next == never || next == flows_event_) return;
        e.push({next, EventKind::flows, 0});
        flows_event_ = next;
    }

    // FLOWS: the flows whose last byte leaves now, then those whose work ends now, each in task
    // order.
    template <class E>
    void flows(E& e, SimTime now) {
        if (now == flows_event_) flows_event_ = never;
        if (flows_.next_due() != now) return;  // the prediction moved
        flows_.take_due(now, data_done_, ended_);
        for (TaskId t : data_done_) {
            data_done(e, t, e.price(t), now);
            // As the flows' own events would: past the give-up limit, the loop stops here.
            if (e.record().latest_completion() > e.give_up().stop_after()) return;
        }
        for (TaskId t : ended_) {
            FlowTimes::Record* flow = times_.find(t);
            PICCOLO_ASSERT(flow && flow->working);
            e.record().wait(WaitPoint::fair_sharing, now - flow->start - e.price(t).hold);
            flow->working = false;
            if (flow->over()) times_.erase(t);
        }
    }

  private:
    // The flow's last byte has left at `end`: the sender is free (after its gap), the send may
    // be sent, and a reception already started finishes.
    template <class E>
    void data_done(E& e, TaskId t, const Price& x, SimTime end) {
        FlowTimes::Record* flow = times_.find(t);
        PICCOLO_ASSERT(flow && flow->data_end == never);  // a flow's data is done once
        flow->data_end = end;
        if (e.tracing()) {
            e.record().trace(t).inject_start = to_seconds(flow->start);
            e.record().trace(t).inject_end = to_seconds(end);
        }
        // Read before the calls below, which may start other flows and move the records.
        const SimTime reception = flow->reception_start;
        if (flow->over()) times_.erase(t);
        e.release_sender(t, x, end, end);
        if (!x.rendezvous) e.sent(t, end);
        if (reception != never) e.finish_reception(t, x, reception, end);
    }

    // The constraints a flow a -> b priced at `level` uses, into uses_.
    void uses(Rank a, Rank b, std::size_t level, double bytes_per_second);

    const Network& network_;
    FairShare flows_;
    // Constraint ids per level: the lanes of unit u at egress_base_[l] + 2u (ingress likewise),
    // the internal capacity at capacity_base_[l] + u (u = 0 for the system).
    std::vector<std::uint32_t> egress_base_, ingress_base_, capacity_base_;
    std::vector<std::uint8_t> has_capacity_;
    FlowTimes times_;                        // the times of the flows under way
    std::vector<FairShare::Use> uses_;       // scratch
    std::vector<TaskId> data_done_, ended_;  // scratch
    SimTime flows_event_ = never;            // the FLOWS event queued last, until it is served
};

}  // namespace piccolo::detail
