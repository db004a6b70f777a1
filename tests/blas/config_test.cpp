// The suite's settings: PAW's environment variables, options over them, the size progression,
// and bad input rejected with a message that names the offending value.
#include "config.hpp"
#include "openblas_env.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace {

using parbench::blas::parse_config;

parbench::blas::env_lookup fake_env(std::map<std::string, std::string> vars) {
    return [vars](const char* name) -> std::optional<std::string> {
        const auto it = vars.find(name);
        if (it == vars.end()) return std::nullopt;
        return it->second;
    };
}

parbench::run_request request(std::map<std::string, nlohmann::json> options,
                              std::vector<std::string> benchmarks = {}) {
    parbench::run_request r;
    r.suite = "paw";
    r.benchmarks = std::move(benchmarks);
    r.options = std::move(options);
    return r;
}

std::string bad_input_message(const parbench::run_request& r,
                              std::map<std::string, std::string> env = {}) {
    try {
        (void)parse_config(r, fake_env(std::move(env)), 2);
    } catch (const parbench::input_error& e) {
        return e.what();
    }
    return "accepted";
}

}  // namespace

TEST_CASE("defaults are PAW's: sizes 8 doubling to 8192, then 10000; NLOOP_MAX 1000, NREPS 10",
          "[blas][config]") {
    const auto cfg = parse_config(request({}), fake_env({}), 2);
    CHECK(cfg.kernels.size() == 4);
    CHECK(cfg.sizes == std::vector<std::uint64_t>{8, 16, 32, 64, 128, 256, 512, 1024, 2048,
                                                  4096, 8192, 10000});
    CHECK(cfg.med_size == 1024);
    CHECK(cfg.policy.nloop_max == 1000);
    CHECK(cfg.policy.nreps == 10);
    CHECK(cfg.threads == std::vector<int>{2});
}

TEST_CASE("environment variables set defaults and options override them", "[blas][config]") {
    const auto env = fake_env({{"MIN_BLAS_SIZE", "16"}, {"MAX_BLAS_SIZE", "100"},
                               {"MED_BLAS_SIZE", "5000"}, {"NLOOP_MAX", "77"}});
    auto cfg = parse_config(request({}), env, 1);
    CHECK(cfg.sizes == std::vector<std::uint64_t>{16, 32, 64, 100});
    CHECK(cfg.med_size == 100);  // the warm-up size is clamped into [min, max]
    CHECK(cfg.policy.nloop_max == 77);
    CHECK(cfg.sources["min_size"] == "environment MIN_BLAS_SIZE");
    cfg = parse_config(request({{"max_size", "64"}, {"threads", "1,2"}, {"size_step", "+16"},
                                {"time", "0.5"}}),
                       env, 1);
    CHECK(cfg.sizes == std::vector<std::uint64_t>{16, 32, 48, 64});
    CHECK(cfg.threads == std::vector<int>{1, 2});
    CHECK(cfg.policy.budget_s == 0.5);
    CHECK(cfg.sources["max_size"] == "option --max_size");
    cfg = parse_config(request({{"sizes", nlohmann::json::array({"3", "50"})}}, {"DGEMV", "dgemv"}),
                       env, 1);
    CHECK(cfg.sizes == std::vector<std::uint64_t>{3, 50});
    CHECK(cfg.kernels == std::vector<parbench::blas::kernel>{parbench::blas::kernel::dgemv});
}

TEST_CASE("bad input fails with a message naming the value", "[blas][config]") {
    using Catch::Matchers::Contains;
    CHECK_THAT(bad_input_message(request({{"min_size", "abc"}})),
               Contains("--min_size 'abc'") && Contains("positive integer"));
    CHECK_THAT(bad_input_message(request({{"max_size", "-5"}})), Contains("--max_size '-5'"));
    CHECK_THAT(bad_input_message(request({{"min_size", "0"}})), Contains("--min_size '0'"));
    CHECK_THAT(bad_input_message(request({}), {{"MAX_BLAS_SIZE", "1e4"}}),
               Contains("MAX_BLAS_SIZE '1e4'"));
    CHECK_THAT(bad_input_message(request({}), {{"NLOOP_MAX", "-1"}}), Contains("NLOOP_MAX"));
    CHECK_THAT(bad_input_message(request({{"min_size", "512"}, {"max_size", "256"}})),
               Contains("minimum size 512") && Contains("larger than maximum size 256"));
    CHECK_THAT(bad_input_message(request({}), {{"MIN_BLAS_SIZE", "20000"}}),
               Contains("minimum size 20000 (environment MIN_BLAS_SIZE)"));
    CHECK_THAT(bad_input_message(request({{"threads", "0"}})), Contains("--threads '0'"));
    CHECK_THAT(bad_input_message(request({{"threads", "1,,2"}})), Contains("--threads ''"));
    CHECK_THAT(bad_input_message(request({{"threads", "two"}})), Contains("--threads 'two'"));
    CHECK_THAT(bad_input_message(request({{"time", "0"}})), Contains("--time '0'"));
    CHECK_THAT(bad_input_message(request({{"size_step", "x1"}})), Contains("--size_step 'x1'"));
    CHECK_THAT(bad_input_message(request({{"sizes", "64,32"}})), Contains("ascending"));
    CHECK_THAT(bad_input_message(request({{"max_size", "50000"}})), Contains("46340"));
    CHECK_THAT(bad_input_message(request({{"nreps", true}})), Contains("nreps: expects one value"));
    CHECK_THAT(bad_input_message(request({{"msglog", "3"}})), Contains("unknown option --msglog"));
    CHECK_THAT(bad_input_message(request({}, {"zgemm"})), Contains("unknown benchmark 'zgemm'"));
    CHECK_THAT(bad_input_message(request({{"nloop_min", "10"}, {"nloop_max", "5"}})),
               Contains("NLOOP_MIN 10 is larger than NLOOP_MAX 5"));
}

TEST_CASE("OpenBLAS fallback cores are detected against the CPU's vector flags", "[blas][env]") {
    parbench::cpu::cpu_info avx512;
    avx512.flags = {"sse3", "avx", "avx2", "fma", "avx512f", "avx512dq", "avx512cd", "avx512bw",
                    "avx512vl"};
    const auto w = parbench::blas::fallback_warning("Prescott", avx512, "0.3.21");
    REQUIRE(w);
    CHECK_THAT(*w, Catch::Matchers::Contains("OPENBLAS_CORETYPE=SkylakeX") &&
                       Catch::Matchers::Contains("'Prescott'"));
    CHECK_FALSE(parbench::blas::fallback_warning("SkylakeX", avx512, "0.3.21"));
    CHECK_FALSE(parbench::blas::fallback_warning("NeoverseN1", avx512, "0.3.21"));  // unclassified
    parbench::cpu::cpu_info avx2;
    avx2.flags = {"avx", "avx2", "fma"};
    const auto h = parbench::blas::fallback_warning("Sandybridge", avx2, "0.3.21");
    REQUIRE(h);
    CHECK_THAT(*h, Catch::Matchers::Contains("OPENBLAS_CORETYPE=Haswell"));
    CHECK_FALSE(parbench::blas::fallback_warning("Haswell", avx2, "0.3.21"));
}

TEST_CASE("peak: known micro-architectures only, otherwise unknown", "[blas][env]") {
    const auto zen5 = parbench::cpu::parse_proc_cpuinfo(
        "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\n"
        "model name\t: AMD EPYC\ncpu MHz\t\t: 2500.000\nsiblings\t: 2\ncpu cores\t: 2\n"
        "flags\t\t: fpu sse2 avx avx2 fma avx512f\n\nprocessor\t: 1\nvendor_id\t: Other\n");
    CHECK(zen5.vendor == "AuthenticAMD");
    CHECK(zen5.family == 26);
    CHECK(zen5.threads_per_core == 1);
    const auto peak = parbench::cpu::estimate_peak(zen5);
    REQUIRE(peak.dp_gflops_per_core);
    CHECK(*peak.dp_gflops_per_core == Approx(2.5 * 32));  // 2 x 512-bit FMA = 32 DP flops/cycle
    CHECK(*peak.sp_gflops(2) == Approx(2 * 2.5 * 64));
    auto unknown = zen5;
    unknown.vendor = "GenuineIntel";
    unknown.family = 6;
    unknown.model = 0x55;  // Skylake-SP: one or two FMA units by SKU
    CHECK_FALSE(parbench::cpu::estimate_peak(unknown).dp_gflops_per_core);
    CHECK_THAT(parbench::cpu::estimate_peak(unknown).basis, Catch::Matchers::Contains("unknown"));
    auto no_clock = zen5;
    no_clock.clock_mhz = 0.0;
    CHECK_FALSE(parbench::cpu::estimate_peak(no_clock).dp_gflops_per_core);
}

TEST_CASE("peak: a measured clock is named as such in the basis", "[blas][env]") {
    auto cpu = parbench::cpu::parse_proc_cpuinfo(
        "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\n"
        "model name\t: AMD EPYC\ncpu MHz\t\t: 2596.000\nsiblings\t: 2\ncpu cores\t: 2\n"
        "flags\t\t: fpu sse2 avx avx2 fma avx512f hypervisor\n");
    CHECK_THAT(parbench::cpu::estimate_peak(cpu).basis,
               Catch::Matchers::Contains("nominal (TSC) clock"));
    cpu.clock_mhz = 3700.0;
    cpu.clock_source = "measured (dependent-add chain on one core at start-up)";
    const auto peak = parbench::cpu::estimate_peak(cpu);
    REQUIRE(peak.dp_gflops_per_core);
    CHECK(*peak.dp_gflops_per_core == Approx(3.7 * 16));  // Zen 4: 2 x 256-bit FMA
    CHECK_THAT(peak.basis, Catch::Matchers::Contains("3700 MHz measured") &&
                               !Catch::Matchers::Contains("nominal"));
}

#if defined(__x86_64__)
TEST_CASE("the core clock is measured where the add chain exists", "[blas][env]") {
    const auto mhz = parbench::cpu::measure_core_clock_mhz();
    REQUIRE(mhz);
    // A chain the compiler removed or a loop that miscounts is off by orders of magnitude.
    CHECK(*mhz > 200.0);
    CHECK(*mhz < 10000.0);
    const auto proc = parbench::cpu::parse_proc_cpuinfo([] {
        std::ifstream f("/proc/cpuinfo");
        std::stringstream text;
        text << f.rdbuf();
        return text.str();
    }());
    if (proc.clock_mhz > 0.0) {
        // The nominal and the running clock differ by boost or power saving, never by 3x.
        CHECK(*mhz > proc.clock_mhz / 3.0);
        CHECK(*mhz < proc.clock_mhz * 3.0);
    }
}
#endif

TEST_CASE("PARBENCH_CPU_MHZ: a clock in MHz or one line naming the variable", "[blas][env]") {
    using parbench::cpu::parse_clock_mhz;
    CHECK(parse_clock_mhz("PARBENCH_CPU_MHZ", "2400") == 2400.0);
    CHECK(parse_clock_mhz("PARBENCH_CPU_MHZ", "3700.5") == 3700.5);
    CHECK(parse_clock_mhz("PARBENCH_CPU_MHZ", "100000") == 100000.0);
    // Garbage was ignored (atof <= 0) or half read ("2.4GHz" as 2.4 MHz): a fictitious peak.
    for (const char* bad : {"banana", "2.4GHz", "0", "-3", "nan", "inf", "1e9", "", " 2400",
                            "2400 ", "0x10", "100000.1", "1e999"}) {
        INFO(bad);
        try {
            (void)parse_clock_mhz("PARBENCH_CPU_MHZ", bad);
            FAIL("accepted");
        } catch (const parbench::input_error& e) {
            CHECK(std::string(e.what()).starts_with("environment PARBENCH_CPU_MHZ '" +
                                                    std::string(bad) + "': expected the CPU"));
        }
    }
}
