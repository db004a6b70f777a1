// PAW's GPU test names (catalogue C.8) map to the right transfer pattern: the expected table is
// written here from the catalogue, not taken from the plugin.
#include "gpu_tests.hpp"

#include <parbench/pattern/compute.hpp>

#include <catch2/catch.hpp>

#include <string>

using namespace parbench;
using parbench::pattern::host_memory;
using parbench::pattern::transfer_direction;

TEST_CASE("every PAW GPU transfer test: direction and host memory as the catalogue says", "[cuda]") {
    struct row {
        const char* name;
        transfer_direction direction;
        host_memory memory;
    };
    const row catalogue[] = {
        {"gpu_in_pinned", transfer_direction::in, host_memory::pinned},
        {"gpu_inout_pinned", transfer_direction::inout, host_memory::pinned},
        {"gpu_out_pinned", transfer_direction::out, host_memory::pinned},
        {"gpu_in_nopin", transfer_direction::in, host_memory::pageable},
        {"gpu_inout_nopin", transfer_direction::inout, host_memory::pageable},
        {"gpu_out_nopin", transfer_direction::out, host_memory::pageable},
    };
    for (const auto& expected : catalogue) {
        const auto& t = cuda::find_gpu_test(expected.name);
        CHECK(t.kind == cuda::gpu_test_kind::transfer);
        const auto p = cuda::transfer_pattern(t, {0});
        CHECK(p.direction == expected.direction);
        CHECK(p.memory == expected.memory);
        CHECK(p.allocation == pattern::device_allocation::persistent);  // cudaMalloc once per size
        CHECK(p.devices == std::vector<int>{0});
    }
    CHECK(cuda::find_gpu_test("gpu_dgemm").kind == cuda::gpu_test_kind::gemm);
    CHECK(cuda::find_gpu_test("gpu_dgemm").double_precision);
    CHECK_FALSE(cuda::find_gpu_test("gpu_sgemm").double_precision);
    CHECK(std::size(cuda::gpu_tests) == 8);
}

TEST_CASE("names match case-insensitively, once each, all when none is named", "[cuda]") {
    CHECK(std::string(cuda::find_gpu_test("GPU_In_Pinned").name) == "gpu_in_pinned");
    const auto some = cuda::select_gpu_tests({"gpu_sgemm", "gpu_in_nopin", "GPU_SGEMM"});
    REQUIRE(some.size() == 2);
    CHECK(std::string(some[0]->name) == "gpu_sgemm");
    CHECK(cuda::select_gpu_tests({}).size() == 8);
    CHECK_THROWS_WITH(cuda::find_gpu_test("gpu_in_pinnned"),
                      Catch::StartsWith("paw: unknown GPU test 'gpu_in_pinnned'; available: gpu_in_pinned"));
}

TEST_CASE("the GEMM flop counts are PAW's and the conventional ones", "[cuda]") {
    // N = 10: PAW 2 N^2 (N + 1) = 2200, conventional 2 N^3 = 2000
    CHECK(pattern::gemm_work(10).flops_paw == 2200.0);
    CHECK(pattern::gemm_work(10).flops_conventional == 2000.0);
}
