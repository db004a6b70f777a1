// The OpenMP device layer on the real offload devices (libomptarget's x86_64 devices here): data
// written on the host arrives on the device and back, observed through target regions (a second
// route, not the copy under test); the checks the plugin makes before reporting; and, through a
// layer that wraps the real one and counts, that the plugin's sweep allocates per transfer for
// the "alloc" tests, once per size for "keep", uses the right host alignment and drives both
// devices in the concurrent form. The layer is opened as the plugin opens it (omp_functions.hpp),
// from the built file.
#include "catalogue.hpp"
#include "omp_device_layer.hpp"
#include "omp_functions.hpp"
#include "transfer_sweep.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <vector>

using namespace parbench;
using offload::omp_device_layer;

namespace {

const offload::omp_functions& omp() {
    static const offload::omp_functions functions =
        offload::functions_of(plugin::companion_library(PARBENCH_OMP_LAYER_FILE));
    return functions;
}

int devices_present() {
    const int n = omp().num_devices();
    INFO("omp_get_num_devices() = " << n << " (an offload device is needed for these tests)");
    REQUIRE(n >= 1);
    return n;
}

// The real layer, counting what the pattern asks of it.
struct counting_layer {
    omp_device_layer real{omp()};
    std::mutex lock;
    std::uint64_t allocations = 0;
    std::uint64_t frees = 0;
    std::map<int, std::uint64_t> copies_by_device;
    std::uint64_t copies = 0;
    std::set<std::uintptr_t> host_offsets;  // host address modulo the alignment, per copy
    std::set<void*> live;

    void* allocate_device(int device, std::size_t bytes) {
        void* p = real.allocate_device(device, bytes);
        std::lock_guard g(lock);
        ++allocations;
        live.insert(p);
        return p;
    }
    void free_device(int device, void* p) {
        {
            std::lock_guard g(lock);
            ++frees;
            live.erase(p);
        }
        real.free_device(device, p);
    }
    void* allocate_pinned(std::size_t bytes) { return real.allocate_pinned(bytes); }
    void free_pinned(void* p) { real.free_pinned(p); }
    void count(int device, const void* host) {
        std::lock_guard g(lock);
        ++copies;
        ++copies_by_device[device];
        host_offsets.insert(reinterpret_cast<std::uintptr_t>(host) % pattern::host_alignment);
    }
    void to_device(int device, void* d, const void* h, std::size_t bytes) {
        count(device, h);
        real.to_device(device, d, h, bytes);
    }
    void to_host(int device, void* h, const void* d, std::size_t bytes) {
        count(device, h);
        real.to_host(device, h, d, bytes);
    }
};
static_assert(pattern::device_layer<counting_layer>);

paw::transfer_settings small_settings() {
    paw::transfer_settings cfg;
    cfg.sizes = {256, 4096};
    cfg.min_bytes = 256;
    cfg.med_bytes = 256;
    cfg.max_bytes = 4096;
    cfg.policy.nreps = 3;
    cfg.policy.nloop_max = 5;
    cfg.policy.min_loop_s = 0.0;
    return cfg;
}

}  // namespace

TEST_CASE("data written on the host arrives on the device and comes back", "[offload][layer]") {
    devices_present();
    omp_device_layer layer(omp());
    constexpr std::size_t n = 4096 + 1;  // an odd size, at an odd host address below
    for (const auto memory : {pattern::host_memory::aligned, pattern::host_memory::unaligned}) {
        pattern::host_buffer<omp_device_layer> host(layer, memory, n);
        pattern::device_buffer<omp_device_layer> dev(layer, 0, n);
        REQUIRE(dev.data() != static_cast<void*>(host.data()));
        for (std::size_t i = 0; i < n; ++i) host.data()[i] = static_cast<std::byte>(i * 7 + 3);
        layer.to_device(0, dev.data(), host.data(), n);
        std::memset(host.data(), 0, n);  // the device keeps its own copy

        std::vector<unsigned char> seen(n, 0);
        int on_host = -1;
        REQUIRE(omp().read(0, dev.data(), seen.data(), n, &on_host) == 0);
        CHECK(on_host == 0);  // the target region ran on the offload device
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < n; ++i)
            if (seen[i] != static_cast<unsigned char>(i * 7 + 3)) ++wrong;
        CHECK(wrong == 0);

        REQUIRE(omp().fill(0, dev.data(), 0xc3, n, &on_host) == 0);
        CHECK(on_host == 0);
        CHECK(host.data()[0] == std::byte{0});  // not before the copy back
        layer.to_host(0, host.data(), dev.data(), n);
        wrong = 0;
        for (std::size_t i = 0; i < n; ++i)
            if (host.data()[i] != std::byte{0xc3}) ++wrong;
        CHECK(wrong == 0);
    }
}

TEST_CASE("aligned host buffers sit on 64 bytes, unaligned ones one byte past", "[offload][layer]") {
    omp_device_layer layer(omp());
    pattern::host_buffer<omp_device_layer> al(layer, pattern::host_memory::aligned, 1000);
    pattern::host_buffer<omp_device_layer> noal(layer, pattern::host_memory::unaligned, 1000);
    CHECK(reinterpret_cast<std::uintptr_t>(al.data()) % 64 == 0);
    CHECK(reinterpret_cast<std::uintptr_t>(noal.data()) % 64 == 1);
}

TEST_CASE("every device the plugin would measure passes the offload checks; the host does not",
          "[offload][layer]") {
    const int n = devices_present();
    const auto census = offload::take_census(omp());
    CHECK(census.count == n);
    CHECK(census.initial_device == omp().initial_device());
    for (int d = 0; d < n; ++d) CHECK_NOTHROW(offload::verify_offload_device(omp(), census, d));
    CHECK_THROWS_WITH(offload::verify_offload_device(omp(), census, census.initial_device),
                      Catch::Contains("initial device"));
    CHECK(offload::no_device_reason(census, nullptr).empty());
    auto none = census;
    none.count = 0;
    CHECK_THAT(offload::no_device_reason(none, "disabled"),
               Catch::Contains("no OpenMP offload device") &&
                   Catch::Contains("OMP_TARGET_OFFLOAD=disabled"));
}

TEST_CASE("per-transfer allocation allocates in every iteration, keep once per size",
          "[offload][alloc]") {
    devices_present();
    counting_layer layer;
    SECTION("the workload itself") {
        for (const auto alloc : {pattern::device_allocation::per_transfer,
                                 pattern::device_allocation::persistent}) {
            counting_layer l;
            pattern::offload_transfer p;
            p.allocation = alloc;
            {
                pattern::transfer_workload<counting_layer> w(l, p, 512, 0);
                for (int i = 0; i < 7; ++i) w();
            }
            CHECK(l.allocations == (alloc == pattern::device_allocation::per_transfer ? 7u : 1u));
            CHECK(l.frees == l.allocations);
            CHECK(l.copies == 7u);
        }
    }
    SECTION("the plugin's sweep") {
        const auto cfg = small_settings();
        std::vector<result_record> records;
        offload::sweep_hooks hooks;
        hooks.on_record = [&](const result_record& r) { records.push_back(r); };
        for (const auto& test : offload::transfer_tests) {
            // What the test must do, read from PAW's name, not from the plugin's table.
            const std::string name = test.name;
            const bool per_transfer = name.find("_alloc_") != std::string::npos;
            const bool unaligned = name.find("_noal_") != std::string::npos;
            const bool inout = name.ends_with("_inout");
            counting_layer l;
            records.clear();
            offload::run_transfer_test(l, test, {0}, cfg, 1e-7, true, hooks);
            INFO(name);
            REQUIRE(records.size() == cfg.sizes.size());
            const std::uint64_t per_iteration = inout ? 2 : 1;
            REQUIRE(l.copies % per_iteration == 0);
            const std::uint64_t iterations = l.copies / per_iteration;
            // timed iterations alone: NREPS x NLOOP per size
            std::uint64_t timed = 0;
            for (const auto& r : records) timed += r.iterations * 3;
            CHECK(iterations > timed);  // plus warm-ups and the calibration
            if (per_transfer) {
                CHECK(l.allocations == iterations);
            } else {
                // warm-up size, calibration, one workload per size
                CHECK(l.allocations <= cfg.sizes.size() + 2);
                CHECK(l.allocations < iterations);
            }
            CHECK(l.frees == l.allocations);
            CHECK(l.live.empty());
            CHECK(l.host_offsets == std::set<std::uintptr_t>{unaligned ? 1u : 0u});
            CHECK(l.copies_by_device.size() == 1);
            CHECK(l.copies_by_device.count(0) == 1);
            for (const auto& r : records)
                CHECK(r.repetitions.value().bytes_per_iteration ==
                      static_cast<double>(per_iteration * r.bytes));
        }
    }
}

TEST_CASE("the concurrent form drives both devices, titled _dev0+1", "[offload][concurrent]") {
    const int n = devices_present();
    if (n < 2) {
        WARN("one offload device only: the concurrent form is not exercised");
        return;
    }
    counting_layer l;
    std::vector<result_record> records;
    offload::sweep_hooks hooks;
    hooks.on_record = [&](const result_record& r) { records.push_back(r); };
    offload::run_transfer_test(l, *offload::find_test("phi_keep_al_inout"), {0, 1},
                               small_settings(), 1e-7, true, hooks);
    REQUIRE(records.size() == 2);
    for (const auto& r : records) {
        CHECK(r.block.title == "phi_keep_al_inout_dev0+1");
        CHECK(r.benchmark == "phi_keep_al_inout");
        CHECK(r.repetitions.value().devices == 2u);
        CHECK(r.repetitions.value().bytes_per_iteration ==
              2.0 * 2.0 * static_cast<double>(r.bytes));
    }
    REQUIRE(l.copies_by_device.size() == 2);
    CHECK(l.copies_by_device[0] == l.copies_by_device[1]);
    CHECK(l.copies_by_device[0] > 0);
}

TEST_CASE("catalogue: PAW's twelve names, aliases, titles, device plans", "[offload][catalogue]") {
    std::set<std::string> names;
    for (const auto& t : offload::transfer_tests) names.insert(t.name);
    CHECK(names.size() == 12);
    for (const char* keep : {"alloc", "keep"})
        for (const char* al : {"al", "noal"})
            for (const char* dir : {"in", "out", "inout"})
                CHECK(names.count(std::string("phi_") + keep + "_" + al + "_" + dir) == 1);

    const auto* t = offload::find_test("OFFLOAD_Alloc_Unaligned_InOut");
    REQUIRE(t != nullptr);
    CHECK(std::string(t->name) == "phi_alloc_noal_inout");
    CHECK(t->allocation == pattern::device_allocation::per_transfer);
    CHECK(t->memory == pattern::host_memory::unaligned);
    CHECK(t->direction == pattern::transfer_direction::inout);
    const auto* k = offload::find_test("offload_keep_aligned_in");
    REQUIRE(k != nullptr);
    CHECK(std::string(k->name) == "phi_keep_al_in");
    CHECK(k->allocation == pattern::device_allocation::persistent);
    CHECK(k->memory == pattern::host_memory::aligned);
    CHECK(k->direction == pattern::transfer_direction::in);
    // an alias and its test are one test
    CHECK(offload::resolve_tests({"phi_keep_al_in", "offload_keep_aligned_in"}).size() == 1);
    CHECK_THROWS_AS(offload::resolve_tests({"phi_keep_al_sideways"}), input_error);

    CHECK(offload::title_of(*k, {0}) == "phi_keep_al_in");
    CHECK(offload::title_of(*k, {2}) == "phi_keep_al_in_dev2");
    CHECK(offload::title_of(*k, {0, 1}) == "phi_keep_al_in_dev0+1");

    const auto by_default = offload::plan_devices({0}, false, 4);
    CHECK(by_default.single == 0);
    CHECK(by_default.concurrent == std::vector<int>{0, 1});
    CHECK(offload::plan_devices({0}, false, 1).concurrent.empty());
    const auto named = offload::plan_devices({2, 3}, true, 4);
    CHECK(named.single == 2);
    CHECK(named.concurrent == std::vector<int>{2, 3});
    CHECK(offload::plan_devices({1}, true, 4).concurrent.empty());
}
