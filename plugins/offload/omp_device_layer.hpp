// The OpenMP offload device layer: pattern/offload_transfer.hpp's device_layer concept on
// omp_target_alloc / omp_target_free / omp_target_memcpy (omp_layer.h, built by the offload
// compiler, reached through the table of omp_functions.hpp), plus what the plugin checks before it reports anything as a device figure: that the
// device is an offload device and not the host, and that a copy really moves data between two
// separate memories.
#pragma once

#include "omp_functions.hpp"

#include <parbench/pattern/offload_transfer.hpp>

#include <array>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>

namespace parbench::offload {

class omp_device_layer {
public:
    explicit omp_device_layer(const omp_functions& omp) noexcept : omp_(&omp) {}

    [[nodiscard]] void* allocate_device(int device, std::size_t bytes) {
        return omp_->alloc(device, bytes);
    }
    void free_device(int device, void* p) { omp_->free(device, p); }

    // Page-locked host memory is a GPU notion; PAW's Phi tests use aligned and unaligned
    // ordinary memory, and OpenMP has no portable way to pin. Never called by this plugin.
    [[nodiscard]] void* allocate_pinned(std::size_t) {
        throw std::logic_error("offload: pinned host memory is not offered by the OpenMP layer");
    }
    void free_pinned(void*) {}

    void to_device(int device, void* device_dst, const void* host_src, std::size_t bytes) {
        if (omp_->to_device(device, device_dst, host_src, bytes) != 0)
            throw std::runtime_error("omp_target_memcpy to device " + std::to_string(device) +
                                     " failed (" + std::to_string(bytes) + " bytes)");
    }
    void to_host(int device, void* host_dst, const void* device_src, std::size_t bytes) {
        if (omp_->to_host(device, host_dst, device_src, bytes) != 0)
            throw std::runtime_error("omp_target_memcpy from device " + std::to_string(device) +
                                     " failed (" + std::to_string(bytes) + " bytes)");
    }

private:
    const omp_functions* omp_;
};

static_assert(pattern::device_layer<omp_device_layer>);

// The devices the OpenMP runtime offers, as the plugin reports them.
struct device_census {
    int count = 0;           // omp_get_num_devices()
    int initial_device = 0;  // omp_get_initial_device(): the host
    std::string targets;     // the offload triples the layer was built for
};

[[nodiscard]] inline device_census take_census(const omp_functions& omp) {
    return {omp.num_devices(), omp.initial_device(), omp.targets()};
}

// Why there is no offload device to measure, in one line; empty when there is one.
[[nodiscard]] inline std::string no_device_reason(const device_census& c,
                                                  const char* omp_target_offload) {
    if (c.count > 0) return {};
    std::string why = "no OpenMP offload device: omp_get_num_devices() is 0";
    const std::string policy = omp_target_offload != nullptr ? omp_target_offload : "";
    if (!policy.empty() && (policy == "disabled" || policy == "DISABLED"))
        why += " because OMP_TARGET_OFFLOAD=" + policy + " turns offloading off";
    else
        why += " (libomptarget found no device for the offload target " + c.targets +
               " this plugin was built for; LIBOMPTARGET_INFO=-1 shows what it tried)";
    return why + "; a transfer to the initial device (the host) is a host memcpy and is not "
                 "reported as a device figure";
}

// Before a device's figures are reported: the device is not the initial device (the host), a
// target region on it does not run on the host, and its memory is separate storage — data
// copied in stays there when the host buffer changes, data written by the device arrives only by
// a copy back. Throws std::runtime_error naming what failed.
inline void verify_offload_device(const omp_functions& omp, const device_census& c, int device) {
    const std::string dev = "device " + std::to_string(device);
    if (device == c.initial_device || device < 0 || device >= c.count)
        throw std::runtime_error(dev + " is the initial device (the host) or not an offload "
                                       "device (" + std::to_string(c.count) +
                                 " offload devices, initial device " +
                                 std::to_string(c.initial_device) +
                                 "): a transfer there is not reported as a device figure");
    constexpr std::size_t n = 64;
    std::array<unsigned char, n> host{};
    std::array<unsigned char, n> seen{};
    void* d = omp.alloc(device, n);
    if (d == nullptr) throw std::runtime_error("omp_target_alloc failed on " + dev);
    struct release {
        decltype(omp.free) free;
        int device;
        void* p;
        ~release() { free(device, p); }
    } guard{omp.free, device, d};
    if (d == static_cast<void*>(host.data()))
        throw std::runtime_error(dev + ": omp_target_alloc returned the host buffer's address");
    if (omp.is_present(device, host.data()) != 0)
        throw std::runtime_error(dev + " shares host memory (omp_target_is_present is true for "
                                       "an unmapped host buffer): copies would not move data");
    host.fill(0xa5);
    if (omp.to_device(device, d, host.data(), n) != 0)
        throw std::runtime_error("omp_target_memcpy to " + dev + " failed");
    host.fill(0x3c);  // the device's copy must not follow the host buffer
    int on_host = -1;
    if (omp.read(device, d, seen.data(), n, &on_host) != 0 || on_host != 0)
        throw std::runtime_error("a target region on " + dev +
                                 " ran on the host (omp_is_initial_device() is true): "
                                 "offloading fell back to the host");
    for (const unsigned char b : seen)
        if (b != 0xa5)
            throw std::runtime_error(dev + ": data copied to the device did not arrive intact");
    if (omp.fill(device, d, 0x7e, n, &on_host) != 0 || on_host != 0)
        throw std::runtime_error("a target region on " + dev + " ran on the host");
    for (const unsigned char b : host)
        if (b != 0x3c)
            throw std::runtime_error(dev + ": a write on the device changed the host buffer "
                                           "(the memories are not separate)");
    if (omp.to_host(device, host.data(), d, n) != 0)
        throw std::runtime_error("omp_target_memcpy from " + dev + " failed");
    for (const unsigned char b : host)
        if (b != 0x7e)
            throw std::runtime_error(dev + ": data written on the device did not come back");
}

}  // namespace parbench::offload
