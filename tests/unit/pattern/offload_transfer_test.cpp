// The offload_transfer pattern against a fake device layer whose "device" memory is a separate
// heap: what one iteration copies, in which order, how often device memory is allocated, how the
// host buffer is aligned, concurrent lanes, and the throughput rule (hand-computed answers).
// A fake tests the pattern's logic only; no figure from it is ever reported.
#include <parbench/pattern/compute.hpp>
#include <parbench/pattern/offload_transfer.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

// A namespace of the file's own: the test program is a unity build (tests/unit/meson.build), and
// its using-directives must not reach the files compiled after it.
namespace offload_transfer_test {

using namespace parbench::pattern;

namespace {

struct fake_layer {
    std::mutex lock;
    std::vector<std::string> log;  // "alloc 0", "in 0 100", "out 0 100", "free 0"
    std::map<int, int> copies;     // per device
    int pinned_allocations = 0;
    int fail_on_device = -1;
    std::vector<unsigned char> last_arrived;  // bytes that reached a device last

    void note(std::string s) {
        std::lock_guard g(lock);
        log.push_back(std::move(s));
    }
    void* allocate_device(int device, std::size_t bytes) {
        note("alloc " + std::to_string(device));
        return std::malloc(bytes);
    }
    void free_device(int device, void* p) {
        note("free " + std::to_string(device));
        std::free(p);
    }
    void* allocate_pinned(std::size_t bytes) {
        ++pinned_allocations;
        return std::malloc(bytes);
    }
    void free_pinned(void* p) { std::free(p); }
    void to_device(int device, void* dst, const void* src, std::size_t bytes) {
        if (device == fail_on_device) throw std::runtime_error("device " + std::to_string(device) + " failed");
        std::memcpy(dst, src, bytes);
        {
            std::lock_guard g(lock);
            ++copies[device];
            last_arrived.assign(static_cast<const unsigned char*>(dst),
                                static_cast<const unsigned char*>(dst) + bytes);
        }
        note("in " + std::to_string(device) + " " + std::to_string(bytes));
    }
    void to_host(int device, void* dst, const void* src, std::size_t bytes) {
        std::memcpy(dst, src, bytes);
        {
            std::lock_guard g(lock);
            ++copies[device];
        }
        note("out " + std::to_string(device) + " " + std::to_string(bytes));
    }
};

static_assert(device_layer<fake_layer>);
static_assert(descriptor<offload_transfer>);

}  // namespace

TEST_CASE("one iteration copies in the pattern's direction, in order", "[offload_transfer]") {
    fake_layer layer;
    SECTION("in") {
        transfer_workload<fake_layer> w(layer, {.direction = transfer_direction::in}, 100, 0);
        layer.log.clear();
        w();
        CHECK(layer.log == std::vector<std::string>{"in 0 100"});
        // the host's bytes arrived (the host buffer is filled with 0x5a)
        CHECK(layer.last_arrived == std::vector<unsigned char>(100, 0x5a));
    }
    SECTION("out") {
        transfer_workload<fake_layer> w(layer, {.direction = transfer_direction::out}, 100, 0);
        layer.log.clear();
        w();
        CHECK(layer.log == std::vector<std::string>{"out 0 100"});
    }
    SECTION("inout") {
        transfer_workload<fake_layer> w(layer, {.direction = transfer_direction::inout}, 100, 0);
        layer.log.clear();
        w();
        w();
        CHECK(layer.log == std::vector<std::string>{"in 0 100", "out 0 100", "in 0 100", "out 0 100"});
    }
}

TEST_CASE("device memory: kept across iterations or allocated in each", "[offload_transfer]") {
    fake_layer layer;
    SECTION("persistent: one allocation at setup, none while timing") {
        {
            transfer_workload<fake_layer> w(layer, {.allocation = device_allocation::persistent}, 64, 2);
            CHECK(layer.log == std::vector<std::string>{"alloc 2"});
            layer.log.clear();
            for (int i = 0; i < 3; ++i) w();
            CHECK(layer.log == std::vector<std::string>{"in 2 64", "in 2 64", "in 2 64"});
            layer.log.clear();
        }
        CHECK(layer.log == std::vector<std::string>{"free 2"});
    }
    SECTION("per transfer: allocate, copy, free inside every iteration") {
        transfer_workload<fake_layer> w(layer, {.allocation = device_allocation::per_transfer}, 64, 1);
        CHECK(layer.log.empty());
        w();
        w();
        CHECK(layer.log == std::vector<std::string>{"alloc 1", "in 1 64", "free 1", "alloc 1",
                                                    "in 1 64", "free 1"});
    }
}

TEST_CASE("host memory kinds", "[offload_transfer]") {
    fake_layer layer;
    const auto address = [](const std::byte* p) { return reinterpret_cast<std::uintptr_t>(p); };
    host_buffer<fake_layer> aligned(layer, host_memory::aligned, 1000);
    host_buffer<fake_layer> unaligned(layer, host_memory::unaligned, 1000);
    CHECK(address(aligned.data()) % 64 == 0);
    CHECK(address(unaligned.data()) % 64 == 1);
    CHECK(layer.pinned_allocations == 0);
    host_buffer<fake_layer> pinned(layer, host_memory::pinned, 1000);
    CHECK(layer.pinned_allocations == 1);  // page-locked memory is the backend's to give
    host_buffer<fake_layer> empty(layer, host_memory::pageable, 0);  // a 0-byte test size
    CHECK(empty.data() != nullptr);
}

TEST_CASE("concurrent lanes: every device runs the whole batch", "[offload_transfer]") {
    fake_layer layer;
    const offload_transfer p{.direction = transfer_direction::inout, .devices = {0, 1, 3}};
    {
        concurrent_transfer_workload<fake_layer> w(layer, p, 256);
        CHECK(w.devices() == 3);
        w.run(5);
        w.run(2);
        run_calls(w, 4);  // the sweep hands the whole batch to run()
    }
    // 11 iterations of inout: 22 copies on each device, none on device 2
    CHECK(layer.copies == std::map<int, int>{{0, 22}, {1, 22}, {3, 22}});

    SECTION("a failing lane's error reaches the caller, and the lanes still shut down") {
        fake_layer failing;
        failing.fail_on_device = 1;
        concurrent_transfer_workload<fake_layer> w(failing, {.devices = {0, 1}}, 8);
        CHECK_THROWS_WITH(w.run(3), "device 1 failed");
        w.run(0);  // usable again afterwards
    }
}

TEST_CASE("throughput rule: bytes moved over time in 10^9 bytes per second", "[offload_transfer]") {
    // 2.5e8 bytes in 0.1 s = 2.5 GB/s one way; inout moves it twice; two devices twice again.
    CHECK(gb_per_s({.direction = transfer_direction::in}, 250000000, 0.1) == Approx(2.5));
    CHECK(gb_per_s({.direction = transfer_direction::out}, 250000000, 0.1) == Approx(2.5));
    CHECK(gb_per_s({.direction = transfer_direction::inout}, 250000000, 0.1) == Approx(5.0));
    CHECK(gb_per_s({.direction = transfer_direction::inout, .devices = {0, 1}}, 250000000, 0.1) ==
          Approx(10.0));
    CHECK(bytes_per_iteration({.direction = transfer_direction::inout, .devices = {0, 1}}, 1000) ==
          4000.0);
    CHECK(gb_per_s({}, 1000, 0.0) == 0.0);  // nothing measured is no rate, not infinity
}

namespace {
// A workload that reports its own time for a batch (as CUDA events do): 2 ms per call.
struct self_timed_fake {
    std::uint64_t calls = 0;
    double timed_run(std::uint64_t n) {
        calls += n;
        return 2e-3 * static_cast<double>(n);
    }
    void operator()() { (void)timed_run(1); }
};
struct zero_clock {
    double now() const noexcept { return 0.0; }
};
}  // namespace

TEST_CASE("a self-timed workload's own time is what the repetitions record", "[offload_transfer]") {
    static_assert(self_timed<self_timed_fake>);
    zero_clock clock;  // the host clock would say 0 s: it must not be used
    self_timed_fake w;
    const auto per_call = time_repetitions(clock, w, 7, 3);
    REQUIRE(per_call.size() == 3);
    for (const double t : per_call) CHECK(t == Approx(2e-3));
    CHECK(w.calls == 21);
}

}  // namespace offload_transfer_test
