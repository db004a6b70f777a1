// Approval of PAW's output: .dat names and layout, and the console summary, with numbers masked
// so the layout is what is compared.
#include <parbench/report/paw.hpp>
#include <parbench/report/paw_dat.hpp>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

namespace {

std::string masked(const std::string& text) {
    static const std::regex number(R"(\b[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?)");
    return std::regex_replace(text, number, "#");
}

std::string read(const std::filesystem::path& p) {
    std::ifstream f(p);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

parbench::result_record record(std::uint64_t n, int threads, double t_us) {
    parbench::result_record r;
    r.suite = "paw";
    r.benchmark = "dgemm";
    r.klass = parbench::benchmark_class::compute;
    r.statistics = parbench::time_statistics::over_repetitions;
    r.block.title = "dgemm";
    r.block.threads = threads;
    r.bytes = n;
    r.iterations = 10;
    r.t_min_us = t_us;
    r.t_max_us = 2 * t_us;
    r.t_avg_us = 1.5 * t_us;
    r.distribution_us.median = 1.5 * t_us;
    r.distribution_us.ci_low = t_us;
    r.distribution_us.ci_high = 2 * t_us;
    const double d = static_cast<double>(n);
    r.paw_rates = parbench::paw_rate_figures{.flops_paw = 2 * d * d * (d + 1), .gflops_paw = 1.0};
    r.repetitions = parbench::repetition_figures{.nreps = 10};
    return r;
}

struct temp_dir {
    std::filesystem::path path;
    temp_dir() {
        path = std::filesystem::temp_directory_path() /
               ("parbench_paw_" + std::to_string(::getpid()) + "_" +
                std::to_string(reinterpret_cast<std::uintptr_t>(this)));
        std::filesystem::remove_all(path);
    }
    ~temp_dir() { std::filesystem::remove_all(path); }
};

}  // namespace

TEST_CASE("PAW .dat files: names, header line, one N min max mean line per size", "[paw][approval]") {
    temp_dir dir;
    parbench::report::paw_dat_reporter reporter(dir.path / "out");
    parbench::run_start start;
    start.suite = "paw";
    start.layout = "paw";
    reporter.on_run_start(start, nlohmann::json::object());
    reporter.on_result(record(8, 2, 1.0));
    // Partial results: the first size is on disk before the second arrives.
    CHECK(masked(read(dir.path / "out" / "dgemm_time-np_2.dat")) ==
          "# dgemm time per call [s], # thread(s): N min max mean\n"
          "       # # # #\n");
    reporter.on_result(record(16, 2, 4.0));
    reporter.on_run_end(true);
    CHECK(masked(read(dir.path / "out" / "dgemm_time-np_2.dat")) ==
          "# dgemm time per call [s], # thread(s): N min max mean\n"
          "       # # # #\n"
          "      # # # #\n");
    const std::string flops = read(dir.path / "out" / "dgemm_flops-np_2.dat");
    CHECK(masked(flops) ==
          "# dgemm rate [GFlop/s, PAW count], # thread(s): N min max mean\n"
          "       # # # #\n"
          "      # # # #\n");
    // min rate = flops / max time: 2*64*9 = 1152 flops over 2 us = 0.576 GFlop/s.
    CHECK_THAT(flops, Catch::Matchers::Contains("       8 5.760000e-01 1.152000e+00 7.680000e-01"));
    CHECK(std::filesystem::exists(dir.path / "out" / "dgemm_flops-np_2.dat"));
    CHECK(parbench::report::paw_dat_names("sgemv", 16) ==
          std::pair<std::string, std::string>{"sgemv_time-np_16.dat", "sgemv_flops-np_16.dat"});
}

TEST_CASE("PAW console summary layout", "[paw][approval]") {
    temp_dir dir;
    std::ostringstream console;
    parbench::report::paw_reporter reporter(console);
    parbench::run_start start;
    start.suite = "paw";
    start.layout = "paw";
    start.title = "PAW compatible BLAS tests";
    start.header = {{"timer_threshold_s", 2e-8}, {"threshold_factor", 10}, {"nreps", 10},
                    {"nloop_max", 1000}, {"nloop_min", 1}, {"budget_s", 10}};
    start.context = {{"processes", 1},
                     {"openblas", {{"config", "OpenBLAS 0.3.21 DYNAMIC_ARCH"},
                                   {"corename", "Prescott"}, {"num_threads", 2}}},
                     {"cpu", {{"model_name", "AMD EPYC"}, {"physical_cores", 2},
                              {"clock_mhz", 2596.1}, {"vector_flags", "avx2 avx512f"}}},
                     {"peak", {{"dp_gflops", 166.1}, {"sp_gflops", 332.3}, {"basis", "table"}}}};
    reporter.on_run_start(start, {{"date", "today"}});
    reporter.on_warning("core fallback");
    reporter.on_result(record(8, 2, 1.0));
    reporter.on_run_end(false);
    CHECK(masked(console.str()) ==
          "#------------------------------------------------------------\n"
          "# PAW compatible BLAS tests\n"
          "#------------------------------------------------------------\n"
          "# date              : today\n"
          "# BLAS              : OpenBLAS #.# DYNAMIC_ARCH\n"
          "# BLAS core         : Prescott (# threads by default)\n"
          "# CPU               : AMD EPYC, # cores, # MHz\n"
          "# vector flags      : avx2 avx512f\n"
          "# theoretical peak  : # DP / # SP GFlop/s  (table)\n"
          "# processes         : #\n"
          "# timer threshold   : # s (x # = shortest valid loop)\n"
          "# loops             : NREPS #, NLOOP_MAX #, NLOOP_MIN #, budget # s per size\n"
          "# sizes are matrix orders N; GFlop/s use PAW's flop count #N^#(N+#) / #N(N+#),\n"
          "# %peak the conventional #N^# / #N^#\n"
          "# WARNING: core fallback\n"
          "\n"
          "# dgemm, # threads, # process  (files dgemm_time-np_2.dat, dgemm_flops-np_2.dat)\n"
          "       N   NLOOP NREPS     t_min[s]     t_max[s]    t_mean[s]  t_median[s] ci95[%]    GFlop/s      %peak\n"
          "       #      #    #  #  #  #  #   #       #          -\n"
          "\n"
          "# run stopped early; the .dat files hold the sizes completed\n");
}
