// The options every imb-* suite accepts (IMB's -npmin, -multi, -map, -off_cache, -iter, -time,
// -mem, -msglog, -msglen, -input, -include, -exclude, ...): validation of every value with the
// core parsers (input_error -> BAD_INPUT), -msglen/-input files read on rank 0 and broadcast so
// that every rank reports the same error. What differs per suite (its name, the -msglog and
// -iter defaults) comes in as parameters.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <parbench/core/buffers.hpp>
#include <parbench/core/error.hpp>
#include <parbench/core/input_file.hpp>
#include <parbench/core/options.hpp>
#include <parbench/core/sizes.hpp>
#include <parbench/mpi/active_set.hpp>
#include <parbench/mpi/environment.hpp>
#include <parbench/plugin/request.hpp>
#include <parbench/policy/confidence.hpp>
#include <parbench/policy/iterations.hpp>
#include <parbench/policy/sync.hpp>
#include <parbench/suites/imb/datatypes.hpp>
#include <parbench/suites/imb/methodology.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace parbench::imb {

// A suite's defaults where IMB's executables differ (IMB-IO, for one, has its own -iter).
struct suite_defaults {
    msglog_range msglog{};
    policy::iterations::imb_volume iterations{};
    bool io_files = false;  // the suite writes files (IMB-IO): -io-dir, "io portion" lengths
    // IMB 2021's -data_type, -red_data_type, -contig_type are measured (IMB-MPI1 only); other
    // suites keep their fixed datatypes and refuse any other value
    bool datatypes = false;
    // IMB 2021.11's methods are implemented: -methodology 2021 is the default. Elsewhere the
    // IMB 4.0 guide's methods, recorded as such.
    bool methodology_2021 = false;
    // IMB 2021's switches that change this suite's benchmarks (-methodology 2021): -sync,
    // -root_shift, -imb_barrier (the collectives of IMB-MPI1 and IMB-NBC) and -window_size
    // (IMB-MPI1's Uniband/Biband). IMB-RMA, -EXT and -IO parse the first three and never read
    // them; parbench refuses them there in one line that says so.
    bool collective_switches = false;
    bool window_switch = false;
    // Benchmarks in aggregate and non-aggregate mode (IMB-EXT, -RMA, -IO): -aggregate_mode.
    bool modes = false;
    // IMB-EXT's lengths: multiples of the methodology's unit (methodology::ext_length_unit).
    bool ext_lengths = false;
    // IMB-RMA's order of the two modes (methodology::rma_runs_non_aggregate_first).
    bool rma_mode_order = false;
    // What -aggregate_ci affordable allows a size's aggregate repeats under 2021
    // (methodology::affordable_repeats_s).
    double affordable_repeats_s = 0.005;
};

struct options {
    int npmin = 2;
    bool npmin_given = false;
    std::optional<int> multi;  // -multi 0|1
    mpi::rank_map map{};
    off_cache cache{};
    policy::iterations::imb_volume iterations{};
    std::optional<double> mem_gib;
    msglog_range msglog{};
    std::vector<std::uint64_t> msglen;  // non-empty: user-defined lengths
    std::string msglen_file;
    std::vector<std::string> input_names;
    std::vector<std::string> include;
    std::vector<std::string> exclude;
    std::string thread_level = "single";
    bool check = false;
    std::string accelerator;  // "": host memory; "cuda": message buffers in CUDA device memory
    // IMB 2021's datatype options, by IMB's value names (suites/imb/datatypes.hpp).
    std::string data_type = "byte";
    std::string red_data_type = "float";
    std::string contig_type = "base";
    bool zero_size = true;  // IMB 2021 -zero_size off: no row for 0-byte messages
    bool warm_up = true;    // IMB 2021 -warm_up off: no untimed iterations before the first size
    policy::sync::chosen sync{};  // -start_sync: IMB's barriers (default) or window sync
    imb::methodology method{};    // -methodology and IMB 2021's -sync, -root_shift, ...
    double confidence = 0.0;      // -confidence: target CI half-width (fraction); 0: IMB's rule
    bool confidence_futile_stop = false;  // -confidence_futile stop|continue
    // IMB 2021's -aggregate_mode (EXT_suite.cpp:244-254, 420-423): multi runs both modes where a
    // benchmark has them; aggregate or non_aggregate only that one.
    std::string aggregate_mode = "multi";
    // IMB 2021's -msg_pause on: after each size every process waits in a barrier, then sleeps
    // as long as the size took it (original_benchmark.h:196-202).
    bool msg_pause = false;
    bool ext_lengths = false;  // suite_defaults::ext_lengths
    // Benchmarks with both modes run NON-AGGREGATE first (IMB-RMA under IMB 2021,
    // methodology::rma_runs_non_aggregate_first); AGGREGATE first otherwise.
    bool non_aggregate_first = false;
    std::string io_dir;       // suites with files: where the run's directory goes ("": $TMPDIR)
};

// MPI's name of an IMB 2021 -data_type / -red_data_type value ("int" -> "MPI_INT").
[[nodiscard]] inline std::string mpi_type_name(std::string_view imb_name) {
    std::string upper(imb_name);
    for (auto& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    return "MPI_" + upper;
}

using element_kind_t = imb_mpi1::element_kind;

namespace detail {

// The names of a list: IMB 2021's comma lists ("-include PingPong,Allreduce",
// IMB_init.c/args_parser) and parbench's space-separated words, in any mix.
[[nodiscard]] inline std::vector<std::string> split_names(const std::string& name,
                                                          const std::string& word) {
    std::vector<std::string> out;
    for (auto& piece : parbench::split_commas(word)) {
        if (piece.empty())
            throw input_error("-" + name + " '" + word + "': an empty benchmark name");
        out.push_back(std::move(piece));
    }
    return out;
}

[[nodiscard]] inline std::vector<std::string> list_value(const std::string& name,
                                                         const nlohmann::json& value) {
    if (value.is_string()) {
        if (value.get<std::string>().empty())
            throw input_error("-" + name + ": expects at least one benchmark name");
        return split_names(name, value.get<std::string>());
    }
    if (value.is_array()) {
        // "-include" with nothing after it arrives as [] or [""].
        if (value.empty() || (value.size() == 1 && value[0] == ""))
            throw input_error("-" + name + ": expects at least one benchmark name");
        std::vector<std::string> out;
        for (const auto& v : value) {
            if (!v.is_string()) throw input_error("-" + name + ": expects benchmark names");
            if (v.get<std::string>().empty())
                throw input_error("-" + name + " '': an empty benchmark name");
            for (auto& piece : split_names(name, v.get<std::string>()))
                out.push_back(std::move(piece));
        }
        if (out.empty()) throw input_error("-" + name + ": expects at least one benchmark name");
        return out;
    }
    throw input_error("-" + name + ": expects a list of benchmark names");
}

// Rank 0 reads the file; every rank receives either its content or rank 0's error message and
// throws the same input_error, so no rank waits for another that gave up.
[[nodiscard]] inline std::string read_file_everywhere(const std::string& option,
                                                      const std::string& path) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::string text;
    int ok = 1;
    if (rank == 0) {
        try {
            text = read_input_file("-" + option, path);  // regular, bounded, not empty
        } catch (const input_error& e) {
            ok = 0;
            text = e.what();
        }
    }
    long long header[2] = {ok, static_cast<long long>(text.size())};
    MPI_Bcast(header, 2, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    text.resize(static_cast<std::size_t>(header[1]));
    std::size_t done = 0;
    while (done < text.size()) {
        const int chunk = static_cast<int>(std::min<std::size_t>(text.size() - done, 1 << 30));
        MPI_Bcast(text.data() + done, chunk, MPI_CHAR, 0, MPI_COMM_WORLD);
        done += static_cast<std::size_t>(chunk);
    }
    if (header[0] == 0) throw input_error(text);
    return text;
}

// One of IMB 2021's names for a datatype option. A suite without the datatypes (IMB 2021 has
// them in IMB-MPI1 only) takes its fixed default and refuses the others.
[[nodiscard]] inline std::string parse_choice(const std::string& name, const std::string& text,
                                              std::initializer_list<std::string_view> valid,
                                              std::string_view fixed, std::string_view suite,
                                              bool measured) {
    const auto t = std::string(parbench::trim(text));
    if (std::find(valid.begin(), valid.end(), t) == valid.end()) {
        std::string list;
        for (const auto v : valid) list += (list.empty() ? "" : ", ") + std::string(v);
        throw input_error("-" + name + " " + text + ": expected one of " + list);
    }
    if (!measured && t != fixed)
        throw input_error("-" + name + " " + t + ": suite " + std::string(suite) +
                          " keeps IMB's fixed " + std::string(fixed) +
                          " (IMB 2021 has -" + name + " in IMB-MPI1 only; use imb-mpi1)");
    return t;
}

// An IMB 2021 switch: typed (true/false from a host that read abi.h's PARBENCH_VALUE_SWITCH) or
// its word.
[[nodiscard]] inline bool switch_value(const std::string& name, const nlohmann::json& value) {
    if (value.is_boolean()) return value.get<bool>();
    return parbench::parse_switch(name, parbench::option_text(name, value));
}

[[nodiscard]] inline element_kind_t element_of(std::string_view name) noexcept {
    if (name == "char") return element_kind_t::mpi_char;
    if (name == "int") return element_kind_t::mpi_int;
    if (name == "float") return element_kind_t::mpi_float;
    if (name == "double") return element_kind_t::mpi_double;
    return element_kind_t::mpi_byte;
}

}  // namespace detail

// -input: one benchmark name per line; '#' starts a comment line; blank lines skipped.
[[nodiscard]] inline std::vector<std::string> parse_input_file(std::string_view content,
                                                               std::string_view source) {
    std::vector<std::string> names;
    std::istringstream in{std::string(content)};
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        const auto t = parbench::trim(line);
        if (t.empty() || t.front() == '#') continue;
        if (t.find_first_of(" \t") != std::string_view::npos)
            throw input_error("-input " + std::string(source) + ":" + std::to_string(number) +
                              ": expected one benchmark name per line, got '" + std::string(t) +
                              "'");
        names.emplace_back(t);
    }
    if (names.empty())
        throw input_error("-input " + std::string(source) +
                          ": no benchmark names in the file (only comments or blank lines)");
    return names;
}

// The datatypes the options name (suites/imb/datatypes.hpp).
[[nodiscard]] inline imb_mpi1::message_datatypes::choice datatype_choice(const options& o) {
    imb_mpi1::message_datatypes::choice c;
    c.data = detail::element_of(o.data_type);
    c.reduction = detail::element_of(o.red_data_type);
    if (o.contig_type == "base_vec") c.contig = imb_mpi1::contig_type::base_vec;
    if (o.contig_type == "resize") c.contig = imb_mpi1::contig_type::resize;
    if (o.contig_type == "resize_vec") c.contig = imb_mpi1::contig_type::resize_vec;
    return c;
}

// The message lengths of one benchmark, multiples of `unit` (the size of its datatype: 4 for
// MPI_FLOAT reductions): IMB's sequence (from max(unit, 2^MIN)) or the user's -msglen list, each
// rounded up to a whole element as IMB 2021 does; without 0 under -zero_size off (but where 0 is
// IMB 2021's only length). `first_cap`
// (> 0: IMB-EXT under IMB 2021, methodology::ext_first_length_cap) caps the sequence's first
// non-zero length, which then doubles up to 2^MAX (imb_sizes); a -msglen list is never capped.
[[nodiscard]] inline std::vector<std::uint64_t> lengths_for(const options& o, std::uint64_t unit,
                                                          std::uint64_t first_cap = 0) {
    std::vector<std::uint64_t> sizes;
    if (o.msglen.empty()) {
        sizes = imb_sizes(o.msglog, unit, first_cap);
    } else {
        for (const auto x : o.msglen) {
            const auto y = unit <= 1 ? x : (x + unit - 1) / unit * unit;
            if (sizes.empty() || sizes.back() != y) sizes.push_back(y);
        }
    }
    // IMB 2021 clips the sequence's lengths to MAXMSG = 2^MAX rounded down to `unit`: where that
    // is 0 (a float reduction at -msglog ..:0 or ..:1), its one length is 0, also under
    // -zero_size off (helper_IMB_functions.h:306-322, 756; IMB-MPI1 2021's Reduce -msglog 0:1
    // -zero_size off prints its 0-byte row).
    const bool only_zero = o.msglen.empty() && unit > 1 &&
                           (std::uint64_t{1} << o.msglog.max_log) < unit &&
                           o.method.runs_zero_length_below_unit();
    if (!o.zero_size && !only_zero) std::erase(sizes, std::uint64_t{0});
    return sizes;
}

// IMB 2021's -time budget of one block (one process count, one mode) under these options:
// -msglog's span also with a length list, as IMB keeps its default 0:22 then
// (policy/imb_block_budget.hpp).
[[nodiscard]] inline double block_time_limit_s(const options& o) noexcept {
    return policy::iterations::imb2021_block_limit_s(o.iterations.secs_per_sample, o.msglen.size(),
                                                     o.msglog.min_log, o.msglog.max_log);
}

// Whether a benchmark with both modes runs this one (-aggregate_mode).
[[nodiscard]] inline bool runs_mode(const options& o, bool aggregate) noexcept {
    return o.aggregate_mode == "multi" || (o.aggregate_mode == "aggregate") == aggregate;
}

// Validates the request's options. Collective (files are broadcast): every rank calls it.
[[nodiscard]] inline options parse_options(const run_request& request, int world_size,
                                           std::string_view suite, const suite_defaults& defaults) {
    options o;
    o.msglog = defaults.msglog;
    o.iterations = defaults.iterations;
    o.check = request.check;
    std::optional<std::string> iter_policy_text;
    o.method.name = defaults.methodology_2021 ? methodology_name::imb2021 : methodology_name::imb40;
    o.method.affordable_repeats_s = defaults.affordable_repeats_s;
    // The methodology first: IMB-IO's defaults depend on it, and -iter's partial lists
    // ("-iter 2000") keep the defaults' other values.
    if (const auto m = request.options.find("methodology"); m != request.options.end()) {
        o.method.name = parse_methodology(parbench::option_text("methodology", m->second));
        if (o.method.is_2021() && !defaults.methodology_2021)
            throw input_error("-methodology 2021: not yet available in suite " +
                              std::string(suite) +
                              ", which measures by the IMB 4.0 guide (docs/methodology.md)");
    }
    if (defaults.io_files) {
        // IMB-IO's defaults are the methodology's (imb::methodology::io_*).
        o.npmin = o.method.io_npmin();
        o.msglog = msglog_range{0, o.method.io_max_msglog()};
        o.iterations.msgs_per_sample = o.method.io_msgs_per_sample();
        o.iterations.overall_vol_bytes = o.method.io_overall_vol_bytes();
        o.iterations.msgs_nonaggr = o.method.io_msgs_nonaggr();
    }
    o.ext_lengths = defaults.ext_lengths;
    o.non_aggregate_first = defaults.rma_mode_order && o.method.rma_runs_non_aggregate_first();
    std::vector<std::string> switches_2021;  // IMB 2021 options given, for the 4.0 refusal
    bool futility_given = false;             // -confidence_futile, which needs -confidence
    bool msgsize_given = false;
    for (const auto& [name, value] : request.options) {
        if (name == "npmin") {
            const std::string text = parbench::option_text(name, value);
            if (!parbench::parse_unsigned(text, o.npmin) || o.npmin < 1)
                throw input_error("-npmin " + text + ": " +
                                  parbench::integer_problem<int>(
                                      text, "expected a positive integer"));
            if (o.npmin > world_size)
                throw input_error("-npmin " + text + ": larger than the " +
                                  std::to_string(world_size) + " processes of this run");
            o.npmin_given = true;
        } else if (name == "multi") {
            const std::string text = parbench::option_text(name, value);
            const auto t = parbench::trim(text);
            if (t != "0" && t != "1")
                throw input_error("-multi " + text +
                                  ": expected 0 (worst group only) or 1 (every group)");
            o.multi = t == "1" ? 1 : 0;
        } else if (name == "map") {
            o.map = mpi::parse_map(parbench::option_text(name, value));
            (void)mpi::mapped_order(world_size, o.map);  // throws when P x Q != world size
        } else if (name == "off_cache") {
            o.cache = parse_off_cache(parbench::option_text(name, value));
        } else if (name == "iter") {
            o.iterations = policy::iterations::parse_imb_iter(parbench::option_text(name, value), o.iterations);
        } else if (name == "iter_policy") {
            iter_policy_text = parbench::option_text(name, value);
        } else if (name == "time") {
            o.iterations.secs_per_sample =
                parbench::parse_seconds("-time", parbench::option_text(name, value));
        } else if (name == "mem") {
            o.mem_gib = parse_mem_gib(parbench::option_text(name, value));
        } else if (name == "msglog") {
            o.msglog = parse_msglog(parbench::option_text(name, value));
        } else if (name == "msglen") {
            o.msglen_file = parbench::option_text(name, value);
            if (o.msglen_file.empty()) throw input_error("-msglen '': empty file name");
        } else if (name == "input") {
            const std::string path = parbench::option_text(name, value);
            if (path.empty()) throw input_error("-input '': empty file name");
            o.input_names =
                parse_input_file(detail::read_file_everywhere("input", path), path);
        } else if (name == "include") {
            o.include = detail::list_value(name, value);
        } else if (name == "exclude") {
            o.exclude = detail::list_value(name, value);
        } else if (name == "thread_level") {
            o.thread_level = parbench::option_text(name, value);
            (void)mpi::parse_thread_level(o.thread_level);
        } else if (name == "io-dir" && defaults.io_files) {
            o.io_dir = parbench::option_text(name, value);
            if (o.io_dir.empty()) throw input_error("--io-dir '': empty directory name");
        } else if (name == "accelerator") {
            o.accelerator = parbench::option_text(name, value);
            if (o.accelerator != "cuda")
                throw input_error("-accelerator '" + o.accelerator +
                                  "': expected cuda (message buffers in CUDA device memory)");
        } else if (name == "data_type") {
            o.data_type = detail::parse_choice(name, parbench::option_text(name, value),
                                               {"byte", "char", "int", "float", "double"}, "byte",
                                               suite, defaults.datatypes);
        } else if (name == "red_data_type") {
            o.red_data_type = detail::parse_choice(name, parbench::option_text(name, value),
                                                   {"char", "int", "float", "double"}, "float",
                                                   suite, defaults.datatypes);
        } else if (name == "contig_type") {
            o.contig_type = detail::parse_choice(
                name, parbench::option_text(name, value), {"base", "base_vec", "resize", "resize_vec"},
                "base", suite, defaults.datatypes);
        } else if (name == "zero_size") {
            o.zero_size = detail::switch_value(name, value);
        } else if (name == "warm_up") {
            o.warm_up = detail::switch_value(name, value);
        } else if (name == "start_sync") {
            o.sync = policy::sync::parse_sync(parbench::option_text(name, value), o.sync);
        } else if (name == "methodology") {
            // read before the loop
        } else if (name == "sync" && !value.is_boolean() &&
                   !parbench::switch_word(parbench::trim(parbench::option_text(name, value)))) {
            const std::string text = parbench::option_text(name, value);
            throw input_error("-sync " + text +
                              ": IMB 2021's -sync takes on or off (a barrier after each timed "
                              "collective call); parbench's barrier|window start is -start_sync");
        } else if (name == "sync" || name == "root_shift" || name == "imb_barrier") {
            if (defaults.methodology_2021 && !defaults.collective_switches)
                throw input_error("-" + name + ": has no effect in suite " + std::string(suite) +
                                  " (IMB 2021 reads it in IMB-MPI1's and IMB-NBC's collectives "
                                  "only; this suite's kernels call MPI_Barrier themselves)");
            const bool on = detail::switch_value(name, value);
            if (name == "sync") o.method.sync = on;
            if (name == "root_shift") o.method.root_shift = on;
            if (name == "imb_barrier") o.method.imb_barrier = on;
            switches_2021.push_back(name);
        } else if (name == "window_size") {
            if (defaults.methodology_2021 && !defaults.window_switch)
                throw input_error("-window_size: an option of IMB-MPI1's Uniband and Biband "
                                  "(use imb-mpi1); suite " + std::string(suite) +
                                  " has no windowed benchmark");
            const std::string text = parbench::option_text(name, value);
            if (!parbench::parse_unsigned(text, o.method.window_size) || o.method.window_size < 1 ||
                o.method.window_size > 65536)
                throw input_error("-window_size " + text +
                                  ": expected a number of messages from 1 to 65536");
            switches_2021.push_back(name);
        } else if (name == "msgsize") {
            // IMB 2021 (IMB-MPI1, MPI1_suite.cpp:276-282, 600-609): the lengths as a comma list.
            const std::string text = parbench::option_text(name, value);
            std::string lines;
            for (const auto& word : parbench::split_commas(text)) {
                if (word.empty())
                    throw input_error("-msgsize " + text +
                                      ": an empty length between commas (expected a,b,c)");
                lines += word + "\n";
            }
            o.msglen = parse_msglen(lines, "-msgsize " + text);
            msgsize_given = true;
        } else if (name == "msg_pause") {
            o.msg_pause = detail::switch_value(name, value);
        } else if (name == "aggregate_mode") {
            const std::string text = parbench::option_text(name, value);
            const auto t = parbench::trim(text);
            if (t != "multi" && t != "aggregate" && t != "non_aggregate")
                throw input_error("-aggregate_mode " + text +
                                  ": expected multi (both modes), aggregate or non_aggregate");
            if (!defaults.modes)
                throw input_error("-aggregate_mode: suite " + std::string(suite) +
                                  " has no aggregate mode (IMB 2021 has it in IMB-EXT, IMB-RMA "
                                  "and IMB-IO)");
            o.aggregate_mode = std::string(t);
        } else if (name == "aggregate_ci") {
            static constexpr std::string_view choices[] = {"affordable", "always"};
            const std::string text = parbench::option_text(name, value);
            if (!defaults.modes)
                throw input_error("-aggregate_ci: suite " + std::string(suite) +
                                  " has no aggregate sample (IMB-EXT, IMB-RMA and IMB-IO have)");
            o.method.aggregate_ci_always =
                parbench::parse_choice(name, parbench::trim(text), choices) == "always";
            switches_2021.push_back(name);
        } else if (name == "list") {
            throw input_error("-list: parbench lists every suite's benchmarks and their "
                              "descriptions with `parbench list`; a run does not");
        } else if (name == "confidence") {
            o.confidence =
                policy::iterations::parse_confidence_target(parbench::option_text(name, value));
        } else if (name == "confidence_futile") {
            static constexpr std::string_view futility[] = {"stop", "continue"};
            const std::string text = parbench::option_text(name, value);
            o.confidence_futile_stop =
                parbench::parse_choice(name, parbench::trim(text), futility) == "stop";
            futility_given = true;
        } else {
            throw input_error("-" + name + ": not an option of suite " + std::string(suite));
        }
    }
    if (futility_given && !(o.confidence > 0.0))
        throw input_error("-confidence_futile: applies to -confidence PERCENT only; IMB's rule "
                          "times every row its fixed count");
    if (!switches_2021.empty() && !o.method.is_2021())
        throw input_error("-" + switches_2021.front() + ": an IMB 2021 option; -methodology " +
                          std::string(to_string(o.method.name)) + " (suite " + std::string(suite) +
                          ") uses the IMB 4.0 guide's fixed rule");
    if (o.check && !o.accelerator.empty())
        throw input_error("-check with -accelerator " + o.accelerator +
                          ": the check fills and reads message buffers on the host; run them "
                          "separately");
    if (iter_policy_text) o.iterations.policy = policy::iterations::parse_iter_policy_option(*iter_policy_text);
    if (msgsize_given && (!o.msglen_file.empty() || request.options.count("msglog") != 0))
        throw input_error("-msgsize and -" +
                          std::string(o.msglen_file.empty() ? "msglog" : "msglen") +
                          " both set the message lengths; give only one");
    if (!o.msglen_file.empty()) {
        if (request.options.count("msglog") != 0)
            throw input_error("-msglen and -msglog both set the message lengths; give only one");
        o.msglen = parse_msglen(detail::read_file_everywhere("msglen", o.msglen_file),
                                o.msglen_file);
    }
    if (!o.zero_size && lengths_for(o, 1).empty())
        throw input_error("-zero_size off leaves no message length to run (only 0 was given)");
    const std::uint64_t largest =
        o.msglen.empty() ? std::uint64_t{1} << o.msglog.max_log
                         : *std::max_element(o.msglen.begin(), o.msglen.end());
    if (largest > static_cast<std::uint64_t>(INT_MAX))
        throw input_error("message length " + std::to_string(largest) +
                          " is above 2147483647 bytes, the largest MPI count of MPI_BYTE");
    return o;
}

}  // namespace parbench::imb
