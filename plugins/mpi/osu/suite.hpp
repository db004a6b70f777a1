// The osu suite's shared part: a catalogue of benchmark definitions, OSU's options, the choice of
// benchmarks, the run header (one OSU banner block per benchmark: window creation,
// synchronisation, datatype, column heading) and the refusal of runs that cannot host them.
// The one-sided tests (suites/osu.cpp, osu/one_sided.hpp) are its first definitions; the
// point-to-point and collective tests add theirs to the same catalogue.
#pragma once

#include "osu/options.hpp"

#include <parbench/plugin/abi.h>
#include <parbench/plugin/export.hpp>
#include <parbench/plugin/request.hpp>
#include <parbench/report/result.hpp>

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace parbench::osu {

// What every benchmark of one run shares.
struct run_state {
    const options* opts = nullptr;
    const plugin::host_channel* host = nullptr;
    int world_size = 1;
    int world_rank = 0;
};

// One column of OSU's table: its heading, the record's figure that fills it ("t_avg_us",
// "t_max_us" or a metric's name) and whether that figure is a rate (report/osu_console.hpp).
struct column_text {
    const char* heading = "Latency (us)";
    const char* figure = "t_max_us";
    bool rate = false;
};

// How OSU prints a benchmark's block: its banner ("OSU MPI_Put Latency Test"), the column
// heading and which figure fills it (the record's time, or a named metric) — or up to two
// `columns` —, the datatype line, whether the one-sided lines (window creation,
// synchronisation) belong to it, whether it is a latency table (OSU's -f and -z columns),
// whether it has sizes (not barrier) and mbw_mr's "# [ pairs: N ] [ window size: W ]" line.
struct block_text {
    const char* banner = nullptr;
    const char* heading = "Latency (us)";
    const char* metric = "";  // "": the record's time per iteration; else a metric's name
    const char* datatype = "MPI_CHAR";
    bool one_sided = false;
    std::array<column_text, 2> columns{};
    int column_count = 0;  // 0: the one column of heading and metric
    bool latency = false;
    bool sizes = true;
    bool pairs_line = false;
};

using run_fn = void (*)(const run_state&, std::string_view name);

struct benchmark {
    parbench_benchmark info;
    block_text text;
    std::span<const sync> syncs{};  // one-sided: the -s choices OSU offers for it
    sync default_sync = sync::flush;
    run_fn run = nullptr;
    bool all_processes = false;  // false: a pair, processes 0 and 1; true: every process
};

class suite {
public:
    // `test_only`: fault-injection benchmarks (PARBENCH_BENCH_TEST_ONLY) of the testing module.
    suite(const char* name, const char* description, std::span<const benchmark> catalogue,
          std::span<const benchmark> test_only = {});
    suite(const suite&) = delete;
    suite& operator=(const suite&) = delete;

    [[nodiscard]] parbench_suite info() const noexcept;
    // Collective over MPI_COMM_WORLD.
    void run(const run_request& request, const plugin::host_channel& host) const;

private:
    const char* name_;
    const char* description_;
    std::vector<benchmark> catalogue_;
    std::vector<parbench_benchmark> table_;
};

// OSU's MB/s (10^6 bytes/s) of a record: the bytes of one iteration over its time.
inline void add_bandwidth(result_record& r, double bytes_per_iteration) {
    const double t_us = r.headline_time_us();
    r.metrics["bandwidth_mb_s"] = t_us > 0.0 ? bytes_per_iteration / t_us : 0.0;
}

// The OSU release whose layout and defaults the suite follows.
inline constexpr const char* osu_version = "7.3";

}  // namespace parbench::osu
