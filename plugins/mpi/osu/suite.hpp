// The osu suite's shared part: a catalogue of benchmark definitions, OSU's options, the choice of
// benchmarks, the run header (one OSU banner block per benchmark: window creation,
// synchronisation, datatype; and each benchmark's declared columns, osu/table.hpp) and the
// refusal of runs that cannot host them.
// The one-sided tests (suites/osu.cpp, osu/one_sided.hpp) are its first definitions; the
// point-to-point and collective tests add theirs to the same catalogue.
#pragma once

#include "osu/options.hpp"
#include "osu/table.hpp"

#include <parbench/core/buffers.hpp>
#include <parbench/mpi/check.hpp>
#include <parbench/mpi/sweep.hpp>
#include <parbench/plugin/abi.h>
#include <parbench/plugin/export.hpp>
#include <parbench/plugin/request.hpp>
#include <parbench/report/result.hpp>

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace parbench::osu {

// What every benchmark of one run shares, and the block of the one being run.
struct run_state {
    const options* opts = nullptr;
    const plugin::host_channel* host = nullptr;
    int world_size = 1;
    int world_rank = 0;
    const block_text* text = nullptr;
    // The datatype line of the table being measured (-T), which its records carry; nullptr for
    // a test that takes no -T (its block's datatype line is the one).
    const char* datatype_name = nullptr;
    // The communicator the tests run on: MPI_COMM_WORLD, or -I's of an MPI session
    MPI_Comm comm = MPI_COMM_WORLD;
    // Where this process's message buffers of the test being run live (-d): nullptr, host
    // memory; else CUDA's device or managed memory (cuda_buffers.hpp)
    const memory_space* buffers = nullptr;
};

// Hands a record of the benchmark being run to the host, with the figures its table declares
// (osu/table.hpp).
void publish(const run_state& st, result_record& r);

// -clog[:DIR] (OSU 7.5's validation_log, osu_util_mpi.c:2297-2348): on the process whose check
// found mismatching elements at size `x`, reading the data of timed iteration `iteration`,
// OSU's lines appended to DIR/log-RANK.log (the directory made on the first one): `Size: X,
// Iteration:I, Datatype: T`, the Position / Expected / Actual heading and a line per listed
// element; where the check listed fewer than it counted (check::findings), a line saying how
// many more. A log that cannot be written is a warning.
void log_validation(const run_state& st, std::uint64_t x, std::uint64_t iteration,
                    const mpi::check::findings& found);

using run_fn = void (*)(const run_state&, std::string_view name);

// OSU 7.5's letters among the options the suite reads for every test (suite_letters) that a
// program's option string has (c/util/osu_util_options.h:62-164; the one-sided strings are
// built at osu_util.c:588-602): -m, -i, -x sizes, iterations, warm-up (every string's but
// STARTUP__INIT's, which is "I" alone, :142), -W window, -t MPI_Test calls, threads or
// processes, -q partitions, -N topology, -s and -w one-sided synchronisation and window
// creation, -f full statistics, -z tail latency, -c validation, -u validation warm-up (which
// parbench does not offer where it is taken: suite.cpp), -I sessions, -a device array size. The
// plain and the accelerator build agree on these letters. A test given one of them that its
// string lacks is refused, as OSU's getopt ends in "Invalid option [-W]" (suite.cpp
// options_not_taken). By the name of OSU's macro (OMBOP__<bench>__<subtype>).
namespace letters {
inline constexpr char suite_letters[] = "mixWtqNswfzcuIa";
// PT2PT__LAT: latency, multi_lat, latency_persistent
inline constexpr char lat[] = "mixczuI";
inline constexpr char part_lat[] = "mixqczuI";   // PT2PT__PART_LAT
// PT2PT__BW (its -t never read, osu_util.c:760-783)
inline constexpr char bw[] = "mixtWczuI";
inline constexpr char lat_mt[] = "mixtczuI";     // PT2PT__LAT_MT and __LAT_MP
inline constexpr char cong_bw[] = "mixWzI";      // PT2PT__CONG_BW: no c, no u
inline constexpr char mbw_mr[] = "mixWczuI";     // MBW_MR
// COLLECTIVE__ALLTOALL ... __REDUCE_SCATTER and their persistent forms (_P); -a sizes OSU's
// device compute kernel (docs/osu.md)
inline constexpr char collective[] = "mixfazcuI";
inline constexpr char barrier[] = "mixfazuI";       // COLLECTIVE__BARRIER, __BARRIER_P: no c
inline constexpr char nbc[] = "mixftazcuI";         // COLLECTIVE__NBC_*
inline constexpr char nbc_barrier[] = "mixftazI";   // COLLECTIVE__NBC_BARRIER: no c, no u
inline constexpr char nhbr[] = "mixfazcuIN";        // COLLECTIVE__NHBR_*
inline constexpr char nbc_nhbr[] = "mixftazcuIN";   // COLLECTIVE__NBC_NHBR_*
inline constexpr char one_sided_lat[] = "mixswzcI";   // ONE_SIDED, LAT: no u
inline constexpr char one_sided_bw[] = "mixswzcIW";   // ONE_SIDED, BW: no u
inline constexpr char init[] = "I";                   // STARTUP__INIT: not even -m -i -x
}  // namespace letters

// What a window of -W transfers costs a process: nothing (the latency tests), two MPI requests
// per transfer, all in flight at once (bw, bibw, mbw_mr), or a section of the window and of the
// origin buffer per transfer (the one-sided bandwidth tests).
enum class window_use { none, requests, sections };

struct benchmark {
    parbench_benchmark info;
    block_text text;
    std::span<const sync> syncs{};  // one-sided: the -s choices OSU offers for it
    sync default_sync = sync::flush;
    run_fn run = nullptr;
    bool all_processes = false;  // false: a pair, processes 0 and 1; true: every process
    bool even_processes = false;  // pairs r <-> r + n/2 with no process left over (multi_lat)
    // Its sizes (message_sizes()): -m applies where `sized`; OSU's default MAX, the element size
    // and the size it starts at without -m.
    bool sized = true;
    std::uint64_t max_bytes = default_max_bytes;
    std::uint64_t unit = 1;
    std::uint64_t smallest = 1;
    window_use window = window_use::none;
    // Why it cannot run on this many processes with this MPI library (empty: it can), where a
    // library's defect would abort the run (scatter_persistent on MPICH 4.0).
    std::string (*refusal)(int world_size) = nullptr;
    // Why it cannot run with these options on this many processes (the neighbourhood tests'
    // -N topology), or empty.
    std::string (*refusal_with)(const options& o, int world_size) = nullptr;
    // The fewest processes it runs on: OSU's start-up programs (init, hello) run on one.
    int min_processes = 2;
    // The '#' lines between its banner and its datatype line where they depend on the options
    // (latency_mt's thread counts, latency_mp's forked processes, partitioned_latency's
    // partitions); they replace the nonblocking tests' "# Overall = ..." lines.
    std::vector<std::string> (*header_lines)(const options& o) = nullptr;
    // The header lines come before the banner and its empty line (latency_mt, latency_mp).
    bool header_lines_first = false;
    // The options of OSU 7.5 it takes where not every test does (osu_util_options.h's option
    // strings): -T (one table per datatype, osu/datatypes.hpp), -l (MPI_IN_PLACE), -k (root) and
    // -b (one buffer per message of a window).
    // `reduction`: its elements are summed (-T's default MPI_INT; MPI_CHAR as MPI_SIGNED_CHAR).
    bool takes_datatype = false;
    // Without -T its records name their datatype too (the collectives); false: they name none
    // (the point-to-point tests, whose records kept their names when -T reached them)
    bool names_default_datatype = true;
    bool takes_in_place = false;
    bool takes_root = false;
    bool takes_buffers = false;  // -b single|multiple
    // -b under -d: OSU 7.5's accelerator build drops b: from the latency option strings
    // (OMBOP__ACCEL__PT2PT__LAT and __PART_LAT, osu_util_options.h:64-65) and keeps it elsewhere
    bool takes_buffers_with_accelerator = true;
    // -p, -R and -V under -d where the test has no pairs line: OSU 7.5's accelerator build gives
    // the congestion tests mbw_mr's letters (OMBOP__ACCEL__PT2PT__CONG_BW, osu_util_options.h:
    // 75), which osu_bw_fan_in.c and osu_bw_fan_out.c never read: taken and ignored
    bool takes_pairs_options_with_accelerator = false;
    // Every option of the suite taken and ignored: osu_hello.c reads no options at all
    bool ignores_options = false;
    bool takes_ddt = false;      // -D (osu/options.hpp derived_datatype)
    bool reduction = false;
    // -d's device or managed buffers: whose go where (osu/options.hpp device_placement; the
    // session's pools, the one-sided tests' window and origin memory), or none: -d refused
    device_placement device_buffers = device_placement::none;
    // Its letters of letters::suite_letters (OSU 7.5's option string's); nullptr: not an OSU 7.5
    // program (bcast_ack, the testing module's), every letter taken
    const char* osu_letters = nullptr;
};

// The sizes one benchmark's sweep skipped for -M or a failed allocation, said once by rank 0
// after the sweep: without it a run whose every size was skipped ends in "nothing was measured"
// with no reason.
void report_skips(const run_state& st, std::string_view name, const mpi::size_notes& notes);

class suite {
public:
    // The catalogue comes in parts (each translation unit's), concatenated in the order given;
    // `test_only`: fault-injection benchmarks (PARBENCH_BENCH_TEST_ONLY) of the testing module.
    suite(const char* name, const char* description,
          std::initializer_list<std::span<const benchmark>> catalogue,
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

// OSU 7.5's start-up programs (init, hello) and congestion tests (bw_fan_in, bw_fan_out):
// suites/osu_startup.cpp's part of the catalogue.
[[nodiscard]] std::span<const benchmark> startup_programs();

// OSU's MB/s (10^6 bytes/s) of a record: the bytes of one iteration over its time.
inline void add_bandwidth(result_record& r, double bytes_per_iteration) {
    const double t_us = figure_time_us(r);
    message_rates_of(r).bandwidth_mb_s = t_us > 0.0 ? bytes_per_iteration / t_us : 0.0;
}

// OSU's messages/s of a record with a message rate (mbw_mr): the messages of one iteration over
// its figure's time, as its MB/s (the runner's rate is over the slowest process's time).
inline void add_message_rate(result_record& r, double messages_per_iteration) {
    const double t_us = figure_time_us(r);
    message_rates_of(r).messages_per_s = t_us > 0.0 ? messages_per_iteration * 1e6 / t_us : 0.0;
}

// The nonblocking collective tests (osu_iallgather ... osu_iscatterv), in OSU's order; their
// part of the catalogue, defined in suites/osu_nbc.cpp.
[[nodiscard]] std::span<const benchmark> nonblocking_catalogue() noexcept;

// The neighbourhood collective tests (osu_neighbor_allgather ... osu_ineighbor_alltoallw); their
// part of the catalogue, defined in suites/osu_neighbor.cpp.
[[nodiscard]] std::span<const benchmark> neighborhood_catalogue() noexcept;

// OSU 7.5's variants of the latency test (osu_latency_mt, osu_latency_mp,
// osu_partitioned_latency): suites/osu_latency_variants.cpp's part of the catalogue.
[[nodiscard]] std::span<const benchmark> latency_variants();

// The OSU release whose layout and defaults the suite follows.
inline constexpr const char* osu_version = "7.5";

}  // namespace parbench::osu
