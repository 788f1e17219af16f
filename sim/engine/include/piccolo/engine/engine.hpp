#pragma once
// The discrete-event engine: replays a schedule on a machine under hierarchical LogGP with device
// slots or a shared processor, node/group lanes and internal capacities (sim/engine/README.md, "The
// LogGP contract"). Knows nothing of files.

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "piccolo/schedules/schedule.hpp"
#include "piccolo/topologies/machine.hpp"

namespace piccolo {

struct SimOptions {
    // false: nothing waits for anything else: a rank opens a new send slot whenever its slots are
    // busy with data (a slot it reuses still keeps its gap g), receives never wait, lanes and
    // capacities are unlimited and overheads are offloaded. A message then costs exactly
    // o_s + (m-1)G + L + o_r from its send start, and a slot reused keeps the gap g.
    bool contention = true;
    bool record_trace = false;
    // Stop at the first event later than this many seconds: the makespan is then known to be
    // above it, and the replay ends there (SimResult::gave_up). A sweep uses it to stop a
    // candidate as soon as it can no longer matter. Infinity: run to the end.
    double give_up_after = std::numeric_limits<double>::infinity();
};

// Where time went at one contention point (e.g. "device send slots", "node egress lanes"; under
// fair sharing, "fair sharing": how much longer flows took than at full speed).
struct QueueingStats {
    std::string point;
    std::uint64_t delayed = 0;  // transfers that waited at all
    double total_delay = 0;     // seconds, summed over transfers
    double max_delay = 0;
};

struct LevelStats {
    std::string name;  // the machine level whose parameters priced the messages
    std::uint64_t transfers = 0;
    std::uint64_t bytes = 0;
    double wire_time = 0;  // sum of (m-1)G: time the data occupied links of this level
};

// One transfer's life, for timelines. Times in seconds.
struct TransferTrace {
    TaskId task = 0;
    double ready = 0;          // all dependencies complete
    double send_start = 0;     // ts: send slot acquired, o_s starts
    double inject_start = 0;   // first byte leaves (ts + o_s, later if an egress lane was busy)
    double inject_end = 0;     // last byte leaves: inject_start + (m-1)G
    double receive_start = 0;  // reception starts (first byte arrival, later if buffered)
    double sent = 0;           // the send completes (source buffer reusable)
    double complete = 0;       // tc: data usable at dst (delivered)
    std::uint8_t level = 0;
};

struct ComputeTrace {
    TaskId task = 0;
    double ready = 0, start = 0, end = 0;
};

struct SimResult {
    // The last completion. When the replay gave up (SimOptions::give_up_after), the time of the
    // first event past the limit instead: a lower bound on the makespan, above the limit; the
    // other fields are then empty.
    double makespan = 0;
    bool gave_up = false;
    std::vector<double> rank_finish;  // per rank: its last receive or compute completion
    std::vector<LevelStats> levels;   // indexed by lowest common level
    std::vector<QueueingStats> queueing;
    double compute_time = 0;  // sum over compute tasks
    std::uint64_t transfers = 0, computes = 0;
    std::vector<TransferTrace> transfer_trace;  // when SimOptions::record_trace
    std::vector<ComputeTrace> compute_trace;
};

// Throws InputError if the schedule uses more ranks than the layout places, never finishes (a
// dependency cycle), or would run longer than simulated time can count (about 2.5 hours).
SimResult simulate(const Schedule& schedule, const Machine& machine, const RankLayout& layout,
                   const SimOptions& options = {});
// The same with the schedule's successor lists computed once by the caller, for sweeps that
// replay one DAG at many sizes and scales: Schedule::joined_successors() (what the first form
// uses) or Schedule::successors(); both replay alike, event for event.
SimResult simulate(const Schedule& schedule, const Schedule::Successors& successors,
                   const Machine& machine, const RankLayout& layout, const SimOptions& options);

}  // namespace piccolo
