// PAW's GPU tests (catalogue C.8) as data: what each name measures. Pure and free of CUDA, so the
// table and the mapping to patterns are unit-tested on machines without the toolkit.
#pragma once

#include <parbench/core/error.hpp>
#include <parbench/core/names.hpp>
#include <parbench/pattern/offload_transfer.hpp>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace parbench::cuda {

enum class gpu_test_kind { transfer, gemm };

struct gpu_test {
    const char* name;
    gpu_test_kind kind;
    pattern::transfer_direction direction;  // transfers
    pattern::host_memory memory;            // transfers
    bool double_precision;                  // GEMM
    const char* description;
};

using pattern::host_memory;
using pattern::transfer_direction;

inline constexpr gpu_test gpu_tests[] = {
    {"gpu_in_pinned", gpu_test_kind::transfer, transfer_direction::in, host_memory::pinned, false,
     "host to device, page-locked host memory (cudaMallocHost), cudaMemcpy"},
    {"gpu_out_pinned", gpu_test_kind::transfer, transfer_direction::out, host_memory::pinned, false,
     "device to host, page-locked host memory, cudaMemcpy"},
    {"gpu_inout_pinned", gpu_test_kind::transfer, transfer_direction::inout, host_memory::pinned,
     false, "host to device and back, page-locked host memory, cudaMemcpy"},
    {"gpu_in_nopin", gpu_test_kind::transfer, transfer_direction::in, host_memory::pageable, false,
     "host to device, pageable host memory (malloc), cudaMemcpy"},
    {"gpu_out_nopin", gpu_test_kind::transfer, transfer_direction::out, host_memory::pageable,
     false, "device to host, pageable host memory, cudaMemcpy"},
    {"gpu_inout_nopin", gpu_test_kind::transfer, transfer_direction::inout, host_memory::pageable,
     false, "host to device and back, pageable host memory, cudaMemcpy"},
    {"gpu_dgemm", gpu_test_kind::gemm, transfer_direction::in, host_memory::pageable, true,
     "cuBLAS DGEMM C = A B (N x N); only the GEMM is timed; 2N^2(N+1) flops as PAW"},
    {"gpu_sgemm", gpu_test_kind::gemm, transfer_direction::in, host_memory::pageable, false,
     "cuBLAS SGEMM C = A B (N x N); only the GEMM is timed; 2N^2(N+1) flops as PAW"},
};

[[nodiscard]] inline const gpu_test& find_gpu_test(std::string_view name) {
    for (const auto& t : gpu_tests)
        if (same_name(t.name, name)) return t;
    std::string known;
    for (const auto& t : gpu_tests) known += (known.empty() ? "" : ", ") + std::string(t.name);
    throw input_error("paw: unknown GPU test '" + std::string(name) + "'; available: " + known);
}

// The tests a request names, in the order given, each once; all of them when none is named.
[[nodiscard]] inline std::vector<const gpu_test*> select_gpu_tests(
    const std::vector<std::string>& names) {
    std::vector<const gpu_test*> out;
    if (names.empty()) {
        for (const auto& t : gpu_tests) out.push_back(&t);
        return out;
    }
    for (const auto& n : names) {
        const gpu_test* t = &find_gpu_test(n);
        if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
    }
    return out;
}

[[nodiscard]] inline pattern::offload_transfer transfer_pattern(const gpu_test& t,
                                                                std::vector<int> devices) {
    return {.direction = t.direction,
            .memory = t.memory,
            .allocation = pattern::device_allocation::persistent,
            .devices = std::move(devices)};
}

}  // namespace parbench::cuda
