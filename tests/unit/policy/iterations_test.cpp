// policy/iterations.hpp: IMB's volume rule (catalogue A.6.9), the -time cap and the iteration
// policies (A.6.9b), and the -iter / -iter_policy / -time option parsers.
#include <parbench/core/options.hpp>
#include <parbench/policy/iterations.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>

using parbench::input_error;
using parbench::policy::iterations::imb_policy;
using parbench::policy::iterations::imb_volume;
using Catch::Matchers::Message;

namespace {
constexpr std::uint64_t kib = 1024;
constexpr std::uint64_t mib = 1024 * 1024;

// IMB_settings_io.h: MSGSPERSAMPLE 50, OVERALL_VOL 16 MiB, MSGS_NONAGGR 10.
constexpr imb_volume io_settings{
    .msgs_per_sample = 50, .overall_vol_bytes = 16 * mib, .msgs_nonaggr = 10};
}  // namespace

TEST_CASE("fixed always gives its count", "[iterations]") {
    constexpr parbench::policy::iterations::fixed f{.count = 37};
    STATIC_REQUIRE(f.n_sample(0) == 37);
    CHECK(f.n_sample(1 << 20) == 37);
    CHECK(parbench::policy::iterations::fixed{}.n_sample(5) == 1000);
}

TEST_CASE("imb_volume defaults are IMB_settings.h's", "[iterations]") {
    constexpr imb_volume v{};
    CHECK(v.msgs_per_sample == 1000);
    CHECK(v.overall_vol_bytes == 40 * mib);
    CHECK(v.msgs_nonaggr == 100);
    CHECK(v.policy == imb_policy::dynamic);
    CHECK(v.secs_per_sample == 10.0);
}

TEST_CASE("IMB volume rule reproduces the catalogue's worked values (A.6.9)", "[iterations]") {
    constexpr imb_volume v{};
    SECTION("MPI-1, aggregate") {
        STATIC_REQUIRE(v.n_sample(0) == 1000);
        CHECK(v.n_sample(1) == 1000);
        CHECK(v.n_sample(32768) == 1000);
        CHECK(v.n_sample(65536) == 640);
        CHECK(v.n_sample(131072) == 320);
        CHECK(v.n_sample(100000) == 419);
        CHECK(v.n_sample(1000000) == 41);
        CHECK(v.n_sample(4194304) == 10);
        CHECK(v.n_sample(std::uint64_t{1} << 40) == 1);  // never below one
    }
    SECTION("non-aggregate (Window, MSGS_NONAGGR = 100)") {
        CHECK(v.n_sample(0, false) == 100);
        CHECK(v.n_sample(256 * kib, false) == 100);
        CHECK(v.n_sample(512 * kib, false) == 80);
        CHECK(v.n_sample(1 * mib, false) == 40);
        CHECK(v.n_sample(2 * mib, false) == 20);
        CHECK(v.n_sample(4 * mib, false) == 10);
    }
    SECTION("IO settings (50 / 16 MiB / 10)") {
        CHECK(io_settings.n_sample(0) == 50);
        CHECK(io_settings.n_sample(524288) == 32);
        CHECK(io_settings.n_sample(1 * mib) == 16);
        CHECK(io_settings.n_sample(16 * mib) == 1);
        CHECK(io_settings.n_sample(0, false) == 10);
        CHECK(io_settings.n_sample(1 * mib, false) == 10);
        CHECK(io_settings.n_sample(2 * mib, false) == 8);
        CHECK(io_settings.n_sample(4 * mib, false) == 4);
        CHECK(io_settings.n_sample(8 * mib, false) == 2);
        CHECK(io_settings.n_sample(16 * mib, false) == 1);
    }
}

TEST_CASE("decide applies the -time cap and the policy", "[iterations]") {
    SECTION("dynamic: n * estimate <= secs_per_sample, at least 1") {
        imb_volume v{.secs_per_sample = 1.0};
        CHECK(v.decide(8, true, 1e-6, 2, false) == 1000);   // cap not reached
        CHECK(v.decide(8, true, 1.0 / 256, 2, false) == 256);  // exact in binary
        CHECK(v.decide(8, true, 0.003, 2, false) == 333);   // floor
        CHECK(v.decide(8, true, 5.0, 2, false) == 1);       // one iteration takes longer
        CHECK(v.decide(65536, true, 1.0 / 128, 2, false) == 128);
        CHECK(v.decide(65536, true, 1e-4, 2, false) == 640);  // volume rule binds first
        CHECK(v.decide(65536, false, 1e-4, 2, false) == 100);
        // No estimate: only the volume rule.
        CHECK(v.decide(65536, true, 0.0, 2, false) == 640);
    }
    SECTION("multiple_np rounds down to a multiple of the process count, at least np") {
        imb_volume v{.policy = imb_policy::multiple_np, .secs_per_sample = 1.0};
        CHECK(v.decide(8, true, 1e-6, 3, false) == 999);
        CHECK(v.decide(8, true, 1e-6, 7, false) == 994);
        CHECK(v.decide(8, true, 1.0 / 256, 3, false) == 255);
        CHECK(v.decide(65536, true, 1e-6, 3, false) == 639);
        CHECK(v.decide(8, true, 5.0, 4, false) == 4);   // cut to 1, raised to np
        CHECK(v.decide(8, true, 1e-6, 1, false) == 1000);
        CHECK(v.decide(8, true, 1e-6, 1000, false) == 1000);
    }
    SECTION("auto: multiple_np for rooted collectives, dynamic otherwise") {
        imb_volume v{.policy = imb_policy::automatic, .secs_per_sample = 1.0};
        CHECK(v.effective_policy(true) == imb_policy::multiple_np);
        CHECK(v.effective_policy(false) == imb_policy::dynamic);
        CHECK(v.decide(8, true, 1e-6, 3, true) == 999);
        CHECK(v.decide(8, true, 1e-6, 3, false) == 1000);
        imb_volume d{};
        CHECK(d.effective_policy(true) == imb_policy::dynamic);
    }
    SECTION("IMB 2021's untimed run under multiple_np: the hyperbola's count, and as warm-up") {
        // helper_IMB_functions.h:409-421 at np = 2, msgspersample 100, 2^max_log = 16:
        // (int)(100 * 16 / (2 * max(X, 4) + 16) + 0.5) = 67, 50, 33 -> 66, 50, 32; the whole
        // count runs once untimed before the timed run (:691-694), in either mode.
        imb_volume v{.msgs_per_sample = 100, .policy = imb_policy::multiple_np,
                     .imb2021_hyperbola_max_log = 4, .imb2021_pre_run_processes = 2};
        CHECK(v.n_sample(0) == 66);
        CHECK(v.warmup(0) == 66);
        CHECK(v.n_sample(8, false) == 50);
        CHECK(v.warmup(8, false) == 50);
        CHECK(v.n_sample(16) == 32);
        CHECK(v.decide(16, true, 1.0, 2, true) == 32);
        imb_volume volume = v;
        volume.imb2021_pre_run_processes = 0;  // the volume rule's n and warm-up
        CHECK(volume.n_sample(16) == 100);
        CHECK(volume.warmup(16) == 5);
    }
    SECTION("off: MSGSPERSAMPLE for every size, never cut by time") {
        imb_volume v{.policy = imb_policy::off, .secs_per_sample = 1.0};
        CHECK(v.n_sample(4194304) == 1000);
        CHECK(v.n_sample(4194304, false) == 100);
        CHECK(v.decide(4194304, true, 5.0, 3, true) == 1000);
        CHECK(v.effective_policy(true) == imb_policy::off);
        // IMB 2021's untimed run of the whole count before the timed run (:690-694).
        CHECK(v.warmup(4194304) == 50);
        v.imb2021_untimed_run = true;
        CHECK(v.warmup(4194304) == 1000);
        CHECK(v.warmup(4194304, false) == 100);
        CHECK(v.n_sample(4194304) == 1000);
    }
}

TEST_CASE("IMB 2021's -time budget per block: max(max(n_lens, max_log - min_log) - 1, 1) x secs",
          "[iterations]") {
    using parbench::policy::iterations::imb2021_block_limit_s;
    using parbench::policy::iterations::imb_block_budget;
    // helper_IMB_functions.h:779 by hand: the default -msglog 0:22, also with a list of lengths.
    CHECK(imb2021_block_limit_s(10.0, 0, 0, 22) == 210.0);
    CHECK(imb2021_block_limit_s(2.0, 4, 0, 22) == 42.0);
    CHECK(imb2021_block_limit_s(2.0, 30, 0, 22) == 58.0);
    CHECK(imb2021_block_limit_s(10.0, 0, 0, 3) == 20.0);
    CHECK(imb2021_block_limit_s(0.05, 0, 0, 1) == 0.05);  // never below one -time
    CHECK(imb2021_block_limit_s(1.0, 0, 3, 3) == 1.0);
    // The clock starts at the block's first size and runs on; a size is checked once.
    imb_block_budget budget(20.0);
    budget.start_size(100.0);
    CHECK(budget.undecided());
    CHECK_FALSE(budget.over(120.0));  // IMB's test is "more than"
    budget.settle(false);
    CHECK_FALSE(budget.undecided());
    CHECK_FALSE(budget.timed_out());
    budget.start_size(119.0);  // a later size: the block's clock keeps its start
    CHECK(budget.undecided());
    CHECK(budget.over(120.5));
    budget.settle(true);
    CHECK(budget.timed_out());
    CHECK_FALSE(imb_block_budget{}.over(1e300));  // no budget: never over
    // The iteration policies carry it where the IMB family sets it.
    imb_volume v{};
    CHECK(parbench::policy::block_budget_of(v) == nullptr);
    v.imb2021_budget = &budget;
    CHECK(parbench::policy::block_budget_of(v) == &budget);
    CHECK(parbench::policy::block_budget_of(parbench::policy::iterations::fixed{}) == nullptr);
}

TEST_CASE("policy names round-trip", "[iterations]") {
    for (auto p : {imb_policy::dynamic, imb_policy::multiple_np, imb_policy::automatic,
                   imb_policy::off}) {
        imb_policy parsed = p == imb_policy::off ? imb_policy::dynamic : imb_policy::off;
        REQUIRE(parbench::policy::iterations::parse_imb_policy(parbench::policy::iterations::to_string(p), parsed));
        CHECK(parsed == p);
    }
    CHECK(parbench::policy::iterations::to_string(imb_policy::automatic) == "auto");
    imb_policy untouched = imb_policy::off;
    CHECK_FALSE(parbench::policy::iterations::parse_imb_policy("Dynamic", untouched));
    CHECK_FALSE(parbench::policy::iterations::parse_imb_policy("automatic", untouched));
    CHECK(untouched == imb_policy::off);
}

TEST_CASE("parse_imb_iter: -iter msgspersample[,overall_vol[,msgs_nonaggr]][,policy]",
          "[iterations]") {
    const imb_volume base{};
    SECTION("one integer overrides MSGSPERSAMPLE") {
        const auto v = parbench::policy::iterations::parse_imb_iter("20", base);
        CHECK(v.msgs_per_sample == 20);
        CHECK(v.overall_vol_bytes == 40 * mib);
        CHECK(v.msgs_nonaggr == 100);
        CHECK(v.policy == imb_policy::dynamic);
    }
    SECTION("2000,100: MSGSPERSAMPLE and OVERALL_VOL in MB") {
        const auto v = parbench::policy::iterations::parse_imb_iter("2000,100", base);
        CHECK(v.msgs_per_sample == 2000);
        CHECK(v.overall_vol_bytes == 100 * mib);
        CHECK(v.msgs_nonaggr == 100);
    }
    SECTION("1000,40,150 sets MSGS_NONAGGR") {
        const auto v = parbench::policy::iterations::parse_imb_iter("1000,40,150", base);
        CHECK(v.msgs_per_sample == 1000);
        CHECK(v.overall_vol_bytes == 40 * mib);
        CHECK(v.msgs_nonaggr == 150);
        CHECK(v.n_sample(1 * mib, false) == 40);
        CHECK(v.n_sample(64, false) == 150);
    }
    SECTION("2000,multiple_np sets the policy too") {
        const auto v = parbench::policy::iterations::parse_imb_iter("2000,multiple_np", base);
        CHECK(v.msgs_per_sample == 2000);
        CHECK(v.policy == imb_policy::multiple_np);
    }
    SECTION("four fields") {
        const auto v = parbench::policy::iterations::parse_imb_iter("10, 4, 5, auto", base);
        CHECK(v.msgs_per_sample == 10);
        CHECK(v.overall_vol_bytes == 4 * mib);
        CHECK(v.msgs_nonaggr == 5);
        CHECK(v.policy == imb_policy::automatic);
    }
    SECTION("a policy alone keeps the numbers") {
        const auto v = parbench::policy::iterations::parse_imb_iter("off", io_settings);
        CHECK(v.policy == imb_policy::off);
        CHECK(v.msgs_per_sample == 50);
        CHECK(v.overall_vol_bytes == 16 * mib);
        CHECK(v.msgs_nonaggr == 10);
    }
    SECTION("bad values") {
        const std::string tail =
            "' is neither a positive integer nor a policy (dynamic, multiple_np, auto, off); "
            "expected msgspersample[,overall_vol[,msgs_nonaggr]][,policy]";
        CHECK_THROWS_MATCHES(parbench::policy::iterations::parse_imb_iter("abc", base), input_error,
                             Message("-iter abc: 'abc" + tail));
        CHECK_THROWS_MATCHES(parbench::policy::iterations::parse_imb_iter("0", base), input_error,
                             Message("-iter 0: '0" + tail));
        CHECK_THROWS_MATCHES(parbench::policy::iterations::parse_imb_iter("-5", base), input_error,
                             Message("-iter -5: '-5" + tail));
        CHECK_THROWS_MATCHES(parbench::policy::iterations::parse_imb_iter("", base), input_error,
                             Message("-iter : '" + tail));
        CHECK_THROWS_MATCHES(parbench::policy::iterations::parse_imb_iter("100,", base), input_error,
                             Message("-iter 100,: '" + tail));
        CHECK_THROWS_MATCHES(parbench::policy::iterations::parse_imb_iter("1,2,3,4", base), input_error,
                             Message("-iter 1,2,3,4: '4" + tail));
        CHECK_THROWS_MATCHES(parbench::policy::iterations::parse_imb_iter("1.5", base), input_error,
                             Message("-iter 1.5: '1.5" + tail));
        CHECK_THROWS(parbench::policy::iterations::parse_imb_iter("100,fast", base));
    }
    SECTION("the policy word comes last, once") {
        CHECK_THROWS_AS(parbench::policy::iterations::parse_imb_iter("off,100", base), input_error);
        CHECK_THROWS_AS(parbench::policy::iterations::parse_imb_iter("100,off,dynamic", base),
                        input_error);
    }
    SECTION("an overall_vol that overflows 64-bit bytes is rejected") {
        CHECK_THROWS_AS(parbench::policy::iterations::parse_imb_iter("100,99999999999999999", base),
                        input_error);
    }
}

TEST_CASE("parse_iter_policy_option", "[iterations]") {
    CHECK(parbench::policy::iterations::parse_iter_policy_option("dynamic") == imb_policy::dynamic);
    CHECK(parbench::policy::iterations::parse_iter_policy_option("multiple_np") ==
          imb_policy::multiple_np);
    CHECK(parbench::policy::iterations::parse_iter_policy_option(" auto ") == imb_policy::automatic);
    CHECK(parbench::policy::iterations::parse_iter_policy_option("off") == imb_policy::off);
    CHECK_THROWS_MATCHES(parbench::policy::iterations::parse_iter_policy_option("never"), input_error,
                         Message("-iter_policy never: expected one of dynamic, multiple_np, "
                                 "auto, off"));
    CHECK_THROWS_AS(parbench::policy::iterations::parse_iter_policy_option(""), input_error);
}

TEST_CASE("parse_seconds: -time takes a positive finite number", "[iterations]") {
    CHECK(parbench::parse_seconds("-time", "1.5") == 1.5);
    CHECK(parbench::parse_seconds("-time", "10") == 10.0);
    CHECK(parbench::parse_seconds("-time", " 0.1 ") == 0.1);
    CHECK(parbench::parse_seconds("-time", "2e-3") == 0.002);
    for (const char* bad : {"0", "-1", "abc", "", "1.5s", "nan"}) {
        INFO(bad);
        CHECK_THROWS_MATCHES(parbench::parse_seconds("-time", bad), input_error,
                             Message(std::string("-time ") + bad +
                                     ": expected a positive number of seconds"));
    }
    for (const char* huge : {"inf", "1e999", "1e300"}) {  // numbers, but too large: out of range
        INFO(huge);
        CHECK_THROWS_MATCHES(parbench::parse_seconds("-time", huge), input_error,
                             Message(std::string("-time ") + huge +
                                     ": out of range (at most 1e9 seconds)"));
    }
}

// IMB 2021's probe of a size (helper_IMB_functions.h:602-653), IMB-IO's compiled MSGSPERSAMPLE
// 50: one repetition, then min(n, rep_test) where that is more than one, rep_test = 50 below
// 1 / 50 s, (int)(1 / t + 0.5) below 1 s, else 1.
TEST_CASE("IMB 2021's second probe run: 1 + min(n, 50) transfers for a fast size") {
    using parbench::policy::iterations::imb2021_probe_repetitions;
    CHECK(imb2021_probe_repetitions(640, 20e-6, 50) == 50);  // 1 + 50 in all, not 32
    CHECK(imb2021_probe_repetitions(2, 20e-6, 50) == 2);
    CHECK(imb2021_probe_repetitions(1, 20e-6, 50) == 0);     // min(1, 50) = 1: no second run
    CHECK(imb2021_probe_repetitions(640, 0.04, 50) == 25);   // (int)(25 + 0.5)
    CHECK(imb2021_probe_repetitions(640, 0.3, 50) == 3);     // (int)(3.33 + 0.5)
    CHECK(imb2021_probe_repetitions(640, 0.7, 50) == 0);     // (int)(1.43 + 0.5) = 1
    CHECK(imb2021_probe_repetitions(640, 1.5, 50) == 0);     // rep_test 1
    CHECK(imb2021_probe_repetitions(640, 0.0, 50) == 50);
}

TEST_CASE("the probe is IMB 2021's only with a cap and a chain, and a size keeps its first") {
    parbench::policy::iterations::imb_volume v;
    v.msgs_per_sample = 640;
    v.overall_vol_bytes = 40ull << 20;
    CHECK_FALSE(v.imb2021_probes());
    CHECK(v.imb2021_probe_rest(65536, true, 1e-5) == 0);
    parbench::policy::iterations::imb_repetition_chain chain(640, false);
    v.imb2021_chain = &chain;
    CHECK_FALSE(v.imb2021_probes());  // no cap: parbench's warm-up
    v.imb2021_probe_cap = 50;
    CHECK(v.imb2021_probes());
    chain.start_size(65536);
    CHECK(v.imb2021_probe_rest(65536, true, 1e-5) == 50);  // n = 640 at 64 KiB
    CHECK(v.imb2021_probe_rest(65536, true, 0.3) == 50);   // t_ovrl's probe: the size's first
    chain.start_size(131072);
    CHECK(v.imb2021_probe_rest(131072, true, 0.3) == 3);
}
