#include "gpu_reduce.hpp"

namespace piccolo::exec::gpu {

namespace {

template <typename T>
__global__ void add_kernel(T* to, const T* from, std::size_t count) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
         i += stride)
        to[i] = static_cast<T>(to[i] + from[i]);
}

template <typename T>
cudaError_t launch(T* to, const T* from, std::size_t count, cudaStream_t stream) {
    if (count == 0) return cudaSuccess;
    constexpr unsigned threads = 256;
    const std::size_t wanted = (count + threads - 1) / threads;
    const unsigned blocks = wanted < 4096 ? static_cast<unsigned>(wanted) : 4096U;
    add_kernel<T><<<blocks, threads, 0, stream>>>(to, from, count);
    return cudaGetLastError();
}

}  // namespace

cudaError_t add_f64(double* to, const double* from, std::size_t count, cudaStream_t stream) {
    return launch(to, from, count, stream);
}

cudaError_t add_f32(float* to, const float* from, std::size_t count, cudaStream_t stream) {
    return launch(to, from, count, stream);
}

cudaError_t add_u8(unsigned char* to, const unsigned char* from, std::size_t count,
                   cudaStream_t stream) {
    return launch(to, from, count, stream);
}

}  // namespace piccolo::exec::gpu
