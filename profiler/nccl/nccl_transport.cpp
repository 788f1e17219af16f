#include "nccl_transport.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "gpu_assign.hpp"
#include "mpi_transport.hpp"

namespace piccolo::profiler {
namespace {

constexpr int control_tag = 2;

void check(cudaError_t status, const char* what) {
    if (status != cudaSuccess) {
        throw std::runtime_error(
            fmt::format("{}: CUDA error {}", what, cudaGetErrorString(status)));
    }
}

void check(ncclResult_t status, const char* what) {
    if (status != ncclSuccess) {
        throw std::runtime_error(
            fmt::format("{}: NCCL error {}", what, ncclGetErrorString(status)));
    }
}

}  // namespace

NcclTransport::NcclTransport(const RankContext& context, std::size_t capacity)
    : world_(context.world), capacity_(capacity) {
    // One process per GPU: the i-th rank of a host drives its i-th device (the host's ranks, not
    // the --node-size pretend node's); too few GPUs end here, before NCCL, with one line.
    check(cudaSetDevice(gpu::assign_gpu(world_)), "cudaSetDevice");
    ncclUniqueId id{};
    if (context.rank == 0) check(ncclGetUniqueId(&id), "ncclGetUniqueId");
    MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, world_);
    check(ncclCommInitRank(&comm_, context.size, id, context.rank), "ncclCommInitRank");
    check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
    check(cudaEventCreate(&start_), "cudaEventCreate");
    check(cudaEventCreate(&stop_), "cudaEventCreate");
    check(cudaMalloc(&send_buffer_, capacity_), "cudaMalloc");
    check(cudaMalloc(&recv_buffer_, capacity_), "cudaMalloc");
    check(cudaMemset(send_buffer_, 1, capacity_), "cudaMemset");
    check(cudaMemset(recv_buffer_, 0, capacity_), "cudaMemset");
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

NcclTransport::~NcclTransport() {
    // Destructors must not throw: release what exists and ignore late errors.
    if (stream_ != nullptr) cudaStreamSynchronize(stream_);
    if (comm_ != nullptr) ncclCommDestroy(comm_);
    if (send_buffer_ != nullptr) cudaFree(send_buffer_);
    if (recv_buffer_ != nullptr) cudaFree(recv_buffer_);
    if (start_ != nullptr) cudaEventDestroy(start_);
    if (stop_ != nullptr) cudaEventDestroy(stop_);
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
}

void NcclTransport::check_capacity(std::size_t bytes) const {
    if (bytes > capacity_) {
        throw std::length_error(
            fmt::format("{} bytes in flight exceed the {} allocated", bytes, capacity_));
    }
}

// The GPU writes the data (a memset kernel on the transfer stream, as a kernel producing the
// data would), and the host waits for it so that the write never lands in a timed region.
void NcclTransport::produce(std::size_t bytes, int messages) {
    const std::size_t total = bytes * static_cast<std::size_t>(messages);
    check_capacity(total);
    check(cudaMemsetAsync(send_buffer_, ++generation_, total, stream_), "cudaMemsetAsync");
    check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
}

void NcclTransport::send(int peer, std::size_t bytes, int message) {
    const std::size_t offset = bytes * static_cast<std::size_t>(message);
    check_capacity(offset + bytes);
    check(ncclSend(static_cast<char*>(send_buffer_) + offset, bytes, ncclInt8, peer, comm_,
                   stream_),
          "ncclSend");
}

void NcclTransport::recv(int peer, std::size_t bytes) {
    check_capacity(bytes);
    check(ncclRecv(recv_buffer_, bytes, ncclInt8, peer, comm_, stream_), "ncclRecv");
}

void NcclTransport::send_concurrent(int peer, std::size_t bytes, int count) {
    check_capacity(bytes * static_cast<std::size_t>(count));
    auto* base = static_cast<char*>(send_buffer_);
    check(ncclGroupStart(), "ncclGroupStart");
    for (int i = 0; i < count; ++i) {
        check(ncclSend(base + static_cast<std::size_t>(i) * bytes, bytes, ncclInt8, peer, comm_,
                       stream_),
              "ncclSend");
    }
    check(ncclGroupEnd(), "ncclGroupEnd");
}

void NcclTransport::recv_concurrent(int peer, std::size_t bytes, int count) {
    check_capacity(bytes * static_cast<std::size_t>(count));
    auto* base = static_cast<char*>(recv_buffer_);
    check(ncclGroupStart(), "ncclGroupStart");
    for (int i = 0; i < count; ++i) {
        check(ncclRecv(base + static_cast<std::size_t>(i) * bytes, bytes, ncclInt8, peer, comm_,
                       stream_),
              "ncclRecv");
    }
    check(ncclGroupEnd(), "ncclGroupEnd");
}

// One group: NCCL runs the send and the receive together (separate groups would deadlock, both
// peers sending first).
void NcclTransport::exchange(int peer, std::size_t bytes) {
    check_capacity(bytes);
    check(ncclGroupStart(), "ncclGroupStart");
    check(ncclSend(send_buffer_, bytes, ncclInt8, peer, comm_, stream_), "ncclSend");
    check(ncclRecv(recv_buffer_, bytes, ncclInt8, peer, comm_, stream_), "ncclRecv");
    check(ncclGroupEnd(), "ncclGroupEnd");
}

// The host spins while the GPU drains what was enqueued: between two ncclSend calls of a
// PRTT(n,d,s) train the device sits idle for d, as the method requires.
void NcclTransport::busy_wait(double seconds) {
    spin_for(seconds);
}

void NcclTransport::start_timer() {
    check(cudaEventRecord(start_, stream_), "cudaEventRecord");
}

double NcclTransport::stop_timer() {
    check(cudaEventRecord(stop_, stream_), "cudaEventRecord");
    check(cudaEventSynchronize(stop_), "cudaEventSynchronize");
    float milliseconds = 0;
    check(cudaEventElapsedTime(&milliseconds, start_, stop_), "cudaEventElapsedTime");
    return static_cast<double>(milliseconds) * 1e-3;
}

void NcclTransport::send_control(int peer, std::span<const double> words) {
    MPI_Send(words.data(), static_cast<int>(words.size()), MPI_DOUBLE, peer, control_tag, world_);
}

void NcclTransport::recv_control(int peer, std::span<double> words) {
    MPI_Recv(words.data(), static_cast<int>(words.size()), MPI_DOUBLE, peer, control_tag, world_,
             MPI_STATUS_IGNORE);
}

}  // namespace piccolo::profiler
