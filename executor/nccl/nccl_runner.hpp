#pragma once
// A RankPlan run over NCCL on one GPU: the arena lives in device memory, waves of the plan
// (piccolo/executor/waves.hpp) are enqueued on one stream, each wave's transfers as one
// ncclGroupStart/ncclGroupEnd of ncclSend/ncclRecv, copies as device-to-device cudaMemcpyAsync
// and reductions as kernels (gpu_reduce.cu).

#include <cuda_runtime_api.h>
#include <mpi.h>
#include <nccl.h>

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "piccolo/executor/plan.hpp"
#include "piccolo/executor/waves.hpp"

namespace piccolo::exec {

// Throws std::runtime_error naming `what` when a CUDA or NCCL call fails.
void check_cuda(cudaError_t status, std::string_view what);
void check_nccl(ncclResult_t status, std::string_view what);

// The communicator and stream of a run: the rank's GPU checked and chosen (gpu::assign_gpu),
// then ncclCommInitRank over the ranks of `world` (MPI carries NCCL's unique id).
class NcclSession {
  public:
    explicit NcclSession(MPI_Comm world);  // collective; throws InputError without a GPU each
    NcclSession(const NcclSession&) = delete;
    NcclSession& operator=(const NcclSession&) = delete;
    ~NcclSession();
    [[nodiscard]] ncclComm_t comm() const { return comm_; }
    [[nodiscard]] cudaStream_t stream() const { return stream_; }

  private:
    ncclComm_t comm_ = nullptr;
    cudaStream_t stream_ = nullptr;
};

// Device memory, freed with its owner.
class DeviceBuffer {
  public:
    explicit DeviceBuffer(std::size_t bytes);
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    ~DeviceBuffer();
    [[nodiscard]] std::byte* data() const { return data_; }
    [[nodiscard]] std::size_t size() const { return bytes_; }
    void upload(std::span<const std::byte> host, cudaStream_t stream);  // waits until done
    void download(std::span<std::byte> host, cudaStream_t stream);      // waits until done

  private:
    std::byte* data_ = nullptr;
    std::size_t bytes_ = 0;
};

class NcclRunner {
  public:
    NcclRunner(const RankPlan& plan, std::vector<Wave> waves, const NcclSession& session);
    // Runs the plan once on `arena` (plan.arena_bytes of device memory) and waits for the GPU.
    void run(const DeviceBuffer& arena);

  private:
    void run_wave(const Wave& wave, std::byte* arena);
    void copy(std::span<const Stretch> stretches, std::byte* arena);
    void reduce(std::span<const Stretch> stretches, std::byte* arena);

    const RankPlan& plan_;
    std::vector<Wave> waves_;
    ncclComm_t comm_;
    cudaStream_t stream_;
};

}  // namespace piccolo::exec
