// The modern method beside PAW's (as NVIDIA's nvbandwidth measures): a batch of cudaMemcpyAsync
// copies is queued on a stream that a spin kernel holds, bracketed by two events; the host then
// releases the stream and the events give the device's own time for the batch. Launch latency,
// host-side queuing and the host clock are outside the figure. Page-locked host memory only:
// an asynchronous copy from pageable memory is staged by the host thread itself, which would
// block behind the held stream.
#pragma once

#include "cuda_error.hpp"
#include "hold_stream.h"
#include "runtime_layer.hpp"

#include <parbench/pattern/offload_transfer.hpp>

#include <atomic>
#include <cstdint>
#include <stdexcept>

namespace parbench::cuda {

class event_timed_transfer {
public:
    // `hold_cycles`: how long the spin kernel may hold the stream before it gives up (GPU
    // cycles); a batch whose hold timed out is an error, never a figure.
    event_timed_transfer(runtime_layer& layer, const pattern::offload_transfer& p,
                         std::uint64_t bytes, int device, long long hold_cycles)
        : direction_(p.direction),
          device_(device),
          bytes_(static_cast<std::size_t>(bytes)),
          hold_cycles_(hold_cycles),
          host_(layer, pattern::host_memory::pinned, bytes_),
          device_memory_(layer, device, bytes_) {
        if (p.memory != pattern::host_memory::pinned)
            throw std::logic_error("CUDA event timing needs page-locked host memory");
        check(cudaSetDevice(device), "cudaSetDevice");
        check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
        check(cudaEventCreate(&start_), "cudaEventCreate");
        check(cudaEventCreate(&stop_), "cudaEventCreate");
        void* flags = nullptr;
        check(cudaHostAlloc(&flags, 2 * sizeof(int), cudaHostAllocMapped),
              "cudaHostAlloc (mapped hold flags)");
        flags_ = static_cast<volatile int*>(flags);
    }
    event_timed_transfer(const event_timed_transfer&) = delete;
    event_timed_transfer& operator=(const event_timed_transfer&) = delete;
    ~event_timed_transfer() {
        (void)cudaSetDevice(device_);
        if (flags_ != nullptr) {
            flags_[0] = 1;  // never leave a spinning kernel behind
            (void)cudaStreamSynchronize(stream_);
            (void)cudaFreeHost(const_cast<int*>(flags_));
        }
        if (stop_ != nullptr) (void)cudaEventDestroy(stop_);
        if (start_ != nullptr) (void)cudaEventDestroy(start_);
        if (stream_ != nullptr) (void)cudaStreamDestroy(stream_);
    }

    // Seconds the device took for `iterations` transfers (pattern/compute.hpp's self_timed).
    double timed_run(std::uint64_t iterations) {
        check(cudaSetDevice(device_), "cudaSetDevice");
        flags_[0] = 0;  // hold
        flags_[1] = 0;  // not timed out
        std::atomic_thread_fence(std::memory_order_seq_cst);
        check(parbench_cuda_hold_stream(stream_, flags_, hold_cycles_), "hold kernel launch");
        check(cudaEventRecord(start_, stream_), "cudaEventRecord");
        for (std::uint64_t i = 0; i < iterations; ++i) {
            if (direction_ != pattern::transfer_direction::out)
                check(cudaMemcpyAsync(device_memory_.data(), host_.data(), bytes_,
                                      cudaMemcpyHostToDevice, stream_),
                      "cudaMemcpyAsync host to device");
            if (direction_ != pattern::transfer_direction::in)
                check(cudaMemcpyAsync(host_.data(), device_memory_.data(), bytes_,
                                      cudaMemcpyDeviceToHost, stream_),
                      "cudaMemcpyAsync device to host");
        }
        check(cudaEventRecord(stop_, stream_), "cudaEventRecord");
        std::atomic_thread_fence(std::memory_order_seq_cst);
        flags_[0] = 1;  // release
        check(cudaEventSynchronize(stop_), "cudaEventSynchronize");
        // The kernel ran before the start event on the same stream: its verdict is final now.
        if (flags_[1] != 0)
            throw cuda_error("the stream hold timed out before the batch of " +
                             std::to_string(iterations) +
                             " copies was queued (host too slow to queue it): batch discarded");
        float ms = 0.0f;
        check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
        return static_cast<double>(ms) * 1e-3;
    }

    void operator()() { (void)timed_run(1); }  // an untimed warm-up call

private:
    pattern::transfer_direction direction_;
    int device_;
    std::size_t bytes_;
    long long hold_cycles_;
    pattern::host_buffer<runtime_layer> host_;
    pattern::device_buffer<runtime_layer> device_memory_;
    cudaStream_t stream_ = nullptr;
    cudaEvent_t start_ = nullptr;
    cudaEvent_t stop_ = nullptr;
    volatile int* flags_ = nullptr;  // [0] release, [1] the hold timed out
};

}  // namespace parbench::cuda
