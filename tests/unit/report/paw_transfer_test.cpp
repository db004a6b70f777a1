// A measured transfer size becomes a PAW record and PAW's files: names, columns and the GB/s
// figures, checked against hand-computed values (bytes moved / seconds / 10^9).
#include <parbench/report/paw.hpp>
#include <parbench/report/paw_dat.hpp>
#include <parbench/report/paw_transfer.hpp>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

// A namespace of the file's own: the test program is a unity build (tests/unit/meson.build), and
// its using-directives must not reach the files compiled after it.
namespace paw_transfer_test {

using namespace parbench;

namespace {

std::string read(const std::filesystem::path& p) {
    std::ifstream f(p);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// 10^6 bytes, repetitions of 100, 200 and 300 us per iteration.
pattern::compute_measurement measured() {
    pattern::compute_measurement m;
    m.size = 1000000;
    m.nloop = 40;
    m.nreps_planned = 3;
    m.nloop_calibrated = 50;
    m.seconds_per_call = {1e-4, 3e-4, 2e-4};
    return m;
}

struct temp_dir {
    std::filesystem::path path = std::filesystem::temp_directory_path() /
                                 ("parbench_paw_transfer_" + std::to_string(::getpid()));
    ~temp_dir() { std::filesystem::remove_all(path); }
};

}  // namespace

TEST_CASE("transfer record: PAW's statistics and GB/s from bytes moved", "[paw][transfer]") {
    const pattern::offload_transfer inout{.direction = pattern::transfer_direction::inout};
    const auto r = report::paw_transfer_record("paw", "gpu_inout_pinned", "gpu_inout_pinned",
                                               inout, measured());
    CHECK(r.klass == benchmark_class::host_device_transfer);
    CHECK(r.bytes == 1000000);
    CHECK(r.iterations == 40);
    CHECK(r.t_min_us == Approx(100.0));
    CHECK(r.t_max_us == Approx(300.0));
    CHECK(r.t_avg_us == Approx(200.0));
    CHECK(r.statistics == time_statistics::over_repetitions);  // said by the record itself
    CHECK(r.headline_time_us() == Approx(200.0));  // PAW reports the mean
    // inout moves 2 * 10^6 bytes per iteration
    CHECK(r.repetitions.value().bytes_per_iteration == 2e6);
    CHECK(r.repetitions.value().devices == 1u);
    CHECK(r.paw_rates.value().gb_per_s_mean == Approx(10.0));  // 2e6 B / 200 us
    CHECK(r.metrics.at("gb_per_s_min") == Approx(6.666667));    // over the slowest repetition
    CHECK(r.metrics.at("gb_per_s_max") == Approx(20.0));
    CHECK(r.paw_rates.value().gb_per_s_median == Approx(10.0));
    CHECK(r.repetitions.value().nreps == 3u);
    CHECK_FALSE(r.metrics.contains("nreps"));  // one place for each figure
    CHECK_FALSE(r.metrics.contains("gb_per_s_mean"));
    // the outputs list the typed rates under their names of old, and a file read back gives
    // the block again
    const nlohmann::json j = r;
    CHECK(j.at("metrics").at("gb_per_s_mean").get<double>() == Approx(10.0));
    CHECK(j.at("metrics").at("gb_per_s_median").get<double>() == Approx(10.0));
    CHECK(named_figures(r).at("gb_per_s_mean") == Approx(10.0));
    const auto back = j.get<result_record>();
    CHECK(back.paw_rates == r.paw_rates);
    CHECK(back.metrics == r.metrics);
}

TEST_CASE("PAW files of transfer tests: names by test, method and devices; GB/s columns",
          "[paw][transfer]") {
    temp_dir dir;
    std::ostringstream console;
    report::paw_reporter console_reporter(console);
    report::paw_dat_reporter files(dir.path);
    struct both {  // the console and the .dat files, fed the same events
        report::reporter& a;
        report::reporter& b;
        void on_run_start(const run_start& s, const nlohmann::json& c) {
            a.on_run_start(s, c);
            b.on_run_start(s, c);
        }
        void on_result(const result_record& r) {
            a.on_result(r);
            b.on_result(r);
        }
        void on_run_end(bool completed) {
            a.on_run_end(completed);
            b.on_run_end(completed);
        }
    } reporter{console_reporter, files};
    run_start start;
    start.suite = "paw";
    start.layout = "paw";
    start.header = {{"family", "gpu"}, {"row_kinds", {"transfer"}}};
    reporter.on_run_start(start, nlohmann::json::object());

    const pattern::offload_transfer one{.direction = pattern::transfer_direction::inout};
    auto r = report::paw_transfer_record("paw", "gpu_inout_pinned", "gpu_inout_pinned", one, measured());
    reporter.on_result(r);
    r.block.timing = "cuda_events";
    reporter.on_result(r);
    const pattern::offload_transfer two{.direction = pattern::transfer_direction::inout,
                                        .devices = {0, 1}};
    CHECK(report::paw_device_suffix(two.devices) == "_dev0+1");
    CHECK(report::paw_device_suffix({3}).empty());
    reporter.on_result(report::paw_transfer_record("paw", "gpu_inout_pinned",
                                                   "gpu_inout_pinned_dev0+1", two, measured()));
    reporter.on_run_end(true);

    CHECK(read(dir.path / "gpu_inout_pinned_time-np_1.dat") ==
          "# gpu_inout_pinned time per transfer [s]: bytes min max mean\n"
          " 1000000 1.000000e-04 3.000000e-04 2.000000e-04\n");
    CHECK(read(dir.path / "gpu_inout_pinned_bw-np_1.dat") ==
          "# gpu_inout_pinned bandwidth [GB/s = 10^9 bytes/s]: bytes min max mean\n"
          " 1000000 6.666667e+00 2.000000e+01 1.000000e+01\n");
    // the second method has files of its own
    CHECK(read(dir.path / "gpu_inout_pinned_cuda_events_bw-np_1.dat").find(
              " 1000000 6.666667e+00 2.000000e+01 1.000000e+01\n") != std::string::npos);
    // two devices at once move twice the bytes in the same time
    CHECK(read(dir.path / "gpu_inout_pinned_dev0+1_bw-np_1.dat").find(
              " 1000000 1.333333e+01 4.000000e+01 2.000000e+01\n") != std::string::npos);

    const std::string text = console.str();
    CHECK(text.find("transfer sizes are bytes; GB/s = 10^9 bytes/s") != std::string::npos);
    CHECK(text.find("# gpu_inout_pinned, 1 device, timed with the host clock") != std::string::npos);
    CHECK(text.find("# gpu_inout_pinned, 1 device, timed with cuda_events") != std::string::npos);
    CHECK(text.find("# gpu_inout_pinned_dev0+1, 2 devices") != std::string::npos);
    // the row: bytes, NLOOP, NREPS, times, then GB/s over the mean and over the median
    CHECK(text.find("   1000000      40     3  1.00000e-04  3.00000e-04  2.00000e-04  2.00000e-04") !=
          std::string::npos);
    // three repetitions are fewer than a 95 % CI of the median needs (min_ci_samples): flagged
    // as such, never as a 0 % or [min, max] interval
    CHECK(text.find("     10.00      10.00  ! no CI (3 samples)\n") != std::string::npos);
}

TEST_CASE("sizes: a transfer row counts bytes, a flop-counted row a matrix order", "[paw]") {
    const pattern::offload_transfer in{.direction = pattern::transfer_direction::in};
    auto r = report::paw_transfer_record("paw", "gpu_in", "gpu_in", in, measured());
    CHECK(r.unit == size_unit::bytes);
    report::add_flop_rates(r, pattern::compute_work{.flops_paw = 8.0, .flops_conventional = 6.0},
                           std::nullopt);
    CHECK(r.unit == size_unit::matrix_order);
    CHECK(r.metrics.at("matrix_order") == static_cast<double>(r.bytes));
}

}  // namespace paw_transfer_test
