// PAW's transfer-test settings: variables (table 2.1) under options, the size progression, the
// device list, and one clear message per bad value; the run header's loops and the context's
// timer they give (plugin/paw_run_header.hpp).
#include <parbench/plugin/paw_run_header.hpp>
#include <parbench/plugin/paw_transfer_settings.hpp>

#include <catch2/catch.hpp>

#include <map>
#include <string>

// A namespace of the file's own: the test program is a unity build (tests/unit/meson.build), and
// its using-directives must not reach the files compiled after it.
namespace paw_transfer_settings_test {

using namespace parbench;

namespace {
paw::env_lookup env_of(std::map<std::string, std::string> vars) {
    return [vars](const char* name) -> std::optional<std::string> {
        const auto it = vars.find(name);
        if (it == vars.end()) return std::nullopt;
        return it->second;
    };
}
run_request with(std::map<std::string, nlohmann::json> options) {
    run_request r;
    r.suite = "paw";
    r.options = std::move(options);
    return r;
}
}  // namespace

TEST_CASE("PAW's GPU defaults: 128 B doubling to 2e8 B, warm-up 20000, NLOOP_MAX 1000", "[paw]") {
    const auto s = paw::parse_transfer_settings(with({}), env_of({}), paw::gpu_family);
    CHECK(s.sizes.front() == 128);
    CHECK(s.sizes[1] == 256);
    CHECK(s.sizes[s.sizes.size() - 2] == 134217728);  // 128 * 2^20
    CHECK(s.sizes.back() == 200000000);
    CHECK(s.sizes.size() == 22);
    CHECK(s.med_bytes == 20000);
    CHECK(s.policy.nloop_max == 1000);
    CHECK(s.policy.nreps == 10);
}

TEST_CASE("Phi family: NLOOP_PHI_MAX 100 and its own sizes", "[paw]") {
    const auto s = paw::parse_transfer_settings(with({}), env_of({}), paw::phi_family);
    CHECK(s.policy.nloop_max == 100);
    CHECK(s.sizes.front() == 256);
    CHECK(s.sizes.back() == 614400000);
    const auto e = paw::parse_transfer_settings(with({}), env_of({{"NLOOP_PHI_MAX", "7"}, {"NLOOP_MAX", "9"}}),
                                                paw::phi_family);
    CHECK(e.policy.nloop_max == 7);
}

TEST_CASE("options win over variables, variables over defaults, and the record says which", "[paw]") {
    const auto s = paw::parse_transfer_settings(with({{"max_size", "4096"}}),
                                                env_of({{"MIN_GPU_SIZE", "1024"}, {"MAX_GPU_SIZE", "9"}}),
                                                paw::gpu_family);
    CHECK(s.sizes == std::vector<std::uint64_t>{1024, 2048, 4096});
    CHECK(s.sources["min_size"] == "environment MIN_GPU_SIZE");
    CHECK(s.sources["max_size"] == "option --max_size");
    CHECK(s.med_bytes == 4096);  // the warm-up size is clamped into [min, max]
}

TEST_CASE("an explicit list replaces the progression", "[paw]") {
    const auto s = paw::parse_transfer_settings(with({{"sizes", "65536, 1048576,268435456"}}),
                                                env_of({}), paw::gpu_family);
    CHECK(s.sizes == std::vector<std::uint64_t>{65536, 1048576, 268435456});
}

TEST_CASE("bad values: one line naming the option or variable", "[paw]") {
    const auto fails = [](std::map<std::string, nlohmann::json> o, std::map<std::string, std::string> e,
                          const std::string& fragment) {
        CHECK_THROWS_WITH(paw::parse_transfer_settings(with(std::move(o)), env_of(std::move(e)),
                                                       paw::gpu_family),
                          Catch::Contains(fragment));
    };
    fails({{"sizes", "4096,1024"}}, {}, "ascending");
    fails({{"sizes", "0"}}, {}, "--sizes '0': expected a positive integer");
    fails({{"sizes", ""}}, {}, "--sizes '': expected a positive integer");
    fails({}, {{"MAX_GPU_SIZE", "lots"}}, "MAX_GPU_SIZE 'lots'");
    fails({{"min_size", "5000"}, {"max_size", "4000"}}, {}, "larger than maximum size");
    fails({{"max_size", "2199023255553"}}, {}, "out of range");
    fails({{"time", "-1"}}, {}, "--time '-1'");
    fails({{"nloop_min", "10"}, {"nloop_max", "5"}}, {}, "NLOOP_MIN 10 is larger than NLOOP_MAX 5");
    fails({{"bogus", "1"}}, {}, "unknown option --bogus");
    // a plugin's own option is let through
    CHECK_NOTHROW(paw::parse_transfer_settings(with({{"device", "0"}}), env_of({}), paw::gpu_family,
                                               {"device"}));
}

TEST_CASE("the run header's loops and the context's timer, as every PAW family fills them",
          "[paw]") {
    // plugin/paw_run_header.hpp, through transfer_header: each figure from its own setting.
    auto s = paw::parse_transfer_settings(
        with({{"nreps", "7"}, {"nloop_max", "300"}, {"nloop_min", "2"}, {"time", "4.5"}}),
        env_of({}), paw::phi_family);
    s.policy.threshold_factor = 20.0;
    const report::paw_header h = paw::transfer_header("offload", s, 3e-8, "bytes per transfer");
    REQUIRE(h.loops.has_value());
    CHECK(*h.loops == report::paw_header_loops{.nreps = 7,
                                               .nloop_max = 300,
                                               .nloop_min = 2,
                                               .threshold_factor = 20.0,
                                               .timer_threshold_s = 3e-8,
                                               .budget_s = 4.5});
    CHECK(paw::context_timer(clock_characteristics{.resolution_s = 1e-9, .overhead_s = 4e-8}) ==
          report::timer_limits{.resolution_s = 1e-9, .overhead_s = 4e-8});
}

TEST_CASE("device lists", "[paw]") {
    CHECK(paw::parse_devices(with({}), 4) == std::vector<int>{0});
    CHECK(paw::parse_devices(with({{"device", "2,0"}}), 4) == std::vector<int>{2, 0});
    CHECK(paw::parse_devices(with({{"device", "all"}}), 3) == std::vector<int>{0, 1, 2});
    CHECK_THROWS_WITH(paw::parse_devices(with({{"device", "7"}}), 2),
                      "--device '7': device 7 is out of range (2 devices present)");
    CHECK_THROWS_WITH(paw::parse_devices(with({{"device", "1,1"}}), 2), Catch::Contains("named twice"));
    CHECK_THROWS_WITH(paw::parse_devices(with({{"device", "gpu0"}}), 2), Catch::Contains("expected device ids"));
}

}  // namespace paw_transfer_settings_test
