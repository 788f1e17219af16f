#pragma once
// One GPU per rank, checked before NCCL sees the ranks: shared by piccolo-profile-nccl and
// piccolo-run-nccl. NCCL refuses two ranks of one communicator on one GPU (ncclCommInitRank ends
// in "invalid usage"), so the ranks of each host (MPI_Comm_split_type shared) must not outnumber
// the GPUs it shows them.

#include <mpi.h>

namespace piccolo::gpu {

// Number of CUDA devices, or 0 when there is none or no usable driver (`why` says which).
int cuda_device_count(const char** why = nullptr);

// Collective over `world`: the device this rank drives, its rank among the ranks of its host.
// Throws InputError with the same one-line message on every rank when some rank sees no GPU, or
// some host runs more ranks than it has GPUs (naming the host and how to start the ranks).
int assign_gpu(MPI_Comm world);

}  // namespace piccolo::gpu
