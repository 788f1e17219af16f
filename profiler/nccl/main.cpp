// piccolo-profile-nccl: LogGP profile of GPUs over NCCL, one MPI process per GPU (MPI only
// bootstraps NCCL and carries control words; data moves with ncclSend / ncclRecv).
#include <fmt/format.h>

#include <memory>
#include <optional>
#include <string>

#include "driver.hpp"
#include "gpu_assign.hpp"
#include "nccl_transport.hpp"

namespace {

using piccolo::profiler::MeasureSettings;
using piccolo::profiler::RawSample;
using piccolo::profiler::SampleKind;

// Device-to-device copy cost per byte (cudaMemcpyAsync timed with events). A reduction needs
// a kernel, which this host-only build does not have: reduce_per_byte stays 0 (set it by hand).
void measure_gpu_copy(const MeasureSettings& settings, std::vector<RawSample>& out) {
    const std::size_t bytes = std::size_t{64} << 20;
    void* source = nullptr;
    void* target = nullptr;
    cudaEvent_t start = nullptr, stop = nullptr;
    if (cudaMalloc(&source, bytes) != cudaSuccess || cudaMalloc(&target, bytes) != cudaSuccess ||
        cudaEventCreate(&start) != cudaSuccess || cudaEventCreate(&stop) != cudaSuccess) {
        cudaFree(source);
        cudaFree(target);
        return;
    }
    for (int rep = -1; rep < settings.min_reps / 2; ++rep) {
        cudaEventRecord(start, nullptr);
        cudaMemcpyAsync(target, source, bytes, cudaMemcpyDeviceToDevice, nullptr);
        cudaEventRecord(stop, nullptr);
        cudaEventSynchronize(stop);
        float milliseconds = 0;
        cudaEventElapsedTime(&milliseconds, start, stop);
        if (rep >= 0) {
            out.push_back({"copy", SampleKind::compute, 1, 0, bytes, rep,
                           static_cast<double>(milliseconds) * 1e-3});
        }
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(source);
    cudaFree(target);
}

}  // namespace

int main(int argc, char** argv) {
    piccolo::profiler::DriverHooks hooks;
    hooks.tool = "piccolo-profile-nccl";
    int version = 0;
    ncclGetVersion(&version);
    hooks.transport = fmt::format("NCCL {}", version);
    hooks.preflight = []() -> std::optional<std::string> {
        const char* why = "";
        if (piccolo::gpu::cuda_device_count(&why) > 0) return std::nullopt;
        return fmt::format("no CUDA device ({}); run one process per GPU on a GPU node", why);
    };
    hooks.make_transport = [](const piccolo::profiler::RankContext& context, std::size_t capacity) {
        return std::make_unique<piccolo::profiler::NcclTransport>(context, capacity);
    };
    hooks.devices_per_node = [] { return piccolo::gpu::cuda_device_count(); };
    hooks.measure_compute = measure_gpu_copy;
    return piccolo::profiler::run_profiler(argc, argv, hooks);
}
