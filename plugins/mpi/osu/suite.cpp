#include "osu/suite.hpp"

#include "osu/datatypes.hpp"

#include "cuda_buffers.hpp"

#include <parbench/core/error.hpp>
#include <parbench/core/names.hpp>
#include <parbench/mpi/environment.hpp>
#include <parbench/core/clock.hpp>
#include <parbench/mpi/timed_loop.hpp>
#include <parbench/report/mpi_suite_context.hpp>
#include <parbench/report/osu_header.hpp>
#include <parbench/report/stability.hpp>

#include <mpi.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string_view>

#include <sys/stat.h>

#ifndef PARBENCH_PLUGIN_VERSION
#define PARBENCH_PLUGIN_VERSION "0.0.0"
#endif

namespace parbench::osu {
namespace suite_impl {
namespace {

// The catalogue entries this run measures: the names given, else every default benchmark.
[[nodiscard]] std::vector<const benchmark*> chosen(std::span<const benchmark> catalogue,
                                                   const run_request& request) {
    std::vector<const benchmark*> out;
    if (request.benchmarks.empty()) {
        for (const auto& b : catalogue)
            if ((b.info.flags & PARBENCH_BENCH_DEFAULT) != 0u) out.push_back(&b);
        return out;
    }
    for (const auto& name : request.benchmarks) {
        const auto it = std::find_if(catalogue.begin(), catalogue.end(), [&](const benchmark& b) {
            return same_name(b.info.name, name);
        });
        if (it == catalogue.end())
            throw input_error("unknown benchmark '" + name + "' in suite osu");
        if (std::find(out.begin(), out.end(), &*it) == out.end()) out.push_back(&*it);
    }
    return out;
}

[[nodiscard]] std::string sync_list(std::span<const sync> syncs) {
    std::string text;
    for (const sync s : syncs) text += (text.empty() ? "" : ", ") + std::string(to_string(s));
    return text;
}

// The datatypes of b's tables in this run: -T's, or b's default; none for a test without -T.
[[nodiscard]] std::vector<datatype> tables_of(const options& o, const benchmark& b) {
    if (!b.takes_datatype) return {};
    if (o.datatypes.empty()) return {default_datatype(b.reduction)};
    return o.datatypes;
}

// The element size b's sizes are whole multiples of: its smallest datatype's under -T.
[[nodiscard]] std::uint64_t unit_of(const options& o, const benchmark& b) {
    const std::vector<datatype> tables = tables_of(o, b);
    if (tables.empty()) return b.unit;
    std::uint64_t unit = element_bytes(tables.front());
    for (const datatype d : tables) unit = std::min<std::uint64_t>(unit, element_bytes(d));
    return unit;
}

// The datatype whose elements are the unit, for the refusal's words.
[[nodiscard]] std::string unit_name(const options& o, const benchmark& b) {
    const std::uint64_t unit = unit_of(o, b);
    for (const datatype d : tables_of(o, b))
        if (element_bytes(d) == unit) return datatype_name(d, b.reduction);
    return b.text.datatype != nullptr ? b.text.datatype : "MPI_CHAR";
}

// Why `b` cannot run in this run, or nothing: a -m range that holds none of its sizes (OSU
// would print a header and no rows), or an odd process count for a test that pairs r with
// r + n/2 (OSU 7.5's osu_multi_lat would leave its last process waiting for ever).
[[nodiscard]] std::string cannot_run(const options& o, const benchmark& b, int world_size) {
    if (b.refusal != nullptr)
        if (std::string why = b.refusal(world_size); !why.empty()) return why;
    if (b.refusal_with != nullptr)
        if (std::string why = b.refusal_with(o, world_size); !why.empty()) return why;
    if (b.even_processes && world_size % 2 != 0)
        return std::string(b.info.name) + " needs an even number of processes (it pairs " +
               "process r with r + n/2); the run has " + std::to_string(world_size);
    const std::uint64_t unit = unit_of(o, b);
    if (b.takes_ddt && o.ddt.kind == ddt_kind::indexed && b.sized) {
        const std::vector<std::uint64_t> sizes = message_sizes(o, b.max_bytes, unit, b.smallest);
        if (std::none_of(sizes.begin(), sizes.end(),
                         [&](std::uint64_t x) { return ddt_fits(o, unit, x); }))
            return "-D indx:" + o.ddt.file + ": " + b.info.name +
                   " has no message size in this -m range that holds the type's last block (" +
                   std::to_string(o.ddt.span_elements(0)) + " elements)";
    }
    if (!b.sized || !message_sizes(o, b.max_bytes, unit, b.smallest).empty()) return {};
    const std::string max = std::to_string(o.max_bytes.value_or(b.max_bytes));
    const std::string range = o.min_bytes ? std::to_string(*o.min_bytes) + ":" + max : max;
    const std::string why =
        unit > 1 ? "it sends whole " + std::to_string(unit) + "-byte " + unit_name(o, b) +
                       " elements"
                   : "its messages start at " + std::to_string(b.smallest) + " byte" +
                         (b.smallest == 1 ? "" : "s") + ", as OSU's";
    return "-m " + range + ": " + b.info.name + " has no message size in this range (" + why +
           ")";
}

// Whether `b` takes OSU 7.5's letter `letter` of letters::suite_letters.
[[nodiscard]] bool takes_letter(const benchmark& b, char letter) {
    return b.ignores_options || b.osu_letters == nullptr ||
           std::string_view(b.osu_letters).find(letter) != std::string_view::npos;
}

// The options `b` runs with: -D, -c, -f and -z only where it takes them (the default set runs
// the others without them, as refuse_options_not_taken's warning says; the other letters change
// nothing where they are not taken).
[[nodiscard]] options options_of(const options& o, const benchmark& b) {
    options mine = o;
    if (!b.takes_ddt) mine.ddt = {};
    if (!takes_letter(b, 'c') && !o.driver_check) mine.check = false;
    if (!takes_letter(b, 'c')) mine.validation_log_dir.clear();
    if (!takes_letter(b, 'f')) mine.full = false;
    if (!takes_letter(b, 'z')) mine.percentiles.clear();
    return mine;
}

// -W: the most transfers of one window. MPI libraries hold a request object per nonblocking
// call in flight and run out of them (MPICH 4.0 asserts in mpir_request.h near 2^18 per
// process; bibw has 2 W in flight); far above the 64 to 128 OSU uses.
constexpr std::uint64_t max_window_size = std::uint64_t{1} << 16;

// What -W costs `b` per process at its smallest size must fit -M, and a window must stay within
// max_window_size; refused before anything is allocated.
void refuse_oversized_window(const options& o, const benchmark& b) {
    if (b.window == window_use::none) return;
    // -V: mbw_mr's largest of OSU's windows, whatever -W says
    const std::uint64_t w = o.vary_window && b.text.pairs_line
                                ? std::max(o.window_size, std::end(varied_windows)[-1])
                                : o.window_size;
    const std::vector<std::uint64_t> sizes = message_sizes(o, b.max_bytes, b.unit, b.smallest);
    const std::uint64_t x = sizes.empty() ? 1 : std::max<std::uint64_t>(sizes.front(), 1);
    // requests: the kernel's 2 W handles; sections: W sections of the window and W origin slots
    const std::uint64_t per_transfer =
        b.window == window_use::requests ? 2 * sizeof(MPI_Request) : 2 * x;
    const std::string option = "-W " + std::to_string(w) + ": ";
    if (w > o.mem_limit_bytes / per_transfer)
        throw input_error(option + b.info.name + "'s window needs " + std::to_string(per_transfer) +
                          " bytes per transfer (" +
                          (b.window == window_use::requests
                               ? std::string("its MPI requests")
                               : "window and origin at " + std::to_string(x) +
                                     (x == 1 ? " byte" : " bytes")) +
                          "), above -mem-limit " + std::to_string(o.mem_limit_bytes) + " at " +
                          std::to_string(w) + " transfers; at most " +
                          std::to_string(o.mem_limit_bytes / per_transfer) + " fit");
    if (w > max_window_size)
        throw input_error(option + "at most " + std::to_string(max_window_size) +
                          " transfers per window (" + b.info.name +
                          " keeps them in flight at once; MPI libraries run out of requests "
                          "beyond, MPICH near 2^18)");
}

// Those of -T, -l, -k, -b, -R, -p, -V, -D, the letters of letters::suite_letters (-m, -i, -x,
// -W, -t, -q, -N, -s, -w, -f, -z, -c, -u, -I, -a: benchmark::osu_letters) and -d given that `b`
// does not take, in that order (OSU 7.5's option strings, c/util/osu_util_options.h:62-164,
// and under -d its accelerator build's, end its getopt in "Invalid option [-W]", status 1).
[[nodiscard]] std::vector<std::string> options_not_taken(const options& o, const benchmark& b) {
    if (b.ignores_options) return {};
    const bool accelerator = !o.accelerator.empty();
    const bool buffers = b.takes_buffers && (!accelerator || b.takes_buffers_with_accelerator);
    const bool pairs_options =
        b.text.pairs_line || (accelerator && b.takes_pairs_options_with_accelerator);
    std::vector<std::string> out;
    const auto refuse = [&](bool given, bool taken, const char* option) {
        if (given && !taken) out.emplace_back(option);
    };
    refuse(!o.datatypes.empty(), b.takes_datatype, "-T");
    refuse(o.in_place, b.takes_in_place, "-l");
    refuse(o.root.given, b.takes_root, "-k");
    refuse(o.buffers_given, buffers, "-b");
    refuse(o.print_rate_given, pairs_options, "-R");  // mbw_mr's
    refuse(o.pairs_given.has_value(), pairs_options, "-p");
    refuse(o.vary_window, pairs_options, "-V");
    refuse(o.ddt.given(), b.takes_ddt, "-D");
    for (const char letter : std::string_view(letters::suite_letters))
        if (o.given(letter) && !takes_letter(b, letter)) out.push_back(std::string("-") + letter);
    refuse(accelerator, b.device_buffers != device_placement::none, "-d");
    return out;
}

// Options a chosen test does not take (options_not_taken): the tests named whose first such
// option is the first test's are refused in one line naming them all; the default set runs such
// tests without the options and the returned warning says which (empty: nothing to say). -l is not
// offered with -c (the check fills the send buffer that MPI_IN_PLACE leaves unread).
[[nodiscard]] std::string refuse_options_not_taken(const options& o,
                                                   const std::vector<const benchmark*>& run,
                                                   const run_request& request) {
    // OSU 7.5: "Derived data type does not support validation" (osu_util.c:961-966, 1077-1082)
    if (o.ddt.given() && o.check)
        throw input_error("-D: not offered with -c (OSU 7.5: derived datatypes do not support "
                          "validation)");
    if (o.in_place && o.check)
        throw input_error("-l: not offered with -c (parbench's check fills the send buffer, "
                          "which MPI_IN_PLACE leaves unread)");
    // OSU 7.5's -V table has MB/s cells alone (osu_mbw_mr.c:244-285): no Validation or tail
    // column to show -c's or -z's figures in
    if (o.vary_window && (o.check || !o.percentiles.empty()))
        throw input_error(std::string("-V: not offered with ") + (o.check ? "-c" : "-z") +
                          " (OSU 7.5's varied-window table has no column for it)");
    std::string ignored;
    std::string refused_option;
    std::string refused_tests;
    bool init_alone = true;  // every test refused is init (OSU 7.5's osu_init)
    for (const benchmark* b : run) {
        const std::vector<std::string> options = options_not_taken(o, *b);
        if (options.empty()) continue;
        if (request.benchmarks.empty()) {
            std::string list;
            for (const std::string& option : options) list += (list.empty() ? "" : " ") + option;
            ignored += (ignored.empty() ? "" : ", ") + std::string(b->info.name) + " (" + list +
                       ")";
            continue;
        }
        const std::string& option = options.front();
        if (refused_option.empty()) refused_option = option;
        if (option == refused_option) {
            refused_tests += (refused_tests.empty() ? "" : ", ") + std::string(b->info.name);
            init_alone = init_alone && b->osu_letters == letters::init;
        }
    }
    // OSU takes -T and -D on some of these
    if (refused_option == "-T" || refused_option == "-D" || refused_option == "-d")
        throw input_error(refused_option + ": not offered on " + refused_tests +
                          " (docs/osu.md lists the tests that take it)");
    // OSU 7.5's words: its getopt's "Invalid option [-W]" (osu_util.c:1165-1168, printed by
    // print_bad_usage_message, osu_util_mpi.c:245-262); osu_init's string "I" has no leading
    // ':', so getopt itself says "invalid option -- 'm'" there (and osu_init.c:29-37 runs on)
    if (!refused_option.empty()) {
        throw input_error(refused_option + ": not an option of " + refused_tests +
                          " (OSU 7.5 does not take it there: " +
                          (init_alone ? "osu_init: invalid option -- '" +
                                            refused_option.substr(1) + "'"
                                      : "Invalid option [" + refused_option + "]") +
                          "; see docs/osu.md)");
    }
    // -u where every test named takes it (or in the default set): parbench has no validation
    // warm-up to give it (hello ignores it, as osu_hello.c reads no options)
    if (o.given('u') && std::any_of(run.begin(), run.end(), [](const benchmark* b) {
            return !b->ignores_options && takes_letter(*b, 'u');
        }))
        throw input_error("-u " + o.validation_warmup +
                          ": not offered: OSU repeats each validated exchange untimed first; "
                          "parbench's -c checks once, after the timed iterations");
    return ignored.empty() ? std::string{}
                           : "osu: run without the options they do not take: " + ignored;
}

// -d (OSU 7.5's device buffers, osu_util.c:858-905, 1190-1252): the memory spaces the run's
// tests place buffers in (osu/options.hpp device_placement: SRC and DST on the point-to-point
// and one-sided tests, -d's accelerator on the collectives), asked of the MPI library and the
// CUDA runtime as imb-mpi1's -accelerator cuda asks them (cuda_buffers.hpp); none where every
// buffer stays on the host. -c fills and reads them through the spaces' copies (as OSU 7.5's
// set_buffer_validation and validate_data copy with cudaMemcpy; mpi/resource.hpp,
// mpi/rma_window.hpp). Refused in one line naming the -d given: an accelerator parbench has no
// buffers of, an MPI library that is not CUDA-aware (its reason), no CUDA runtime or device.
// Collective over MPI_COMM_WORLD.
struct device_spaces {
    const memory_space* device = nullptr;
    const memory_space* managed = nullptr;
    // the space of placement 'H', 'D' or 'M' (osu/options.hpp buffer_placement)
    [[nodiscard]] const memory_space* of(char placement) const noexcept {
        return placement == 'D' ? device : placement == 'M' ? managed : nullptr;
    }
};

[[nodiscard]] device_spaces device_buffers(const options& o,
                                          const std::vector<const benchmark*>& run) {
    if (o.accelerator.empty()) return {};
    std::string given = "-d " + o.accelerator;
    for (const auto& p : o.placements) given += " " + p;
    if (o.accelerator != "cuda" && o.accelerator != "managed")
        throw input_error(given + ": parbench has no " + o.accelerator +
                          " buffers (only CUDA's)");
    bool device = false;
    bool managed = false;
    for (const benchmark* b : run) {
        const bool every = b->device_buffers == device_placement::every;
        const bool by_side = placed_by_side(b->device_buffers);
        device |= every && o.accelerator == "cuda";
        managed |= every && o.accelerator == "managed";
        for (const auto& p : o.placements) {
            device |= by_side && p.front() == 'D';
            managed |= by_side && p.front() == 'M';
        }
    }
    if (!device && !managed) return {};
    device_spaces spaces;
    try {
        spaces.device = mpi_plugin::cuda_memory_space();  // a CUDA-aware MPI and a device
        if (managed) spaces.managed = mpi_plugin::cuda_managed_memory_space();
    } catch (const input_error& e) {
        std::string why = e.what();
        if (const auto colon = why.find(": "); colon != std::string::npos)
            why = why.substr(colon + 2);
        throw input_error(given + ": " + why);
    }
    return spaces;
}

// -I (OSU 7.5's omb_mpi_init, osu_util_mpi.c:658-687): a communicator of the process set
// mpi://WORLD of an MPI session (MPI_Session_init, MPI_Group_from_session_pset,
// MPI_Comm_create_from_group), freed with its session when the run ends. The MPI plugin has
// initialised the world model already; MPI-4 lets both live side by side.
class session_world {
public:
    explicit session_world(bool wanted) {
        if (!wanted) return;
#if MPI_VERSION >= 4
        MPI_Group group = MPI_GROUP_NULL;
        const bool made =
            MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session_) == MPI_SUCCESS &&
            MPI_Group_from_session_pset(session_, "mpi://WORLD", &group) == MPI_SUCCESS &&
            MPI_Comm_create_from_group(group, "parbench.osu", MPI_INFO_NULL,
                                       MPI_ERRORS_ARE_FATAL, &comm_) == MPI_SUCCESS;
        if (group != MPI_GROUP_NULL) MPI_Group_free(&group);
        if (!made) {
            release();
            throw std::runtime_error("-I: the MPI library made no communicator of an MPI "
                                     "session's mpi://WORLD");
        }
#endif
    }
    session_world(const session_world&) = delete;
    session_world& operator=(const session_world&) = delete;
    ~session_world() { release(); }
    [[nodiscard]] MPI_Comm comm() const noexcept {
        return comm_ == MPI_COMM_NULL ? MPI_COMM_WORLD : comm_;
    }

private:
    void release() noexcept {
        if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
#if MPI_VERSION >= 4
        if (session_ != MPI_SESSION_NULL) MPI_Session_finalize(&session_);
#endif
    }
    MPI_Comm comm_ = MPI_COMM_NULL;
#if MPI_VERSION >= 4
    MPI_Session session_ = MPI_SESSION_NULL;
#endif
};

// OSU 7.5's banner under -d: the accelerator after the banner's second word, where the program's
// BENCHMARK has a %s there ("OSU MPI%s Latency Test", "OSU MPI_Put%s Latency Test"). What
// names it: print_preamble and print_header_one_sided CUDA alone (osu_util_mpi.c:348-372,
// :561-586: MANAGED falls to their default, ""), print_preamble_nbc MANAGED too ("-MANAGED",
// :456-483); a point-to-point test's device or managed SRC or DST makes the accelerator CUDA
// (effective_accelerator).
[[nodiscard]] std::string banner_under_accelerator(const benchmark& b, const options& o) {
    std::string banner = b.text.banner;
    if (b.device_buffers == device_placement::none || !b.text.names_accelerator) return banner;
    const bool by_side = placed_by_side(b.device_buffers);
    const std::string_view accelerator = effective_accelerator(o, by_side && !b.text.one_sided);
    const bool nbc = b.text.nonblocking && b.device_buffers == device_placement::every;
    const char* suffix = accelerator == "cuda"               ? "-CUDA"
                         : accelerator == "managed" && nbc ? "-MANAGED"
                                                           : nullptr;
    const std::size_t second_word_end = banner.find(' ', banner.find(' ') + 1);
    if (suffix != nullptr && second_word_end != std::string::npos)
        banner.insert(second_word_end, suffix);
    return banner;
}

// The one-sided tests' buffer placement line under -d cuda (print_header_one_sided,
// osu_util_mpi.c:377-391: after the datatype line, only for CUDA, OpenACC, ROCm and SYCL).
[[nodiscard]] std::vector<std::string> one_sided_memory_lines(const benchmark& b,
                                                              const options& o) {
    if (!b.text.one_sided || b.device_buffers != device_placement::pair ||
        effective_accelerator(o, false) != "cuda")
        return {};
    const auto where = [&](std::size_t side) -> std::string {
        const char p = side < o.placements.size() ? o.placements[side].front() : 'H';
        return p == 'M' ? "MANAGED (M)" : p == 'D' ? "DEVICE (D)" : "HOST (H)";
    };
    return {"# Rank 0 Memory on " + where(0) + " and Rank 1 Memory on " + where(1)};
}

[[nodiscard]] run_start make_run_start(const options& o, const run_state& st,
                                       const std::vector<const benchmark*>& run) {
    const auto clock = measure_clock(mpi::wtime_clock{});
    run_start start;
    start.suite = "osu";
    start.layout = "osu";
    start.title = std::string("parbench " PARBENCH_PLUGIN_VERSION ", OSU micro-benchmarks ") +
                  osu_version + " compatible";
    report::osu_header header{.osu_version = osu_version};
    for (const benchmark* b : run) {
        start.benchmarks.emplace_back(b->info.name);
        report::osu_header_block block{.banner = banner_under_accelerator(*b, o)};
        block.datatype = b->text.datatype != nullptr ? std::optional<std::string>(b->text.datatype)
                                                     : std::nullopt;
        // -T: the first table's; each record names its own (block.datatype)
        if (const std::vector<datatype> tables = tables_of(o, *b); !tables.empty())
            block.datatype = datatype_name(tables.front(), b->reduction);
        // OSU 7.5's print_preamble and print_preamble_nbc start with an empty line; the
        // one-sided, mbw_mr and start-up programs print their banner first.
        block.empty_line_before =
            !b->text.one_sided && !b->text.pairs_line && b->text.row_text.empty();
        block.row_text.assign(b->text.row_text.begin(), b->text.row_text.end());
        if (b->text.pairs_line && o.vary_window) {
            // osu_mbw_mr.c:159-162; the matrix's heading and rows: report/osu_console.hpp
            block.lines = {"# [ pairs: " + std::to_string(st.world_size / 2) +
                               " ] [ window size: varied ]",
                           "", "# Uni-directional Bandwidth (MB/sec)"};
            block.window_matrix = report::osu_header_window_matrix{
                .windows = std::vector<std::uint64_t>(std::begin(varied_windows),
                                                      std::end(varied_windows)),
                .rate_profile = o.print_rate};
        } else if (b->text.pairs_line) {
            block.lines = {"# [ pairs: " + std::to_string(st.world_size / 2) +
                           " ] [ window size: " + std::to_string(o.window_size) + " ]"};
        }
        if (b->text.nonblocking)  // print_preamble_nbc's line and the empty line after it
            block.lines = {"# Overall = Coll. Init + Compute + MPI_Test + MPI_Wait", ""};
        if (b->header_lines != nullptr)
            (b->header_lines_first ? block.lines_before : block.lines) = b->header_lines(o);
        block.lines_after_datatype = one_sided_memory_lines(*b, o);
        if (b->text.one_sided)
            block.window = report::osu_header_window{
                .creation = std::string(creation_call(o.creation)),
                .synchronization =
                    std::string(sync_calls(o.synchronization.value_or(b->default_sync)))};
        header.blocks[b->info.name] = std::move(block);
        start.columns[b->info.name] = table_columns(b->text, options_of(o, *b));
    }
    start.header = header;  // report/osu_header.hpp
    int thread_level = MPI_THREAD_SINGLE;
    MPI_Query_thread(&thread_level);
    start.context = report::mpi_suite_context{.mpi_library = mpi::library_version(),
                                              .processes = st.world_size};
    start.context.update({
        {"thread_level", std::string(mpi::thread_level_name(thread_level))},
        {"timer", "MPI_Wtime"},
        {"options",
         {{"m", (o.min_bytes ? std::to_string(*o.min_bytes) : std::string("default")) + ":" +
                    (o.max_bytes ? std::to_string(*o.max_bytes) : std::string("default"))},
          {"M", o.mem_limit_bytes},
          {"f", o.full},
          {"t", o.workers.both_given ? nlohmann::json(std::to_string(*o.workers.senders) + ":" +
                                                      std::to_string(o.workers.receivers))
                                     : nlohmann::json(o.test_calls)},
          {"q", o.partitions},
          {"a", o.device_array_size},
          {"z", !o.percentiles.empty()},
          {"z_percentiles", o.percentiles},
          {"i", o.iterations ? nlohmann::json(*o.iterations) : nlohmann::json(nullptr)},
          {"x", o.skip ? nlohmann::json(*o.skip) : nlohmann::json(nullptr)},
          {"W", o.window_size},
          {"w", std::string(mpi::to_string(o.creation))},
          {"s", o.synchronization ? nlohmann::json(std::string(to_string(*o.synchronization)))
                                  : nlohmann::json(nullptr)},
          {"T", [&] {
               nlohmann::json names = nlohmann::json::array();
               for (const datatype d : o.datatypes) names.push_back(datatype_name(d, false));
               return names;
           }()},
          {"l", o.in_place},
          {"b", o.multiple_buffers ? "multiple" : "single"},
          {"R", o.print_rate ? 1 : 0},
          {"V", o.vary_window},
          {"I", o.sessions},
          {"D", [&]() -> nlohmann::json {
               switch (o.ddt.kind) {
                   case ddt_kind::contiguous: return "cont";
                   case ddt_kind::vector:
                       return "vect:" + std::to_string(o.ddt.stride) + ":" +
                              std::to_string(o.ddt.block_length);
                   case ddt_kind::indexed: return "indx:" + o.ddt.file;
                   case ddt_kind::none: break;
               }
               return nullptr;
           }()},
          {"check", o.check},
          {"extra", o.extra_columns}}},
    });
    start.context.update(nlohmann::json(report::timer_limits::of(clock)));
    return start;
}

}  // namespace

}  // namespace suite_impl
suite::suite(const char* name, const char* description,
             std::initializer_list<std::span<const benchmark>> catalogue,
             std::span<const benchmark> test_only)
    : name_(name), description_(description) {
    for (const std::span<const benchmark> part : catalogue)
        catalogue_.insert(catalogue_.end(), part.begin(), part.end());
    catalogue_.insert(catalogue_.end(), test_only.begin(), test_only.end());
    for (const auto& b : catalogue_) table_.push_back(b.info);
}

parbench_suite suite::info() const noexcept {
    const auto rows = parameters();
    return {name_,       description_, table_.data(), table_.size(),
            rows.data(), rows.size(),  PARBENCH_SUITE_NEEDS_MPI};
}

void suite::run(const run_request& request, const plugin::host_channel& host) const {
    const options o = parse_options(request);
    std::vector<const benchmark*> run = suite_impl::chosen(catalogue_, request);
    // an option a test does not take is refused (or, in the default set, left off) first
    const std::string not_taken = suite_impl::refuse_options_not_taken(o, run, request);
    for (const benchmark* b : run) {
        if (!o.synchronization || !b->text.one_sided) continue;
        if (std::find(b->syncs.begin(), b->syncs.end(), *o.synchronization) == b->syncs.end())
            throw input_error("-s " + std::string(to_string(*o.synchronization)) +
                              ": not a synchronisation of " + b->info.name + " (OSU offers " +
                              suite_impl::sync_list(b->syncs) + ")");
    }
    for (const benchmark* b : run) suite_impl::refuse_oversized_window(o, *b);
    // -t S:R is latency_mt's and latency_mp's; the nonblocking collectives count MPI_Test calls.
    for (const benchmark* b : run)
        if (o.workers.both_given && b->text.nonblocking && b->header_lines == nullptr)
            throw input_error("-t " + std::to_string(*o.workers.senders) + ":" +
                              std::to_string(o.workers.receivers) + ": " + b->info.name +
                              " takes a count of MPI_Test calls, not SENDERS:RECEIVERS");
    if (o.sessions && MPI_VERSION < 4)  // Open MPI 4.1: MPI-3.1, no MPI_Session_init
        throw input_error("-I: MPI sessions need MPI-4 (MPI_Session_init); this MPI library "
                          "implements MPI " +
                          std::to_string(MPI_VERSION) + "." + std::to_string(MPI_SUBVERSION));
    for (const benchmark* b : run)
        if (o.sessions && std::string_view(b->info.name) == "init")
            throw input_error("-I: not offered on init (its figure is the MPI plugin's "
                              "MPI_Init_thread, not an MPI_Session_init)");
    const suite_impl::device_spaces spaces = suite_impl::device_buffers(o, run);
    const suite_impl::session_world session(o.sessions);
    run_state st{&o, &host};
    st.comm = session.comm();
    MPI_Comm_size(MPI_COMM_WORLD, &st.world_size);
    MPI_Comm_rank(MPI_COMM_WORLD, &st.world_rank);
    // Every OSU test needs at least a pair; like OSU ("This test requires at least two
    // processes") the run is refused rather than ending with no rows. With more processes, the
    // pair tests measure on the first two and the others wait; multi_lat, mbw_mr and the
    // collectives use them all.
    // OSU's start-up programs (init, hello) run on one process, as OSU's do.
    if (st.world_size < 2) {
        const auto needs_pair = std::find_if(run.begin(), run.end(), [&](const benchmark* b) {
            return b->min_processes > st.world_size;
        });
        if (needs_pair != run.end())
            throw input_error(std::string((*needs_pair)->info.name) +
                              " needs 2 processes and the run has 1 (start it with mpiexec -n 2)");
    }
    // A test named that cannot run is refused; the default set leaves it out with a warning, so
    // that the others still run (and refuses the run only when none is left).
    std::vector<std::string> left_out;
    std::erase_if(run, [&](const benchmark* b) {
        std::string why = suite_impl::cannot_run(o, *b, st.world_size);
        if (why.empty()) return false;
        if (!request.benchmarks.empty()) throw input_error(why);
        // one warning for the tests left out for one reason (the ten neighbourhood tests')
        if (std::find(left_out.begin(), left_out.end(), why) == left_out.end())
            left_out.push_back(std::move(why));
        return true;
    });
    if (run.empty()) throw input_error(left_out.front());
    const bool pair_tests = std::any_of(run.begin(), run.end(),
                                        [](const benchmark* b) { return !b->all_processes; });
    if (st.world_rank == 0) {
        host.run_started(suite_impl::make_run_start(o, st, run));
        for (const std::string& why : left_out)
            host.warning("osu: left out of the default set: " + why);
        if (!not_taken.empty()) host.warning(not_taken);
        if (st.world_size > 2 && pair_tests)
            host.warning("osu: the pair tests use processes 0 and 1; the other " +
                         std::to_string(st.world_size - 2) + " wait");
        // OSU 7.5's mbw_mr says so where its -b single turns multiple (osu_mbw_mr.c:131-138);
        // the point-to-point programs' setAccel turns it silently (options.hpp managed_placement)
        if (o.managed_made_multiple &&
            std::any_of(run.begin(), run.end(),
                        [](const benchmark* b) { return b->text.pairs_line; }))  // mbw_mr's
            host.warning("mbw_mr: Tests involving managed buffers will use multiple buffers by "
                         "default");
    }
    for (const benchmark* b : run) {
        const options mine = suite_impl::options_of(o, *b);
        st.text = &b->text;
        st.opts = &mine;
        st.buffers =
            spaces.of(buffer_placement(o, b->device_buffers, st.world_rank, st.world_size));
        const std::vector<datatype> tables = suite_impl::tables_of(o, *b);
        if (tables.empty()) {
            st.datatype_name = nullptr;
            b->run(st, b->info.name);
            continue;
        }
        // one table per datatype, as OSU 7.5 loops over its datatype list (osu_allreduce.c:116)
        for (const datatype d : tables) {
            options table_options = mine;
            table_options.table_datatype = d;
            run_state table = st;
            table.opts = &table_options;
            table.datatype_name = o.datatypes.empty() && !b->names_default_datatype
                                      ? nullptr
                                      : datatype_name(d, b->reduction);
            b->run(table, b->info.name);
        }
    }
}

void report_skips(const run_state& st, std::string_view name, const mpi::size_notes& notes) {
    if (st.world_rank != 0) return;
    if (notes.skipped_for_memory())
        st.host->warning(std::string(name) + ": sizes from " +
                         std::to_string(notes.first_skipped_bytes) + " bytes skipped, they need " +
                         std::to_string(notes.worst_need_bytes) + " bytes per process, above -mem-limit " +
                         std::to_string(st.opts->mem_limit_bytes));
    if (notes.allocation_failed)
        st.host->warning(std::string(name) + ": some sizes skipped, a process could not allocate");
}

void log_validation(const run_state& st, std::uint64_t x, std::uint64_t iteration,
                    const mpi::check::findings& found) {
    const std::string& dir = st.opts->validation_log_dir;
    const std::string path = dir + "/log-" + std::to_string(st.world_rank) + ".log";
    // OSU's mode, 0744 (osu_util_mpi.c:2304); another process may have made it already
    if (mkdir(dir.c_str(), 0744) != 0 && errno != EEXIST) {
        st.host->warning("-clog: cannot make " + dir + ": " + std::strerror(errno));
        return;
    }
    std::FILE* log = std::fopen(path.c_str(), "a");
    if (log == nullptr) {
        st.host->warning("-clog: cannot write " + path + ": " + std::strerror(errno));
        return;
    }
    // OSU's lines (osu_util_mpi.c:2316-2345): positions 10 wide, values FIELD_WIDTH wide, 18 as
    // OSU's build defines it (configure.ac:402), %f for floats and %d otherwise (the byte
    // checks' bytes as chars)
    constexpr int position_width = 10;
    constexpr int value_width = 18;
    std::fprintf(log, "Size: %llu, Iteration:%llu, Datatype: %s\n",
                 static_cast<unsigned long long>(x), static_cast<unsigned long long>(iteration),
                 datatype_name(st.opts->table_datatype, false));
    std::fprintf(log, "%-*s%*s%*s\n", position_width, "Position", value_width, "Expected",
                 value_width, "Actual");
    // A byte check of a typed message listed its elements' bytes (check::findings
    // element_size): OSU's lines read them as the run's datatype, an MPI_INT's %d, an
    // MPI_FLOAT's %f (validation_log, osu_util_mpi.c:2326-2342)
    const bool typed = found.element_size == sizeof(std::int32_t);
    const bool floats = typed ? st.opts->table_datatype == datatype::mpi_float : found.floating;
    const auto as_type = [&](double bits) -> double {
        if (!typed) return bits;
        const auto word = static_cast<std::uint32_t>(bits);
        return floats ? static_cast<double>(std::bit_cast<float>(word))
                      : static_cast<double>(std::bit_cast<std::int32_t>(word));
    };
    for (const mpi::check::mismatch& raw : found.listed) {
        const mpi::check::mismatch m{raw.position, as_type(raw.expected), as_type(raw.actual)};
        const auto position = static_cast<unsigned long long>(m.position);
        if (floats)
            std::fprintf(log, "%-*llu%*f%*f\n", position_width, position, value_width,
                         m.expected, value_width, m.actual);
        else
            std::fprintf(log, "%-*llu%*lld%*lld\n", position_width, position, value_width,
                         static_cast<long long>(m.expected), value_width,
                         static_cast<long long>(m.actual));
    }
    // parbench's own line, where the check kept fewer than it found (check::findings)
    if (found.listed.size() < found.count)
        std::fprintf(log, "... %llu more mismatching elements, not listed\n",
                     static_cast<unsigned long long>(found.count - found.listed.size()));
    const bool written = std::ferror(log) == 0;
    if (std::fclose(log) != 0 || !written) st.host->warning("-clog: cannot write " + path);
}

void publish(const run_state& st, result_record& r) {
    if (st.datatype_name != nullptr) r.block.datatype = st.datatype_name;
    if (st.text != nullptr) add_table_figures(r, *st.text, *st.opts);
    st.host->result(r);
}

}  // namespace parbench::osu
