#include "gpu_assign.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <string>
#include <vector>

#include "piccolo/core/error.hpp"

namespace piccolo::gpu {

namespace {

enum Problem : int { none = 0, too_few_gpus = 1, no_gpu = 2 };

// The message of the rank that found the worst problem (the lowest such rank), on every rank.
std::string shared_message(MPI_Comm world, int rank, Problem mine, const std::string& text) {
    struct {
        int problem;
        int rank;
    } local{mine, rank}, worst{};
    MPI_Allreduce(&local, &worst, 1, MPI_2INT, MPI_MAXLOC, world);
    if (worst.problem == none) return {};
    int length = worst.rank == rank ? static_cast<int>(text.size()) : 0;
    MPI_Bcast(&length, 1, MPI_INT, worst.rank, world);
    std::string out(static_cast<std::size_t>(length), ' ');
    if (worst.rank == rank) out = text;
    MPI_Bcast(out.data(), length, MPI_CHAR, worst.rank, world);
    return out;
}

}  // namespace

int cuda_device_count(const char** why) {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) {
        if (why != nullptr) *why = cudaGetErrorString(status);
        return 0;
    }
    if (count == 0 && why != nullptr) *why = "the CUDA runtime reports 0 devices";
    return count;
}

int assign_gpu(MPI_Comm world) {
    int rank = 0, on_host = 0, host_rank = 0;
    MPI_Comm_rank(world, &rank);
    MPI_Comm host = MPI_COMM_NULL;
    MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &host);
    MPI_Comm_rank(host, &host_rank);
    MPI_Comm_size(host, &on_host);
    MPI_Comm_free(&host);
    const char* why = "";
    const int devices = cuda_device_count(&why);
    char name[MPI_MAX_PROCESSOR_NAME + 1] = {};
    int length = 0;
    MPI_Get_processor_name(name, &length);
    Problem problem = none;
    std::string text;
    if (devices == 0) {
        problem = no_gpu;
        text = fmt::format("no CUDA device on {} ({}); run one process per GPU on GPU nodes", name,
                           why);
    } else if (on_host > devices) {
        problem = too_few_gpus;
        text = fmt::format(
            "{} ranks on {} but only {} GPU(s) visible there; NCCL needs a GPU per rank: start "
            "at most {} rank(s) per node (e.g. mpirun --map-by ppr:{}:node)",
            on_host, name, devices, devices, devices);
    }
    const std::string message = shared_message(world, rank, problem, text);
    if (!message.empty()) throw InputError(message);
    return host_rank;
}

}  // namespace piccolo::gpu
