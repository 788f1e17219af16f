#include "nccl_runner.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "gpu_assign.hpp"
#include "gpu_reduce.hpp"

namespace piccolo::exec {

void check_cuda(cudaError_t status, std::string_view what) {
    if (status != cudaSuccess)
        throw std::runtime_error(
            fmt::format("{}: CUDA error {}", what, cudaGetErrorString(status)));
}

void check_nccl(ncclResult_t status, std::string_view what) {
    if (status != ncclSuccess)
        throw std::runtime_error(
            fmt::format("{}: NCCL error {}", what, ncclGetErrorString(status)));
}

NcclSession::NcclSession(MPI_Comm world) {
    check_cuda(cudaSetDevice(piccolo::gpu::assign_gpu(world)), "cudaSetDevice");
    int rank = 0, size = 0;
    MPI_Comm_rank(world, &rank);
    MPI_Comm_size(world, &size);
    ncclUniqueId id{};
    if (rank == 0) check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
    MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, world);
    check_nccl(ncclCommInitRank(&comm_, size, id, rank), "ncclCommInitRank");
    check_cuda(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
}

NcclSession::~NcclSession() {
    // Destructors must not throw: release what exists and ignore late errors.
    if (stream_ != nullptr) cudaStreamSynchronize(stream_);
    if (comm_ != nullptr) ncclCommDestroy(comm_);
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
}

DeviceBuffer::DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
    void* p = nullptr;
    check_cuda(cudaMalloc(&p, bytes == 0 ? 1 : bytes), "cudaMalloc");
    data_ = static_cast<std::byte*>(p);
}

DeviceBuffer::~DeviceBuffer() {
    if (data_ != nullptr) cudaFree(data_);
}

void DeviceBuffer::upload(std::span<const std::byte> host, cudaStream_t stream) {
    check_cuda(cudaMemcpyAsync(data_, host.data(), std::min(host.size(), bytes_),
                               cudaMemcpyHostToDevice, stream),
               "cudaMemcpyAsync");
    check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
}

void DeviceBuffer::download(std::span<std::byte> host, cudaStream_t stream) {
    check_cuda(cudaMemcpyAsync(host.data(), data_, std::min(host.size(), bytes_),
                               cudaMemcpyDeviceToHost, stream),
               "cudaMemcpyAsync");
    check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
}

NcclRunner::NcclRunner(const RankPlan& plan, std::vector<Wave> waves, const NcclSession& session)
    : plan_(plan), waves_(std::move(waves)), comm_(session.comm()), stream_(session.stream()) {}

void NcclRunner::run(const DeviceBuffer& arena) {
    for (const Wave& wave : waves_) run_wave(wave, arena.data());
    check_cuda(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
}

// Computes, then packing, then one group of every transfer of the wave, then unpacking: the
// stream runs them in this order, and every rank enqueues its waves in the same order.
void NcclRunner::run_wave(const Wave& wave, std::byte* arena) {
    for (std::uint32_t i : wave.computes) {
        copy(plan_.ops[i].copies, arena);
        reduce(plan_.ops[i].reduces, arena);
    }
    for (std::uint32_t i : wave.transfers)
        if (plan_.ops[i].kind == OpKind::send) copy(plan_.ops[i].copies, arena);
    if (!wave.transfers.empty()) {
        check_nccl(ncclGroupStart(), "ncclGroupStart");
        for (std::uint32_t i : wave.transfers) {
            const LocalOp& op = plan_.ops[i];
            std::byte* at = arena + op.offset;
            check_nccl(op.kind == OpKind::send
                           ? ncclSend(at, op.bytes, ncclUint8, op.peer, comm_, stream_)
                           : ncclRecv(at, op.bytes, ncclUint8, op.peer, comm_, stream_),
                       op.kind == OpKind::send ? "ncclSend" : "ncclRecv");
        }
        check_nccl(ncclGroupEnd(), "ncclGroupEnd");
    }
    for (std::uint32_t i : wave.transfers)
        if (plan_.ops[i].kind == OpKind::recv) copy(plan_.ops[i].copies, arena);
}

void NcclRunner::copy(std::span<const Stretch> stretches, std::byte* arena) {
    for (const Stretch& r : stretches)
        check_cuda(cudaMemcpyAsync(arena + r.to, arena + r.from, r.bytes, cudaMemcpyDeviceToDevice,
                                   stream_),
                   "cudaMemcpyAsync");
}

void NcclRunner::reduce(std::span<const Stretch> stretches, std::byte* arena) {
    for (const Stretch& r : stretches) {
        const std::size_t count = r.bytes / element_bytes(plan_.element);
        std::byte* to = arena + r.to;
        const std::byte* from = arena + r.from;
        switch (plan_.element) {
            case Element::f64:
                check_cuda(gpu::add_f64(reinterpret_cast<double*>(to),
                                        reinterpret_cast<const double*>(from), count, stream_),
                           "reduce kernel");
                break;
            case Element::f32:
                check_cuda(gpu::add_f32(reinterpret_cast<float*>(to),
                                        reinterpret_cast<const float*>(from), count, stream_),
                           "reduce kernel");
                break;
            case Element::u8:
                check_cuda(
                    gpu::add_u8(reinterpret_cast<unsigned char*>(to),
                                reinterpret_cast<const unsigned char*>(from), count, stream_),
                    "reduce kernel");
                break;
        }
    }
}

}  // namespace piccolo::exec
