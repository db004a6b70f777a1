// The offload_transfer device layer on the CUDA runtime, as PAW's GPU tests use it: cudaMalloc
// for device memory, cudaMallocHost for pinned host memory, synchronous cudaMemcpy for copies
// (each returns when the data has arrived, so the host clock around a loop of them is valid).
#pragma once

#include "cuda_error.hpp"

#include <parbench/pattern/offload_transfer.hpp>

#include <cstddef>

namespace parbench::cuda {

class runtime_layer {
public:
    void* allocate_device(int device, std::size_t bytes) {
        select(device);
        void* p = nullptr;
        check(cudaMalloc(&p, bytes), "cudaMalloc");
        return p;
    }
    void free_device(int device, void* p) {
        // Destructors call this: a failure here cannot be thrown, and leaks nothing it could free.
        current_device() = -1;
        if (cudaSetDevice(device) == cudaSuccess) {
            current_device() = device;
            (void)cudaFree(p);
        }
    }
    void* allocate_pinned(std::size_t bytes) {
        void* p = nullptr;
        check(cudaMallocHost(&p, bytes), "cudaMallocHost");
        return p;
    }
    void free_pinned(void* p) { (void)cudaFreeHost(p); }
    void to_device(int device, void* dst, const void* src, std::size_t bytes) {
        select(device);
        check(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice), "cudaMemcpy host to device");
    }
    void to_host(int device, void* dst, const void* src, std::size_t bytes) {
        select(device);
        check(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy device to host");
    }

private:
    // cudaSetDevice only when the device changes: it is not free, and a single-device loop
    // should time the copies alone. The current device is per host thread, in CUDA and here
    // (concurrent lanes run one thread per device).
    static int& current_device() {
        static thread_local int device = -1;
        return device;
    }
    static void select(int device) {
        if (device == current_device()) return;
        check(cudaSetDevice(device), "cudaSetDevice");
        current_device() = device;
    }
};

static_assert(pattern::device_layer<runtime_layer>);

}  // namespace parbench::cuda
