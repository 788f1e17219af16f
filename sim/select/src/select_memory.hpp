#pragma once
// The sweep's memory budget: what one job (one distinct DAG, generated, then simulated at every
// scale and size) needs at its peak, how much memory the machine offers, and a runner that starts
// jobs in parallel only while the estimates of those running fit the budget.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "piccolo/schedules/schedule.hpp"
#include "piccolo/schedules/task_count.hpp"

namespace piccolo::detail {

// Peak bytes of one job: the generated DAG (with its generator's scratch), its successor lists
// and the engine's state, from the counts generate() will produce. Calibrated on the generators
// and engine of this version (docs/architecture.md, "Memory"); conservative by design.
// `fair_sharing`: the replays share lanes fairly (contention on, sharing: fair);
// `device_radix`: the machine's send and receive slots per device (empty: unlimited), which
// bound how many flows are under way at once.
std::uint64_t estimate_job_bytes(const TaskCounts& counts, Rank ranks, bool fair_sharing,
                                 std::optional<int> device_radix);

// The resident set of this process now, from /proc/self/statm (0 where there is none).
std::uint64_t resident_bytes();

// "1.5 GiB", "64 MiB", "900 KiB": for messages.
std::string format_memory(std::uint64_t bytes);

// Runs job(i) for every i on `threads` workers of the calling oneTBB arena. Jobs are taken in
// index order (callers put the largest first), except that a job whose estimate does not fit
// beside those running is passed over for the next one that does; when none fits, the worker
// waits for a running job to end. Every estimate must be <= budget (the caller refuses first).
// An exception from a job stops the others from starting and is rethrown.
class BudgetedRunner {
  public:
    BudgetedRunner(std::vector<std::uint64_t> estimates, std::uint64_t budget)
        : estimates_(std::move(estimates)), budget_(budget) {}
    void run(int threads, const std::function<void(std::size_t)>& job);
    // Jobs that could not start when a worker was free because the budget was taken.
    [[nodiscard]] std::size_t delayed() const { return delayed_; }
    [[nodiscard]] std::uint64_t peak_estimate() const { return peak_; }  // most held at once

  private:
    std::vector<std::uint64_t> estimates_;
    std::uint64_t budget_;
    std::size_t delayed_ = 0;
    std::uint64_t peak_ = 0;
};

}  // namespace piccolo::detail
