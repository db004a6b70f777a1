// The options of the osu suite in OSU's spellings (OSU micro-benchmarks 7.x, osu_util): -m
// [MIN:]MAX message sizes, -i iterations and -x warm-up (both overriding OSU's small- and
// large-message counts, as OSU does), -W window size of the bandwidth tests, -c validation
// (parbench's check), -f full statistics (min, max, iterations), -z tail percentiles, -t MPI_Test
// calls during the nonblocking collectives' compute or [SENDERS:]RECEIVERS, the threads of
// latency_mt and the forked processes of latency_mp (OSU 7.5's three meanings of -t), -q the
// partitions of partitioned_latency, -N the neighbourhood collectives' topology, -a the
// collectives' device array size (taken, validated and recorded: no effect), -T the
// collectives' and point-to-point tests' datatype, -l MPI_IN_PLACE, -k the root of the rooted
// collectives, -M the memory limit per process, and for the one-sided tests -w window creation
// (create, allocate, dynamic) and -s synchronisation (lock, flush, flush_local, lock_all, pscw,
// fence). Each value is validated with one line naming the option (input_error -> BAD_INPUT);
// which -s a benchmark accepts is its definition's (checked in osu/suite.cpp once the benchmarks
// are chosen).
#pragma once

#include <parbench/mpi/rma_window.hpp>
#include <parbench/plugin/abi.h>
#include <parbench/plugin/request.hpp>
#include <parbench/policy/iterations.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace parbench::osu {

// OSU's -s choices, in OSU's spelling; the MPI calls each stands for are in sync_calls().
enum class sync { lock, flush, flush_local, lock_all, pscw, fence };

inline constexpr sync all_syncs[] = {sync::lock,     sync::flush, sync::flush_local,
                                     sync::lock_all, sync::pscw,  sync::fence};

[[nodiscard]] std::string_view to_string(sync s) noexcept;
// The "# Synchronization:" text of OSU's header.
[[nodiscard]] std::string_view sync_calls(sync s) noexcept;
// The "# Window creation:" text of OSU's header.
[[nodiscard]] std::string_view creation_call(mpi::window_creation c) noexcept;

// OSU's counts (osu_util.h): latency tests 10000 iterations after 100 warm-up, 1000 after 10
// above 8 KiB; bandwidth tests 100 after 10, 20 after 2 above 8 KiB; window 64.
inline constexpr policy::iterations::fixed_count latency_counts{
    .iterations = 10000, .skip = 100, .large_iterations = 1000, .large_skip = 10,
    .large_bytes = 8192};
inline constexpr policy::iterations::fixed_count bandwidth_counts{
    .iterations = 100, .skip = 10, .large_iterations = 20, .large_skip = 2, .large_bytes = 8192};
// Collective tests: 1000 after 100, 100 after 10 above 8 KiB (COLL_LOOP_*, COLL_SKIP_*).
inline constexpr policy::iterations::fixed_count collective_counts{
    .iterations = 1000, .skip = 100, .large_iterations = 100, .large_skip = 10,
    .large_bytes = 8192};
inline constexpr std::uint64_t default_window_size = 64;
inline constexpr std::uint64_t default_max_bytes = std::uint64_t{1} << 22;  // MAX_MSG_SIZE_PT2PT
inline constexpr std::uint64_t default_collective_max_bytes = std::uint64_t{1} << 20;  // _COLL
inline constexpr std::uint64_t default_mem_limit = std::uint64_t{1} << 29;  // 512 MiB (-M)
// latency_mt's and latency_mp's -t (osu_util.h: DEF_NUM_THREADS, DEF_NUM_PROCESSES 2, each count
// at least 1 and below 128), partitioned_latency's -q (DEFAULT_NUM_PARTITIONS 8).
inline constexpr std::uint64_t default_workers = 2;
inline constexpr std::uint64_t max_workers = 127;
inline constexpr std::uint64_t default_partitions = 8;
// -a: the collectives' device array size (osu_util.c:616, OSU 7.5's default 32)
inline constexpr std::uint64_t default_device_array_size = 32;
// mbw_mr -V's windows (osu_util.h:443-447, WINDOW_SIZES and WINDOW_SIZES_COUNT 8).
inline constexpr std::uint64_t varied_windows[] = {1, 2, 4, 8, 16, 32, 64, 128};

// -t as latency_mt and latency_mp read it (osu_util.c set_threads, set_processes): "R" sets the
// receiving side's count and leaves the sender's unset (OSU's -1: one sender thread; no forked
// sender process), "S:R" sets both.
struct worker_counts {
    std::optional<std::uint64_t> senders;
    std::uint64_t receivers = default_workers;
    bool given = false;       // -t was given
    bool both_given = false;  // as S:R (the nonblocking collectives take no such -t)
};

// -N: the neighbourhood collectives' topology (OSU 7.5, omb_nhbrhd_process_options): cart:D:R, a
// periodic D-dimensional grid of MPI_Dims_create's shape where each process's neighbours are
// every other process within R steps along each dimension, or graph:FILE, the edges "SRC,DEST"
// of a file (one per line, '#' lines skipped). OSU's default is cart:1:1.
struct neighborhood {
    bool graph = false;
    int dimensions = 1;
    int radius = 1;
    std::string file;                        // graph: its path
    std::vector<std::pair<int, int>> edges;  // graph: the file's edges, in its order
};

// -T (OSU 7.5): a collective's element datatype (osu/datatypes.hpp).
enum class datatype : std::uint8_t { mpi_char, mpi_int, mpi_float };

// -D (OSU 7.5's derived datatypes, --ddt; osu_util.c:1258-1303 reads it, osu_util_mpi.c:2948-3007
// makes the type): each message of X bytes, n = X / size(T) elements of -T's datatype T, is sent
// as one element of a derived datatype made per size (omb_ddt_get_size, osu_util_mpi.c:3018-3024):
//   cont            MPI_Type_contiguous(n, T): every element
//   vect:S:B        MPI_Type_vector(n / S, B, S, T): B of every S elements
//   indx:FILE       MPI_Type_indexed of FILE's lines "DISPLACEMENT,BLOCK_LENGTH" (elements; '#'
//                   lines skipped), whatever the size
// OSU's Transmit Size column is the bytes the type holds (transmit_elements() x size(T)).
enum class ddt_kind : std::uint8_t { none, contiguous, vector, indexed };

struct derived_datatype {
    ddt_kind kind = ddt_kind::none;
    std::uint64_t stride = 8;        // vect (OMB_DDT_STRIDE_DEFAULT, osu_util.h:197)
    std::uint64_t block_length = 4;  // vect (OMB_DDT_BLOCK_LENGTH_DEFAULT, osu_util.h:198)
    std::string file;                // indx: its path
    std::vector<int> displacements;  // indx: the file's entries, in elements, in its order
    std::vector<int> block_lengths;
    [[nodiscard]] bool given() const noexcept { return kind != ddt_kind::none; }
    // The elements of T one message of n elements carries (OSU's omb_ddt_assign return value).
    [[nodiscard]] std::uint64_t transmit_elements(std::uint64_t n) const noexcept {
        switch (kind) {
            case ddt_kind::vector: return n / stride * block_length;
            case ddt_kind::indexed: {
                std::uint64_t sum = 0;
                for (const int b : block_lengths) sum += static_cast<std::uint64_t>(b);
                return sum;
            }
            case ddt_kind::contiguous:
            case ddt_kind::none: break;
        }
        return n;
    }
    // The elements of T the type spans from its start: indx's last block's end; n otherwise.
    [[nodiscard]] std::uint64_t span_elements(std::uint64_t n) const noexcept {
        if (kind != ddt_kind::indexed) return n;
        std::uint64_t end = 0;
        for (std::size_t k = 0; k < displacements.size(); ++k)
            end = std::max(end, static_cast<std::uint64_t>(displacements[k]) +
                                    static_cast<std::uint64_t>(block_lengths[k]));
        return end;
    }
};

// -k (OSU 7.5): the root of the rooted collectives that take it (gather, gatherv, reduce,
// scatter, scatterv): fixed:N, or rotate, the root of iteration i being i % n (osu_util_mpi.c
// omb_get_root_rank, lines 964-974). OSU's default is fixed:0.
struct root_option {
    bool rotate = false;
    std::uint64_t rank = 0;
    bool given = false;  // -k was given (a test that takes none refuses it)
};

struct options {
    std::optional<sync> synchronization;  // -s; none: each benchmark's default
    mpi::window_creation creation = mpi::window_creation::allocate;  // -w (OSU 7: allocate)
    std::optional<std::uint64_t> min_bytes;       // -m MIN; none: the benchmark's smallest
    std::optional<std::uint64_t> max_bytes;       // -m MAX; none: the benchmark's default
    std::optional<std::uint64_t> iterations;      // -i: small and large messages alike
    std::optional<std::uint64_t> skip;            // -x
    std::uint64_t window_size = default_window_size;  // -W
    std::uint64_t mem_limit_bytes = default_mem_limit;  // -mem-limit (OSU 7.3's -M), per process
    bool check = false;          // -c (or the driver's --check)
    // The driver's --check: parbench's own, on every test that has a check (OSU's -c, a letter
    // of given_letters, only where OSU 7.5 takes it)
    bool driver_check = false;
    // -u N as given (OSU 7.5's validation warm-up, osu_util.c:1022-1037): never offered; a
    // test whose 7.5 string has no u refuses it as a letter it lacks (osu/suite.cpp)
    std::string validation_warmup;
    // -clog[:DIR]: where each process writes its validation log (DIR/log-RANK.log, OSU 7.5's
    // log_validation_dir_path); empty: no log
    std::string validation_log_dir;
    bool full = false;           // -f: min, max and iterations columns
    // -z [P,...]: a tail-latency column per percentile, in the order given (OSU 7.5's default
    // 50,90,99; at most OSU's OMB_STAT_MAX_NUM, 5); empty: no -z
    std::vector<int> percentiles;
    bool extra_columns = false;  // -extra: parbench's median and CI after OSU's columns
    // -batched: the collectives' calls and the window tests' windows timed as one loop with
    // no barrier between them (parbench's method); without it each call or window is timed on
    // its own, as OSU 7.5 does
    bool batched = false;
    // -t: MPI_Test calls during the dummy compute of the nonblocking collectives (OSU's
    // num_probes; 0: the compute runs in one piece with no MPI_Test)
    std::uint64_t test_calls = 0;
    worker_counts workers;  // -t as latency_mt's threads and latency_mp's processes
    std::uint64_t partitions = default_partitions;  // -q (partitioned_latency)
    // -a N (OSU 7.5's --array-size, set_device_array_size, osu_util.c:383-391, 823-830): the
    // side of the arrays of OSU's device compute kernel, which its CUDA-kernel build alone runs
    // (osu_util_mpi.c:3697-3740, do_compute_gpu :3403-3421); parbench's dummy compute runs on
    // the host, so it is recorded and changes nothing
    std::uint64_t device_array_size = default_device_array_size;
    neighborhood topology;  // -N
    root_option root;       // -k
    // -T as given, ALL as its three (MPI_CHAR, MPI_INT, MPI_FLOAT); empty: each collective's
    // default (osu/datatypes.hpp). suite::run measures one table per datatype.
    std::vector<datatype> datatypes;
    // The datatype of the table being measured (set by suite::run for the tests that take -T).
    datatype table_datatype = datatype::mpi_char;
    bool in_place = false;  // -l: MPI_IN_PLACE (OSU 7.5's omb_enable_mpi_in_place)
    // -b multiple: each message of a window on its own buffer (OSU 7.5's buf_num MULTIPLE);
    // -b single, the default, every message on one buffer
    bool multiple_buffers = false;
    // mbw_mr's -V: a table of MB/s per size and window over OSU's WINDOW_SIZES (osu/messages.hpp
    // varied_window_method), where -W's one window is otherwise measured
    bool vary_window = false;
    // -I: the tests on a communicator of an MPI session's mpi://WORLD process set (OSU 7.5's
    // omb_mpi_init, osu_util_mpi.c:658-687) instead of MPI_COMM_WORLD; MPI-4 only
    bool sessions = false;
    // -d cuda [SRC DST]: OSU 7.5's accelerator and buffer placements (H host, D device, M, MH, MD
    // managed; osu_util.c:858-905, 1190-1252), as given; empty: -d not given
    std::string accelerator;
    std::vector<std::string> placements;
    // -D: each message one element of a derived datatype (none: not given)
    derived_datatype ddt;
    // mbw_mr's -R 0|1: the Messages/s column (OSU 7.5's print_rate, default 1)
    bool print_rate = true;
    // mbw_mr's -p PAIRS as given: OSU 7.5 reads it (osu_util.c:820-822) and then overwrites it
    // with n/2 (osu_mbw_mr.c:56, :73), so the run has n/2 pairs whatever it says
    std::optional<std::uint64_t> pairs_given;
    bool print_rate_given = false;
    bool buffers_given = false;  // -b was given (a test that takes none refuses it)
    // an M placement of -d made -b single multiple (managed_placement): OSU 7.5's mbw_mr warns
    bool managed_made_multiple = false;
    // The one-letter options given, by their short form (OSU's long forms included; a flag given
    // as false is not): which of them a test takes is its definition's (osu/suite.hpp letters)
    std::string given_letters;
    [[nodiscard]] bool given(char letter) const noexcept {
        return given_letters.find(letter) != std::string::npos;
    }

    // OSU's counts of a kind of test with -i/-x applied.
    [[nodiscard]] policy::iterations::fixed_count counts(
        policy::iterations::fixed_count base) const noexcept {
        if (iterations) base.iterations = base.large_iterations = *iterations;
        if (skip) base.skip = base.large_skip = *skip;
        return base;
    }
};

// Validates the request's options; throws input_error with one line for a bad value or an
// option the suite does not have.
[[nodiscard]] options parse_options(const run_request& request);

// OSU's sizes: MIN, doubling, up to MAX (0 is followed by 1); MAX is -m's or `default_max`.
// `smallest` is where the test starts without -m: 0 for OSU's point-to-point latency tests, 1
// for the others; a MIN below it is taken as it, as OSU ignores a MIN of 0 there. A test on
// elements of `unit` bytes (reductions on MPI_FLOAT) starts at one element and measures whole
// elements only. Empty when no size of the range qualifies (suite::run refuses that run).
[[nodiscard]] std::vector<std::uint64_t> message_sizes(const options& o,
                                                       std::uint64_t default_max = default_max_bytes,
                                                       std::uint64_t unit = 1,
                                                       std::uint64_t smallest = 1);

// The parameter rows of the osu suite (plugin/abi.h).
[[nodiscard]] std::span<const parbench_parameter> parameters() noexcept;

// Whose message buffers -d puts where, by OSU 7.5's allocator of the test:
//   none    -d is not an option of the test (latency_mt, latency_mp: enable_accel_support,
//           osu_util.c:409-414, leaves d: out of their option strings; parbench's own tests)
//   host    -d is taken and changes nothing: the buffers stay on the host
//           (osu_get_acc_latency.c:695-745 allocates its own, on the host)
//   pair    process 0's where SRC says, process 1's where DST says (allocate_memory_pt2pt,
//           osu_util_mpi.c:2690-2769; allocate_memory_one_sided and allocate_atomic_memory,
//           :2854-2905; the others, idle beside the pair, use none)
//   halves  the first n/2 processes' where SRC says, the others' where DST says (multi_lat,
//           mbw_mr: allocate_memory_pt2pt_mul, :2522-2603)
//   every   every process's in the accelerator's memory whatever SRC and DST say: cudaMalloc
//           under -d cuda, cudaMallocManaged under -d managed (the collectives:
//           allocate_memory_coll(..., options.accel), :2359-2400, osu_allreduce.c:87-107)
//   fan_in  the senders' (the child nodes' processes, fan_nodes) where SRC says, the
//           receivers' (the parent node's) where DST says (bw_fan_in: allocate_memory_pt2pt
//           with rank !(0 == is_parent), osu_bw_fan_in.c:130-136, 164-168: a child node's
//           processes take SRC, the parent node's DST)
//   fan_out the parent node's (which send) where SRC says, the child nodes' where DST says
//           (bw_fan_out: rank !(1 == is_parent), osu_bw_fan_out.c:130-136, 164-168)
// In both fan tests the side that sends takes SRC, as in the pair tests.
enum class device_placement { none, host, pair, halves, every, fan_in, fan_out };

// The node of every world rank as bw_fan_in and bw_fan_out see them (OSU 7.5's omb_fan_init,
// osu_bw_fan_util.c:21-198): MPI's nodes (mpi/node.hpp world_nodes, numbered by their lowest
// rank), the parent node the one of process 0; where the run is on one node, which OSU 7.5
// refuses (:101-103), one node per process, process 0's the parent (docs/osu.md). Empty where
// the plugin did not gather the nodes.
[[nodiscard]] std::vector<int> fan_nodes();

// Whether a placement reads SRC and DST (the point-to-point and one-sided tests) rather than
// -d's accelerator alone.
[[nodiscard]] constexpr bool placed_by_side(device_placement rule) noexcept {
    return rule == device_placement::pair || rule == device_placement::halves ||
           rule == device_placement::fan_in || rule == device_placement::fan_out;
}

// Where -d puts this process's message buffers (its send and receive buffers alike) in a test
// of placement `rule`: 'H' host, 'D' device, 'M' managed. Without SRC DST SRC and DST are H,
// OSU's defaults (osu_util.c:645-646); without -d 'H'.
[[nodiscard]] char buffer_placement(const options& o, device_placement rule, int world_rank,
                                    int world_size) noexcept;

// Whether -d puts any process's buffers off the host (a placement other than H).
[[nodiscard]] bool device_buffers_asked(const options& o) noexcept;

// Whether SRC or DST is managed memory (M, MH or MD). OSU 7.5 then gives every message of a
// window its own buffer, whatever -b says: setAccel turns buf_num to MULTIPLE on a point-to-point
// program (osu_util.c:1366-1369, called for PT2PT under -d, :1245-1249), and osu_bw.c,
// osu_bibw.c, osu_bw_persistent.c, osu_bibw_persistent.c, osu_mbw_mr.c and the two congestion
// tests do it again in their own code (osu_mbw_mr.c:131-138, with a warning where -b single was
// in effect: mbw_mr is MBW_MR, not PT2PT, so setAccel left it single). parse_options sets
// multiple_buffers from it.
[[nodiscard]] bool managed_placement(const options& o) noexcept;

// The accelerator OSU 7.5 runs a test with under -d: "cuda", "managed", or "" (no -d). On a
// point-to-point test a device or managed SRC or DST makes it "cuda" (setAccel, called for
// PT2PT alone, turns MANAGED into CUDA: osu_util.c:1245-1249, :1361-1390); the others keep -d's.
[[nodiscard]] std::string_view effective_accelerator(const options& o,
                                                     bool point_to_point) noexcept;

}  // namespace parbench::osu
