// The offload_transfer pattern: a host process moves a buffer to and/or from an accelerator's own
// memory (PAW's GPU and Xeon Phi transfer tests, catalogue C.8 and C.9). One descriptor covers
// every variant: the direction, the kind of host memory, whether device memory is kept across
// transfers or allocated for each one, and the devices (several: concurrent transfers, one host
// thread per device).
//
// What a backend supplies is a *device layer* (the concept below): allocate and free device and
// page-locked host memory, and copy synchronously in either direction. The pattern owns the rest:
// the per-size resources (set up and torn down outside the timed region), what one iteration
// does, and the throughput rule. Timing uses PAW's NLOOP/NREPS method (pattern/compute.hpp's
// sweep); a transfer's time grows linearly with its size.
//
// Units: bandwidth is in GB/s = 10^9 bytes per second (PAW's and NVIDIA's convention), never
// MiB/s — the record's metric names say so.
#pragma once

#include <parbench/pattern/pattern.hpp>

#include <algorithm>
#include <barrier>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace parbench::pattern {

enum class transfer_direction {
    in,     // host -> device
    out,    // device -> host
    inout,  // host -> device, then device -> host
};

enum class host_memory {
    pinned,     // page-locked: the device's DMA engine reads it directly
    pageable,   // ordinary memory (malloc); the driver stages it through a pinned bounce buffer
    aligned,    // ordinary memory on a host_alignment boundary (PAW's Phi "al")
    unaligned,  // ordinary memory deliberately one byte off that boundary (PAW's "noal")
};

enum class device_allocation {
    persistent,    // allocated once per size, outside the timed region (PAW's "keep")
    per_transfer,  // allocated and freed inside every iteration (PAW's "alloc")
};

// The boundary of "aligned" host buffers: a cache line, which Intel's offload documentation asks
// of offloaded buffers; "unaligned" buffers start one byte after it.
inline constexpr std::size_t host_alignment = 64;

[[nodiscard]] constexpr std::string_view to_string(transfer_direction d) noexcept {
    switch (d) {
        case transfer_direction::in: return "in";
        case transfer_direction::out: return "out";
        case transfer_direction::inout: return "inout";
    }
    return "in";
}

[[nodiscard]] constexpr std::string_view to_string(host_memory m) noexcept {
    switch (m) {
        case host_memory::pinned: return "pinned";
        case host_memory::pageable: return "pageable";
        case host_memory::aligned: return "aligned";
        case host_memory::unaligned: return "unaligned";
    }
    return "pageable";
}

[[nodiscard]] constexpr std::string_view to_string(device_allocation a) noexcept {
    return a == device_allocation::persistent ? "persistent" : "per_transfer";
}

struct offload_transfer {
    using category = offload_tag;
    benchmark_class klass = benchmark_class::host_device_transfer;
    participants who = participants::host_device;
    int nmsg = 1;               // transfers per direction, device and iteration
    double time_divisor = 1.0;  // the reported time is one whole iteration
    bool rooted = false;
    transfer_direction direction = transfer_direction::in;
    host_memory memory = host_memory::pageable;
    device_allocation allocation = device_allocation::persistent;
    std::vector<int> devices{0};  // more than one: concurrent transfers, one host thread each
};

// Copies one iteration makes per device: an inout iteration crosses the link twice.
[[nodiscard]] inline int copies_per_iteration(const offload_transfer& p) noexcept {
    return p.nmsg * (p.direction == transfer_direction::inout ? 2 : 1);
}

// Bytes that cross the host-device links in one iteration, all devices together.
[[nodiscard]] inline double bytes_per_iteration(const offload_transfer& p, std::uint64_t bytes) {
    return static_cast<double>(bytes) * copies_per_iteration(p) *
           static_cast<double>(p.devices.size());
}

// The throughput rule of the pattern: bytes moved over time, in 10^9 bytes per second.
[[nodiscard]] inline double gb_per_s(const offload_transfer& p, std::uint64_t bytes,
                                     double seconds_per_iteration) {
    return seconds_per_iteration > 0.0 ? bytes_per_iteration(p, bytes) / seconds_per_iteration / 1e9
                                       : 0.0;
}

// What a backend provides. Copies are synchronous: they return when the data has arrived.
// allocate_* return nullptr or throw on failure; the pattern turns nullptr into an error.
template <class Layer>
concept device_layer = requires(Layer& layer, int device, std::size_t bytes, void* p,
                                const void* cp) {
    { layer.allocate_device(device, bytes) } -> std::same_as<void*>;
    { layer.free_device(device, p) } -> std::same_as<void>;
    { layer.allocate_pinned(bytes) } -> std::same_as<void*>;
    { layer.free_pinned(p) } -> std::same_as<void>;
    { layer.to_device(device, p, cp, bytes) } -> std::same_as<void>;
    { layer.to_host(device, p, cp, bytes) } -> std::same_as<void>;
};

// A host buffer of the requested kind, filled with a byte pattern. Owns its memory.
template <device_layer Layer>
class host_buffer {
public:
    host_buffer(Layer& layer, host_memory kind, std::size_t bytes)
        : layer_(&layer), kind_(kind), bytes_(bytes) {
        const std::size_t request = std::max<std::size_t>(bytes, 1);
        switch (kind) {
            case host_memory::pinned:
                base_ = layer.allocate_pinned(request);
                data_ = static_cast<std::byte*>(base_);
                break;
            case host_memory::pageable:
                base_ = std::malloc(request);
                data_ = static_cast<std::byte*>(base_);
                break;
            case host_memory::aligned:
            case host_memory::unaligned: {
                const std::size_t offset = kind == host_memory::unaligned ? 1 : 0;
                // aligned_alloc wants a multiple of the alignment.
                const std::size_t total =
                    (request + offset + host_alignment - 1) / host_alignment * host_alignment;
                base_ = std::aligned_alloc(host_alignment, total);
                data_ = base_ != nullptr ? static_cast<std::byte*>(base_) + offset : nullptr;
                break;
            }
        }
        if (base_ == nullptr)
            throw std::bad_alloc();
        std::memset(data_, 0x5a, bytes);
    }
    host_buffer(const host_buffer&) = delete;
    host_buffer& operator=(const host_buffer&) = delete;
    ~host_buffer() {
        if (base_ == nullptr) return;
        if (kind_ == host_memory::pinned)
            layer_->free_pinned(base_);
        else
            std::free(base_);
    }

    [[nodiscard]] std::byte* data() const noexcept { return data_; }
    [[nodiscard]] std::size_t bytes() const noexcept { return bytes_; }

private:
    Layer* layer_;
    host_memory kind_;
    std::size_t bytes_;
    void* base_ = nullptr;
    std::byte* data_ = nullptr;
};

// Device memory on one device, freed on destruction.
template <device_layer Layer>
class device_buffer {
public:
    device_buffer(Layer& layer, int device, std::size_t bytes)
        : layer_(&layer), device_(device), data_(layer.allocate_device(device, std::max<std::size_t>(bytes, 1))) {
        if (data_ == nullptr)
            throw std::runtime_error("cannot allocate " + std::to_string(bytes) +
                                     " bytes on device " + std::to_string(device));
    }
    device_buffer(const device_buffer&) = delete;
    device_buffer& operator=(const device_buffer&) = delete;
    ~device_buffer() { layer_->free_device(device_, data_); }

    [[nodiscard]] void* data() const noexcept { return data_; }

private:
    Layer* layer_;
    int device_;
    void* data_;
};

// One device's transfer at one size: the resource (host buffer, and device buffer when it is
// kept) is set up by the constructor, untimed; each call is one iteration.
template <device_layer Layer>
class transfer_workload {
public:
    transfer_workload(Layer& layer, const offload_transfer& pattern, std::uint64_t bytes,
                      int device)
        : layer_(&layer),
          direction_(pattern.direction),
          allocation_(pattern.allocation),
          device_(device),
          bytes_(static_cast<std::size_t>(bytes)),
          host_(layer, pattern.memory, static_cast<std::size_t>(bytes)) {
        if (allocation_ == device_allocation::persistent)
            kept_ = std::make_unique<device_buffer<Layer>>(layer, device, bytes_);
    }

    // One iteration. A per-transfer allocation happens inside it, as PAW's "alloc" tests time it.
    void operator()() {
        if (kept_) {
            move(kept_->data());
        } else {
            device_buffer<Layer> fresh(*layer_, device_, bytes_);
            move(fresh.data());
        }
    }

    [[nodiscard]] const host_buffer<Layer>& host() const noexcept { return host_; }

private:
    void move(void* device_data) {
        if (direction_ != transfer_direction::out)
            layer_->to_device(device_, device_data, host_.data(), bytes_);
        if (direction_ != transfer_direction::in)
            layer_->to_host(device_, host_.data(), device_data, bytes_);
    }

    Layer* layer_;
    transfer_direction direction_;
    device_allocation allocation_;
    int device_;
    std::size_t bytes_;
    host_buffer<Layer> host_;
    std::unique_ptr<device_buffer<Layer>> kept_;
};

// Several devices at once: one host thread per device, each running its own transfers (as PAW's
// dual-Phi tests do with two OpenMP threads). run(n) starts every thread on n iterations and
// returns when all have finished, so the time of a batch is the wall time of the slowest device;
// the threads are created once per size, outside the timed region.
template <device_layer Layer>
class concurrent_transfer_workload {
public:
    concurrent_transfer_workload(Layer& layer, const offload_transfer& pattern,
                                 std::uint64_t bytes)
        : start_(static_cast<std::ptrdiff_t>(pattern.devices.size() + 1)),
          finish_(static_cast<std::ptrdiff_t>(pattern.devices.size() + 1)) {
        for (const int device : pattern.devices)
            lanes_.push_back(std::make_unique<transfer_workload<Layer>>(layer, pattern, bytes, device));
        errors_.resize(lanes_.size());
        for (std::size_t i = 0; i < lanes_.size(); ++i)
            threads_.emplace_back([this, i] { lane(i); });
    }
    concurrent_transfer_workload(const concurrent_transfer_workload&) = delete;
    concurrent_transfer_workload& operator=(const concurrent_transfer_workload&) = delete;
    ~concurrent_transfer_workload() {
        batch_ = 0;
        stopping_ = true;
        start_.arrive_and_wait();
        for (auto& t : threads_) t.join();
    }

    void run(std::uint64_t iterations) {
        batch_ = iterations;
        start_.arrive_and_wait();
        finish_.arrive_and_wait();
        for (auto& e : errors_)
            if (e) std::rethrow_exception(std::exchange(e, nullptr));
    }
    void operator()() { run(1); }

    [[nodiscard]] std::size_t devices() const noexcept { return lanes_.size(); }

private:
    void lane(std::size_t index) {
        while (true) {
            start_.arrive_and_wait();
            if (stopping_) return;
            try {
                for (std::uint64_t i = 0; i < batch_; ++i) (*lanes_[index])();
            } catch (...) {
                errors_[index] = std::current_exception();
            }
            finish_.arrive_and_wait();
        }
    }

    std::vector<std::unique_ptr<transfer_workload<Layer>>> lanes_;
    std::vector<std::exception_ptr> errors_;
    std::barrier<> start_;
    std::barrier<> finish_;
    std::uint64_t batch_ = 0;  // written before start_, read after it: the barrier orders them
    bool stopping_ = false;
    std::vector<std::thread> threads_;  // last: started after everything they use exists
};

}  // namespace parbench::pattern
