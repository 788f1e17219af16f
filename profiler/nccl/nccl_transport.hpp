#pragma once
// Transport over NCCL point-to-point calls (ncclSend / ncclRecv on one CUDA stream), timed
// with CUDA events on that stream; control words travel over MPI. Host code only.

#include <cuda_runtime_api.h>
#include <mpi.h>
#include <nccl.h>

#include <cstddef>
#include <span>

#include "driver.hpp"
#include "piccolo/profiler/transport.hpp"

namespace piccolo::profiler {

class NcclTransport final : public Transport {
  public:
    // Collective over context.world: every rank constructs its transport at the same time.
    NcclTransport(const RankContext& context, std::size_t capacity);
    NcclTransport(const NcclTransport&) = delete;
    NcclTransport& operator=(const NcclTransport&) = delete;
    ~NcclTransport() override;

    void produce(std::size_t bytes, int messages) override;
    void send(int peer, std::size_t bytes, int message) override;
    void recv(int peer, std::size_t bytes) override;
    void send_concurrent(int peer, std::size_t bytes, int count) override;
    void recv_concurrent(int peer, std::size_t bytes, int count) override;
    void exchange(int peer, std::size_t bytes) override;
    void busy_wait(double seconds) override;
    void start_timer() override;
    double stop_timer() override;
    void send_control(int peer, std::span<const double> words) override;
    void recv_control(int peer, std::span<double> words) override;

  private:
    void check_capacity(std::size_t bytes) const;

    MPI_Comm world_;
    std::size_t capacity_ = 0;
    ncclComm_t comm_ = nullptr;
    cudaStream_t stream_ = nullptr;
    cudaEvent_t start_ = nullptr;
    cudaEvent_t stop_ = nullptr;
    void* send_buffer_ = nullptr;
    void* recv_buffer_ = nullptr;
    unsigned char generation_ = 1;  // each produce() writes new values
};

}  // namespace piccolo::profiler
