#pragma once
// Element-wise sums on the GPU for piccolo-run-nccl's reduce tasks (gpu_reduce.cu): to += from,
// `count` elements, enqueued on `stream`. Plain types only, so that nvcc compiles the kernels
// without the executor's C++20 headers.

#include <cuda_runtime_api.h>

#include <cstddef>

namespace piccolo::exec::gpu {

cudaError_t add_f64(double* to, const double* from, std::size_t count, cudaStream_t stream);
cudaError_t add_f32(float* to, const float* from, std::size_t count, cudaStream_t stream);
// Bytes add modulo 256, as the MPI executor's bytes do.
cudaError_t add_u8(unsigned char* to, const unsigned char* from, std::size_t count,
                   cudaStream_t stream);

}  // namespace piccolo::exec::gpu
