// core/buffers.hpp: aligned buffers, -off_cache parsing and message rotation, -mem parsing.
#include <parbench/core/buffers.hpp>
#include <parbench/core/malloc_thresholds.hpp>
#include <parbench/mpi/message_buffers.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

using parbench::input_error;
using Catch::Matchers::Message;

namespace {
bool page_aligned(const void* p) {
    return reinterpret_cast<std::uintptr_t>(p) % parbench::buffer_alignment == 0;
}
}  // namespace

TEST_CASE("aligned_buffer is page aligned and zeroed", "[buffers]") {
    for (std::size_t bytes : {std::size_t{1}, std::size_t{100}, std::size_t{4096},
                              std::size_t{4097}, std::size_t{1} << 20}) {
        INFO(bytes);
        parbench::aligned_buffer buffer(bytes);
        REQUIRE(buffer.data() != nullptr);
        CHECK(page_aligned(buffer.data()));
        CHECK(buffer.size() == bytes);
        CHECK(std::all_of(buffer.data(), buffer.data() + bytes,
                          [](std::byte b) { return b == std::byte{0}; }));
        buffer.data()[bytes - 1] = std::byte{0x5a};  // writable to the last byte
        CHECK(buffer.data()[bytes - 1] == std::byte{0x5a});
    }
}

TEST_CASE("a zero-byte aligned_buffer still has a valid pointer", "[buffers]") {
    parbench::aligned_buffer buffer(0);
    CHECK(buffer.size() == 0);
    REQUIRE(buffer.data() != nullptr);
    CHECK(page_aligned(buffer.data()));
    const parbench::aligned_buffer empty;
    CHECK(empty.size() == 0);
    CHECK(empty.data() == nullptr);
}

TEST_CASE("aligned_buffer moves leave the source empty", "[buffers]") {
    parbench::aligned_buffer a(64);
    const std::byte* p = a.data();
    parbench::aligned_buffer b(std::move(a));
    CHECK(b.data() == p);
    CHECK(b.size() == 64);
    CHECK(a.data() == nullptr);  // NOLINT(bugprone-use-after-move): the moved-from state is API
    CHECK(a.size() == 0);
    parbench::aligned_buffer c(8);
    c = std::move(b);
    CHECK(c.data() == p);
    CHECK(c.size() == 64);
    CHECK(b.size() == 0);  // NOLINT(bugprone-use-after-move)
}

TEST_CASE("parse_off_cache", "[buffers]") {
    SECTION("-1 uses the defaults") {
        const auto c = parbench::parse_off_cache("-1");
        CHECK(c.enabled);
        CHECK(c.cache_mib == parbench::off_cache::default_cache_mib);
        CHECK(c.line_bytes == parbench::off_cache::default_line_bytes);
    }
    SECTION("2.5 MB with the default line size") {
        const auto c = parbench::parse_off_cache("2.5");
        CHECK(c.enabled);
        CHECK(c.cache_mib == 2.5);
        CHECK(c.cache_bytes() == 2621440);
        CHECK(c.line_bytes == 64);
    }
    SECTION("16,128: cache size and line size") {
        const auto c = parbench::parse_off_cache("16,128");
        CHECK(c.enabled);
        CHECK(c.cache_mib == 16.0);
        CHECK(c.cache_bytes() == 16u << 20);
        CHECK(c.line_bytes == 128);
    }
    SECTION("disabled by default") {
        const parbench::off_cache c;
        CHECK_FALSE(c.enabled);
    }
    SECTION("bad values") {
        for (const char* bad : {"0", "-2", "abc", "", "16,", "16,0", "16,-64", ",64", "16,64,1",
                                "2.5MB", "nan", "-1,64"}) {
            INFO(bad);
            CHECK_THROWS_MATCHES(parbench::parse_off_cache(bad), input_error,
                                 Message(std::string("-off_cache ") + bad +
                                         ": expected -1, CACHE_MB or CACHE_MB,LINE_BYTES "
                                         "(e.g. 2.5 or 16,128)"));
        }
    }
    SECTION("sizes too large for the byte count are out of range, not overflowed") {
        for (const char* huge : {"inf", "1e300", "99999999999999", "1e-300"}) {
            INFO(huge);
            CHECK_THROWS_MATCHES(parbench::parse_off_cache(huge), input_error,
                                 Message(std::string("-off_cache ") + huge +
                                         ": cache size out of range (at most 1073741824 MB, at least one byte)"));
        }
        CHECK_THROWS_MATCHES(parbench::parse_off_cache("16,99999999999999999999"), input_error,
                             Message("-off_cache 16,99999999999999999999: cache line size out of "
                                     "range"));
    }
}

TEST_CASE("message_rotation without off_cache reuses the start", "[buffers]") {
    parbench::message_rotation rotation(1000, parbench::off_cache{});
    CHECK(rotation.region_bytes() == 1000);
    for (int i = 0; i < 5; ++i) CHECK(rotation.next_offset() == 0);
}

TEST_CASE("message_rotation with off_cache keeps messages out of cache", "[buffers]") {
    // A small cache keeps the region small and the wrap quick to reach.
    const parbench::off_cache cache{.enabled = true, .cache_mib = 1.0 / 64, .line_bytes = 64};
    REQUIRE(cache.cache_bytes() == 16384);
    for (std::size_t message : {std::size_t{0}, std::size_t{1}, std::size_t{100},
                                std::size_t{4096}, std::size_t{10000}, std::size_t{100000}}) {
        INFO("message bytes " << message);
        parbench::message_rotation rotation(message, cache);
        const std::size_t region = rotation.region_bytes();
        // The region holds 2 * max(cache, X) (IMB's buffer size) and then some.
        CHECK(region >= 2 * std::max(cache.cache_bytes(), message));
        std::vector<std::size_t> offsets;
        for (int i = 0; i < 2000; ++i) offsets.push_back(rotation.next_offset());
        CHECK(offsets.front() == 0);
        bool wrapped = false;
        for (std::size_t i = 0; i < offsets.size(); ++i) {
            INFO("message " << i << " at " << offsets[i]);
            CHECK(offsets[i] % cache.line_bytes == 0);
            CHECK(offsets[i] + message <= region);  // stays inside the region
            if (i == 0) continue;
            const std::size_t previous = offsets[i - 1];
            if (offsets[i] > previous) {
                // At least two cache lines between the end of one message and the next start.
                CHECK(offsets[i] >= previous + message + 2 * cache.line_bytes);
            } else {
                wrapped = true;
                CHECK(offsets[i] == 0);
                // After the wrap the new message does not overlap the previous one.
                CHECK(offsets[i] + message <= previous);
                // and only when the next slot (one stride, < X + 3 lines, on) would not fit.
                CHECK(previous + 2 * message + 3 * cache.line_bytes > region);
            }
        }
        CHECK(wrapped);
        rotation.reset();
        CHECK(rotation.next_offset() == 0);
    }
}

TEST_CASE("parse_mem_gib", "[buffers]") {
    CHECK(parbench::parse_mem_gib("2") == 2.0);
    CHECK(parbench::parse_mem_gib("0.5") == 0.5);
    CHECK(parbench::parse_mem_gib(" 1.25 ") == 1.25);
    CHECK_THROWS_MATCHES(parbench::parse_mem_gib("1e300"), input_error,
                         Message("-mem 1e300: out of range (at most 1e9 GB)"));
    for (const char* bad : {"0", "-1", "", "abc", "2GB", "nan"}) {
        INFO(bad);
        CHECK_THROWS_MATCHES(parbench::parse_mem_gib(bad), input_error,
                             Message(std::string("-mem ") + bad +
                                     ": expected a positive number of GB per process, e.g. 2 "
                                     "or 0.5"));
    }
}

namespace {
// A memory space that counts what is asked of it (host memory underneath): the plumbing for
// device buffers, tested where no device exists.
struct counted_space {
    static inline int allocations = 0;
    static inline int releases = 0;
    static inline std::size_t zeroed = 0;
    static inline std::size_t last_request = 0;
    static void* allocate(std::size_t bytes) {
        ++allocations;
        last_request = bytes;
        return std::malloc(bytes);
    }
    static void release(void* p) {
        ++releases;
        std::free(p);
    }
    static void zero(void* p, std::size_t bytes) {
        zeroed += bytes;
        std::memset(p, 0, bytes);
    }
};
const parbench::memory_space counted{"counted", counted_space::allocate, counted_space::release,
                                     counted_space::zero, nullptr, nullptr};
}  // namespace

TEST_CASE("buffers in another memory space are allocated, zeroed and freed through it",
          "[buffers]") {
    counted_space::allocations = counted_space::releases = 0;
    counted_space::zeroed = 0;
    {
        parbench::aligned_buffer b(5000, &counted);
        CHECK(b.space() == &counted);
        CHECK(b.size() == 5000);
        CHECK(counted_space::allocations == 1);
        CHECK(counted_space::last_request == 8192);  // whole pages, as host buffers
        CHECK(counted_space::zeroed == 8192);
        parbench::aligned_buffer moved = std::move(b);
        CHECK(moved.space() == &counted);
        CHECK(counted_space::releases == 0);
    }
    CHECK(counted_space::releases == 1);  // once, by the buffer that owned it last

    // A pool keeps its space when a larger message makes it grow.
    parbench::aligned_buffer pool = parbench::aligned_buffer::empty_in(&counted);
    CHECK(pool.data() == nullptr);
    parbench::mpi::message_region small(100, parbench::off_cache{});
    small.attach(pool);
    CHECK(counted_space::allocations == 2);
    parbench::mpi::message_region large(100000, parbench::off_cache{});
    large.attach(pool);
    CHECK(counted_space::allocations == 3);
    CHECK(counted_space::releases == 2);  // the smaller allocation went back to the space
    CHECK(pool.space() == &counted);
    // host buffers never touch it
    parbench::aligned_buffer host(64);
    CHECK(host.space() == nullptr);
    CHECK(counted_space::allocations == 3);
}

// core/malloc_thresholds.hpp: a user's own glibc malloc setting is kept (nothing pinned).
TEST_CASE("malloc thresholds are left to a user who sets glibc's malloc", "[buffers]") {
    const auto setting = [](std::map<std::string, std::string> env) {
        return parbench::malloc_setting_in_environment([&](const char* name) -> const char* {
            const auto it = env.find(name);
            return it == env.end() ? nullptr : it->second.c_str();
        });
    };
    CHECK(setting({}).empty());
    CHECK(setting({{"MALLOC_ARENA_MAX", "1"}, {"GLIBC_TUNABLES", "glibc.rtld.nns=2"}}).empty());
    CHECK(setting({{"MALLOC_TRIM_THRESHOLD_", "0"}}) == "MALLOC_TRIM_THRESHOLD_");
    CHECK(setting({{"MALLOC_MMAP_THRESHOLD_", "131072"}}) == "MALLOC_MMAP_THRESHOLD_");
    CHECK(setting({{"MALLOC_TOP_PAD_", "1"}}) == "MALLOC_TOP_PAD_");
    CHECK(setting({{"MALLOC_MMAP_MAX_", "0"}}) == "MALLOC_MMAP_MAX_");
    CHECK(setting({{"GLIBC_TUNABLES", "glibc.malloc.check=0:glibc.malloc.trim_threshold=1"}}) ==
          "GLIBC_TUNABLES");
    CHECK(setting({{"GLIBC_TUNABLES", "glibc.malloc.mmap_threshold=65536"}}) == "GLIBC_TUNABLES");
    CHECK(parbench::allocator_context({.set_by = "environment", .variable = "MALLOC_TOP_PAD_"}) ==
          nlohmann::json{{"malloc_thresholds_set_by", "environment"},
                         {"variable", "MALLOC_TOP_PAD_"}});
    CHECK(parbench::allocator_context({.set_by = "parbench", .variable = {}}) ==
          nlohmann::json{{"malloc_thresholds_set_by", "parbench"},
                         {"mmap_threshold_bytes", 32 << 20},
                         {"trim_threshold_bytes", 64 << 20}});
}
