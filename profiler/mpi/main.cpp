// piccolo-profile-mpi: LogGP profile of a machine over MPI (one rank per device, e.g. per core
// over shared memory, or per node over the network).
#include <algorithm>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "driver.hpp"
#include "mpi_transport.hpp"
#include "reclaim_probe.hpp"

namespace {

using piccolo::profiler::MeasureSettings;
using piccolo::profiler::RawSample;
using piccolo::profiler::SampleKind;

// gamma (reduce) and copy cost per byte of the CPU, on buffers larger than the last-level
// cache, as a reduction or permutation of a collective's vector would touch them.
void measure_cpu_compute(const MeasureSettings& settings, std::vector<RawSample>& out) {
    const std::size_t elements = settings.max_bytes >= (std::size_t{4} << 20)
                                     ? (std::size_t{1} << 22)
                                     : (std::size_t{1} << 20);
    const int reps = std::max(settings.min_reps / 2, 3);
    std::vector<float> accumulator(elements, 1.0f), contribution(elements, 0.5f), copy(elements);
    const std::size_t bytes = elements * sizeof(float);
    double checksum = 0;
    for (int rep = -1; rep < reps; ++rep) {  // rep -1 warms caches and TLBs up
        const double start = piccolo::profiler::steady_seconds();
        for (std::size_t i = 0; i < elements; ++i) accumulator[i] += contribution[i];
        const double reduce = piccolo::profiler::steady_seconds() - start;
        const double copy_start = piccolo::profiler::steady_seconds();
        std::memcpy(copy.data(), accumulator.data(), bytes);
        const double copy_seconds = piccolo::profiler::steady_seconds() - copy_start;
        checksum += static_cast<double>(copy[elements / 2]);
        if (rep < 0) continue;
        out.push_back({"reduce", SampleKind::compute, 1, 0, bytes, rep, reduce});
        out.push_back({"copy", SampleKind::compute, 1, 0, bytes, rep, copy_seconds});
    }
    // Keeps the loops observable so that the optimizer cannot drop them.
    if (checksum < 0) out.clear();
}

}  // namespace

int main(int argc, char** argv) {
    piccolo::profiler::DriverHooks hooks;
    hooks.tool = "piccolo-profile-mpi";
    hooks.transport = "MPI";
    hooks.make_transport = [](const piccolo::profiler::RankContext& context, std::size_t capacity) {
        return std::make_unique<piccolo::profiler::MpiTransport>(context.world, capacity);
    };
    hooks.devices_per_node = [] {
        return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    };
    hooks.measure_compute = measure_cpu_compute;
    hooks.measure_reclaim = piccolo::profiler::probe_reclaim;
    return piccolo::profiler::run_profiler(argc, argv, hooks);
}
