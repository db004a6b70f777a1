// PAW's twelve Xeon Phi transfer tests (catalogue C.9) on OpenMP offload: their names, the
// modern aliases, and the offload_transfer pattern each one is. Pure: no OpenMP here.
//
//   phi_{alloc,keep}_{al,noal}_{in,out,inout}
//   offload_{alloc,keep}_{aligned,unaligned}_{in,out,inout}   (aliases, same tests)
//
// keep  = device memory allocated once per size, outside timing (device_allocation::persistent)
// alloc = device memory allocated and freed inside every timed transfer (per_transfer)
// al    = host buffer on a 64-byte boundary; noal = one byte past it
#pragma once

#include <parbench/core/error.hpp>
#include <parbench/core/names.hpp>
#include <parbench/pattern/offload_transfer.hpp>
#include <parbench/report/paw_transfer.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace parbench::offload {

struct transfer_test {
    const char* name;         // PAW's name, the canonical one
    const char* alias;        // the modern spelling
    const char* description;  // for `parbench list`
    pattern::transfer_direction direction;
    pattern::host_memory memory;
    pattern::device_allocation allocation;
};

using pattern::device_allocation;
using pattern::host_memory;
using pattern::transfer_direction;

inline constexpr std::array<transfer_test, 12> transfer_tests = {{
    {"phi_alloc_al_in", "offload_alloc_aligned_in",
     "host to device, aligned host buffer, device memory allocated per transfer",
     transfer_direction::in, host_memory::aligned,
     device_allocation::per_transfer},
    {"phi_alloc_al_out", "offload_alloc_aligned_out",
     "device to host, aligned host buffer, device memory allocated per transfer",
     transfer_direction::out, host_memory::aligned,
     device_allocation::per_transfer},
    {"phi_alloc_al_inout", "offload_alloc_aligned_inout",
     "host to device and back, aligned host buffer, device memory allocated per transfer",
     transfer_direction::inout, host_memory::aligned,
     device_allocation::per_transfer},
    {"phi_alloc_noal_in", "offload_alloc_unaligned_in",
     "host to device, unaligned host buffer, device memory allocated per transfer",
     transfer_direction::in, host_memory::unaligned,
     device_allocation::per_transfer},
    {"phi_alloc_noal_out", "offload_alloc_unaligned_out",
     "device to host, unaligned host buffer, device memory allocated per transfer",
     transfer_direction::out, host_memory::unaligned,
     device_allocation::per_transfer},
    {"phi_alloc_noal_inout", "offload_alloc_unaligned_inout",
     "host to device and back, unaligned host buffer, device memory allocated per transfer",
     transfer_direction::inout, host_memory::unaligned,
     device_allocation::per_transfer},
    {"phi_keep_al_in", "offload_keep_aligned_in",
     "host to device, aligned host buffer, device memory kept across transfers",
     transfer_direction::in, host_memory::aligned,
     device_allocation::persistent},
    {"phi_keep_al_out", "offload_keep_aligned_out",
     "device to host, aligned host buffer, device memory kept across transfers",
     transfer_direction::out, host_memory::aligned,
     device_allocation::persistent},
    {"phi_keep_al_inout", "offload_keep_aligned_inout",
     "host to device and back, aligned host buffer, device memory kept across transfers",
     transfer_direction::inout, host_memory::aligned,
     device_allocation::persistent},
    {"phi_keep_noal_in", "offload_keep_unaligned_in",
     "host to device, unaligned host buffer, device memory kept across transfers",
     transfer_direction::in, host_memory::unaligned,
     device_allocation::persistent},
    {"phi_keep_noal_out", "offload_keep_unaligned_out",
     "device to host, unaligned host buffer, device memory kept across transfers",
     transfer_direction::out, host_memory::unaligned,
     device_allocation::persistent},
    {"phi_keep_noal_inout", "offload_keep_unaligned_inout",
     "host to device and back, unaligned host buffer, device memory kept across transfers",
     transfer_direction::inout, host_memory::unaligned,
     device_allocation::persistent},
}};

// The test a name (canonical or alias, any case) stands for, or nullptr.
[[nodiscard]] inline const transfer_test* find_test(std::string_view name) {
    const std::string n = parbench::lowercase(name);
    for (const auto& t : transfer_tests)
        if (n == t.name || n == t.alias) return &t;
    return nullptr;
}

// The tests a request names, canonical, in the order first named, each once (an alias and its
// test name the same test). Unknown names are bad input.
[[nodiscard]] inline std::vector<const transfer_test*> resolve_tests(
    const std::vector<std::string>& names) {
    std::vector<const transfer_test*> out;
    for (const auto& name : names) {
        const transfer_test* t = find_test(name);
        if (t == nullptr)
            throw input_error("paw: '" + name + "' is not an offload test (phi_{alloc,keep}_"
                              "{al,noal}_{in,out,inout} or offload_{alloc,keep}_{aligned,"
                              "unaligned}_{in,out,inout})");
        if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
    }
    return out;
}

// The pattern one test is, on the given devices (more than one: concurrent transfers).
[[nodiscard]] inline pattern::offload_transfer pattern_of(const transfer_test& t,
                                                          std::vector<int> devices) {
    pattern::offload_transfer p;
    p.direction = t.direction;
    p.memory = t.memory;
    p.allocation = t.allocation;
    p.devices = std::move(devices);
    return p;
}

// The title of a block and PAW's file stem: the test name on device 0, "_dev<N>" on another
// single device, PAW's "_mic0+1" spelled "_dev0+1" (report::paw_device_suffix) for devices driven
// at once.
[[nodiscard]] inline std::string title_of(const transfer_test& t, const std::vector<int>& devices) {
    std::string title = t.name;
    if (devices.size() == 1) {
        if (devices.front() != 0) {
            title += "_dev";
            title += std::to_string(devices.front());
        }
        return title;
    }
    return title + report::paw_device_suffix(devices);
}

// Which devices a run measures. PAW measures one coprocessor and, when it finds more than one,
// additionally two at once (thread 0 -> mic:0, thread 1 -> mic:1). parbench: without --device,
// device 0 alone, plus devices 0 and 1 at once when two or more are present; with --device
// A[,B...] (or all), device A alone, plus all named devices at once when more than one is named.
struct device_plan {
    int single = 0;
    std::vector<int> concurrent;  // empty: no concurrent run
};

[[nodiscard]] inline device_plan plan_devices(const std::vector<int>& chosen, bool chosen_by_user,
                                              int device_count) {
    device_plan plan;
    if (chosen_by_user) {
        if (!chosen.empty()) plan.single = chosen.front();
        if (chosen.size() > 1) plan.concurrent = chosen;
    } else if (device_count >= 2) {
        plan.concurrent = {0, 1};
    }
    return plan;
}

}  // namespace parbench::offload
