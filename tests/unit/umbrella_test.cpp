// The umbrella header stands on its own: it compiles as the only include, and the names a
// benchmark author composes with are reachable through it.
#include <parbench/parbench.hpp>

#include <catch2/catch.hpp>

#include <vector>

namespace pattern = parbench::pattern;
namespace iterations = parbench::policy::iterations;

static_assert(pattern::point_to_point_descriptor<pattern::ping_pong>);
static_assert(pattern::point_to_point_descriptor<pattern::exchange>);
static_assert(pattern::collective_descriptor<pattern::collective>);
static_assert(parbench::policy::aggregation_policy<parbench::policy::aggregation::aggregate>);

TEST_CASE("umbrella header: sizes, policies and statistics compose") {
    const auto sizes = parbench::imb_sizes(parbench::msglog_range{.min_log = 0, .max_log = 3});
    REQUIRE(sizes == std::vector<std::uint64_t>{0, 1, 2, 4, 8});

    const iterations::imb_volume volume{.msgs_per_sample = 100, .overall_vol_bytes = 400};
    CHECK(volume.n_sample(0) == 100);
    CHECK(volume.n_sample(8) == 50);

    const std::vector<double> samples{3.0, 1.0, 2.0};
    const auto s = parbench::summarize(samples);
    CHECK(s.median == 2.0);
    CHECK(s.min == 1.0);
    CHECK(s.max == 3.0);
}
