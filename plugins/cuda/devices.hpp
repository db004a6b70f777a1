// What the CUDA plugin knows about the machine's GPUs: the runtime's device count (or why there is
// none), each device's name, compute capability, SMs, memory and clocks, and the PCIe link where
// the driver's management library (NVML, opened at run time: it ships with the driver, not the
// toolkit) reports it. Also the FP64/FP32 peak where the architecture's per-SM rate is known.
#pragma once

#include "cuda_error.hpp"

#include <parbench/report/paw_context.hpp>

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace parbench::cuda {

struct device_info {
    int id = 0;
    std::string name;
    int cc_major = 0;
    int cc_minor = 0;
    int sms = 0;
    double memory_gib = 0.0;
    double sm_clock_mhz = 0.0;      // peak SM clock
    double memory_clock_mhz = 0.0;  // peak memory clock
    int memory_bus_bits = 0;
    std::string pci_bus_id;
    std::optional<int> pcie_generation;  // current link, from NVML
    std::optional<int> pcie_width;
    std::optional<double> peak_fp64_gflops;
    std::optional<double> peak_fp32_gflops;
    std::string peak_basis;

    [[nodiscard]] std::string summary() const {
        std::string s = fmt::format("{} (compute capability {}.{}, {} SMs, {:.1f} GiB, SM clock {:.0f} MHz",
                                    name, cc_major, cc_minor, sms, memory_gib, sm_clock_mhz);
        if (pcie_generation && pcie_width)
            s += fmt::format(", PCIe gen {} x{}", *pcie_generation, *pcie_width);
        return s + ")";
    }
};

// FLOP per SM per clock, dense, from NVIDIA's architecture white papers: cuBLAS DGEMM runs on
// the FP64 tensor cores where they exist, SGEMM (default math mode) on the FP32 cores.
struct sm_rate {
    int cc_major;
    int cc_minor;
    double fp64;
    double fp32;
    const char* basis;
};
inline constexpr sm_rate known_sm_rates[] = {
    {8, 0, 128.0, 128.0, "A100 (sm_80): 64 FP64 tensor-core FMA and 64 FP32 FMA per SM per clock"},
    {9, 0, 256.0, 256.0, "H100/H200 (sm_90): 128 FP64 tensor-core FMA and 128 FP32 FMA per SM per clock"},
};

namespace nvml {

// The few NVML entry points used, declared from NVML's public API reference.
using init_fn = int (*)();
using handle_by_bus_fn = int (*)(const char*, void**);
using link_fn = int (*)(void*, unsigned int*);

struct library {
    void* handle = nullptr;
    handle_by_bus_fn by_bus = nullptr;
    link_fn generation = nullptr;
    link_fn width = nullptr;

    library() {
        handle = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
        if (handle == nullptr) return;
        const auto init = reinterpret_cast<init_fn>(dlsym(handle, "nvmlInit_v2"));
        by_bus = reinterpret_cast<handle_by_bus_fn>(dlsym(handle, "nvmlDeviceGetHandleByPciBusId_v2"));
        generation = reinterpret_cast<link_fn>(dlsym(handle, "nvmlDeviceGetCurrPcieLinkGeneration"));
        width = reinterpret_cast<link_fn>(dlsym(handle, "nvmlDeviceGetCurrPcieLinkWidth"));
        if (init == nullptr || init() != 0) by_bus = nullptr;
    }
    library(const library&) = delete;
    library& operator=(const library&) = delete;
    ~library() {
        if (handle == nullptr) return;
        if (const auto shutdown = reinterpret_cast<init_fn>(dlsym(handle, "nvmlShutdown")))
            (void)shutdown();
        dlclose(handle);
    }
};

}  // namespace nvml

// The devices present, or the runtime's reason why there are none.
struct device_census {
    std::vector<device_info> devices;
    std::string no_device_reason;  // empty when devices were found
    int runtime_version = 0;
    int driver_version = 0;
};

[[nodiscard]] inline device_census take_census() {
    device_census c;
    (void)cudaRuntimeGetVersion(&c.runtime_version);
    (void)cudaDriverGetVersion(&c.driver_version);
    int count = 0;
    if (const cudaError_t status = cudaGetDeviceCount(&count); status != cudaSuccess) {
        c.no_device_reason = cudaGetErrorString(status);
        (void)cudaGetLastError();  // the error is sticky for the next call otherwise
        return c;
    }
    if (count == 0) {
        c.no_device_reason = "the CUDA runtime reports 0 devices";
        return c;
    }
    const nvml::library management;
    for (int d = 0; d < count; ++d) {
        device_info info;
        info.id = d;
        cudaDeviceProp prop{};
        check(cudaGetDeviceProperties(&prop, d), "cudaGetDeviceProperties");
        info.name = prop.name;
        info.cc_major = prop.major;
        info.cc_minor = prop.minor;
        info.sms = prop.multiProcessorCount;
        info.memory_gib = static_cast<double>(prop.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0);
        info.memory_bus_bits = prop.memoryBusWidth;
        int khz = 0;
        if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, d) == cudaSuccess)
            info.sm_clock_mhz = khz / 1000.0;
        if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, d) == cudaSuccess)
            info.memory_clock_mhz = khz / 1000.0;
        char bus[32] = {};
        if (cudaDeviceGetPCIBusId(bus, sizeof bus, d) == cudaSuccess) info.pci_bus_id = bus;
        if (management.by_bus != nullptr && !info.pci_bus_id.empty()) {
            void* handle = nullptr;
            unsigned int value = 0;
            if (management.by_bus(info.pci_bus_id.c_str(), &handle) == 0) {
                if (management.generation != nullptr && management.generation(handle, &value) == 0)
                    info.pcie_generation = static_cast<int>(value);
                if (management.width != nullptr && management.width(handle, &value) == 0)
                    info.pcie_width = static_cast<int>(value);
            }
        }
        for (const auto& rate : known_sm_rates)
            if (rate.cc_major == info.cc_major && rate.cc_minor == info.cc_minor &&
                info.sm_clock_mhz > 0.0) {
                const double per_clock = info.sms * info.sm_clock_mhz * 1e-3;  // G clock-SMs
                info.peak_fp64_gflops = rate.fp64 * per_clock;
                info.peak_fp32_gflops = rate.fp32 * per_clock;
                info.peak_basis = fmt::format("{} x {} SMs x {:.0f} MHz peak clock", rate.basis,
                                              info.sms, info.sm_clock_mhz);
            }
        if (info.peak_basis.empty())
            info.peak_basis = fmt::format("unknown for compute capability {}.{}", info.cc_major,
                                          info.cc_minor);
        c.devices.push_back(std::move(info));
    }
    return c;
}

// A device as the PAW run context records it (report/paw_context.hpp): the console's line and,
// for the JSON file, its properties (null where unknown).
[[nodiscard]] inline report::paw_context_device context_device(const device_info& d) {
    const auto optional = [](const auto& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
    return {.id = d.id,
            .summary = d.summary(),
            .recorded = {{"name", d.name},
                         {"compute_capability", fmt::format("{}.{}", d.cc_major, d.cc_minor)},
                         {"sms", d.sms},
                         {"memory_gib", d.memory_gib},
                         {"sm_clock_mhz", d.sm_clock_mhz},
                         {"memory_clock_mhz", d.memory_clock_mhz},
                         {"memory_bus_bits", d.memory_bus_bits},
                         {"pci_bus_id", d.pci_bus_id},
                         {"pcie_generation", optional(d.pcie_generation)},
                         {"pcie_width", optional(d.pcie_width)},
                         {"peak_fp64_gflops", optional(d.peak_fp64_gflops)},
                         {"peak_fp32_gflops", optional(d.peak_fp32_gflops)},
                         {"peak_basis", d.peak_basis}}};
}

[[nodiscard]] inline std::string version_text(int v) {
    return fmt::format("{}.{}", v / 1000, (v % 1000) / 10);
}

}  // namespace parbench::cuda
