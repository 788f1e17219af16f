#include "select_memory.hpp"

#include <tbb/task_group.h>
#include <unistd.h>

#include <fmt/format.h>
#include <algorithm>
#include <condition_variable>
#include <exception>
#include <fstream>
#include <mutex>
#include <optional>
#include <string_view>

#include "piccolo/select/select.hpp"

namespace piccolo {

namespace {

// A "Key: value kB" line of /proc/meminfo, in bytes; 0 when absent.
std::uint64_t meminfo_bytes(std::string_view key) {
    std::ifstream in("/proc/meminfo");
    std::string name;
    std::uint64_t kib = 0;
    std::string suffix;
    while (in >> name >> kib) {
        std::getline(in, suffix);
        if (name.size() == key.size() + 1 && name.starts_with(key)) return kib * 1024;
    }
    return 0;
}

// What the memory cgroup (v2) of this process still allows; 0 when unlimited or unknown.
std::uint64_t cgroup_headroom() {
    std::ifstream max_file("/sys/fs/cgroup/memory.max"),
        current_file("/sys/fs/cgroup/memory.current");
    std::uint64_t max = 0, current = 0;
    if (!(max_file >> max) || !(current_file >> current)) return 0;  // "max" fails to parse
    return max > current ? max - current : 1;
}

}  // namespace

std::uint64_t default_memory_budget() {
    std::uint64_t available = meminfo_bytes("MemAvailable");
    if (available == 0) {
        const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        available = pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * page : 0;
    }
    if (const std::uint64_t headroom = cgroup_headroom(); headroom > 0 && headroom < available)
        available = headroom;
    return available / 2;
}

namespace detail {

std::uint64_t estimate_job_bytes(const TaskCounts& c, Rank ranks, bool fair_sharing,
                                 std::optional<int> device_radix) {
    // Per task: kind, ranks, size class and dependency offsets (17 B) in the DAG, where its
    // successor rows end (a byte and an eighth: packed_rows.hpp), the engine's level and its
    // waiters' counters and times; per dependency id: the id, its successor entry (with at most
    // 1.3 B of row ends where a stripe of 64 successor rows holds more than 255 entries) and the
    // generators' scratch (Allreduce reverses an Allgather); per transfer of the widest round: its
    // event, the event batch's merge scratch and its place in a slot queue, all at once where the
    // round starts together (an all-to-all). Measured peaks are 0.47 to 0.73 of this
    // (tests/sim/test_select_memory.cpp); per rank: the layout, slot pools and the record. A
    // dependency id of a list that a round's tasks share whole (TaskCounts::shared_dependency_ids:
    // scattered Alltoall) costs its id and a share of the joined successor entries: 6 B (p =
    // 1024, mpi style: measured 307 MB against 442 MB estimated, where 16 B a dependency gave
    // 1.1 GB; tests/sim/test_select_memory.cpp).
    constexpr std::uint64_t per_task = 37, per_dependency = 16, per_payload = 12, per_rank = 1024;
    constexpr std::uint64_t per_shared_dependency = 6;
    constexpr std::uint64_t per_waiting = 40;
    // Fair sharing, per flow under way: the flow (fair_share.hpp), its entries in its group's
    // heaps, and its three times with their place in the lookup (flow_times.hpp). The flows under
    // way are at most the widest round, and with a device radix R at most 2 R a rank (a flow
    // holds a send slot until its last byte has left, then a receive slot until it is received:
    // rm with k = 2048 on 2048 ranks of delta keeps 32,648 under way, 2 x 8 x 2048 = 32,768).
    constexpr std::uint64_t per_flow = 160;
    std::uint64_t flows = 0;
    if (fair_sharing) {
        flows = c.widest_round;
        if (device_radix)
            flows = std::min(flows, 2 * static_cast<std::uint64_t>(*device_radix) *
                                        static_cast<std::uint64_t>(ranks));
    }
    // What a job holds whatever its size, and what the process holds beside its jobs (allocator
    // arenas, results): with 4 MiB, the sweep of `cli: select stays within --memory-budget`
    // (tests/sim/select_budget.sh) peaked at 35.7 MB under its 32 MiB budget.
    constexpr std::uint64_t fixed = std::uint64_t{8} << 20;
    return fixed + per_task * c.tasks() +
           per_dependency * (c.dependency_ids - c.shared_dependency_ids) +
           per_shared_dependency * c.shared_dependency_ids + per_payload * c.payload_ids +
           per_waiting * c.widest_round + per_flow * flows +
           per_rank * static_cast<std::uint64_t>(ranks);
}

std::uint64_t resident_bytes() {
    std::ifstream statm("/proc/self/statm");
    std::uint64_t pages = 0, resident = 0;
    if (!(statm >> pages >> resident)) return 0;
    return resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

std::string format_memory(std::uint64_t bytes) {
    constexpr double kib = 1024.0, mib = kib * 1024, gib = mib * 1024;
    const auto b = static_cast<double>(bytes);
    if (b >= gib) return fmt::format("{:.1f} GiB", b / gib);
    if (b >= mib) return fmt::format("{:.0f} MiB", b / mib);
    return fmt::format("{:.0f} KiB", b / kib);
}

void BudgetedRunner::run(int threads, const std::function<void(std::size_t)>& job) {
    std::mutex mutex;
    std::condition_variable ended;
    std::vector<bool> started(estimates_.size(), false);
    std::size_t first_waiting = 0;  // every job before it has started
    std::uint64_t held = 0;
    std::exception_ptr failure;

    // The next job that fits, or estimates_.size() when none does (or none is left).
    auto next_fitting = [&] {
        for (std::size_t i = first_waiting; i < estimates_.size(); ++i)
            if (!started[i] && (held == 0 || held + estimates_[i] <= budget_)) return i;
        return estimates_.size();
    };
    auto worker = [&] {
        std::unique_lock lock(mutex);
        for (;;) {
            while (first_waiting < started.size() && started[first_waiting]) ++first_waiting;
            if (failure || first_waiting == started.size()) return;
            const std::size_t i = next_fitting();
            if (i == estimates_.size()) {
                ++delayed_;
                ended.wait(lock);
                continue;
            }
            started[i] = true;
            held += estimates_[i];
            peak_ = std::max(peak_, held);
            lock.unlock();
            try {
                job(i);
            } catch (...) {
                lock.lock();
                if (!failure) failure = std::current_exception();
                held -= estimates_[i];
                ended.notify_all();
                return;
            }
            lock.lock();
            held -= estimates_[i];
            ended.notify_all();
        }
    };
    tbb::task_group group;
    for (int t = 0; t < threads; ++t) group.run(worker);
    group.wait();
    if (failure) std::rethrow_exception(failure);
}

}  // namespace detail

}  // namespace piccolo
