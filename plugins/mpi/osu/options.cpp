#include "osu/options.hpp"

#include <parbench/core/error.hpp>
#include <parbench/core/options.hpp>
#include <parbench/core/sizes.hpp>
#include <parbench/mpi/node.hpp>

#include <algorithm>
#include <climits>
#include <fstream>
#include <string_view>
#include <utility>

#include <unistd.h>

namespace parbench::osu {
namespace options_impl {
namespace {

[[nodiscard]] std::uint64_t count_value(const std::string& name, const std::string& text,
                                        bool allow_zero) {
    std::uint64_t value = 0;
    if (!parbench::parse_unsigned(text, value) || (!allow_zero && value == 0) ||
        value > static_cast<std::uint64_t>(INT_MAX))
        throw input_error("-" + name + " " + text + ": " +
                          parbench::integer_problem<int>(
                              text, allow_zero ? "expected a non-negative integer"
                                               : "expected a positive integer"));
    return value;
}

// -m [MIN:]MAX
void parse_sizes(const std::string& text, options& o) {
    const auto colon = text.find(':');
    const auto bad = [&](const std::string& why) {
        return input_error("-m " + text + ": " + why + "; expected [MIN:]MAX, MIN: or :MAX in bytes");
    };
    std::optional<std::uint64_t> min = o.min_bytes;
    std::uint64_t given_min = 0;
    const std::string max_text = colon == std::string::npos ? text : text.substr(colon + 1);
    if (colon == 0) {
        // ":MAX" sets MAX only (OSU 7.5's set_message_size, osu_util.c:204-206)
    } else if (colon != std::string::npos) {
        if (!parbench::parse_unsigned(std::string_view(text).substr(0, colon), given_min))
            throw bad("MIN '" + text.substr(0, colon) + "' is not a non-negative integer");
        if (given_min > static_cast<std::uint64_t>(INT_MAX))
            throw bad("MIN above 2147483647 bytes, the largest MPI count of MPI_CHAR");
        min = given_min;
    }
    o.min_bytes = min;
    if (colon != std::string::npos && colon > 0 && max_text.empty())
        return;  // "MIN:" sets MIN only, as OSU
    std::uint64_t max = 0;
    if (!parbench::parse_unsigned(max_text, max))
        throw bad("MAX '" + max_text + "' is not a non-negative integer");
    if (max > static_cast<std::uint64_t>(INT_MAX))
        throw bad("MAX above 2147483647 bytes, the largest MPI count of MPI_CHAR");
    if (min && *min > max) throw bad("MIN is larger than MAX");
    o.max_bytes = max;
}

// -t N (the nonblocking collectives' MPI_Test calls; latency_mt's and latency_mp's receiving
// side) or -t S:R (latency_mt's and latency_mp's senders and receivers). Each test judges the
// counts it uses (suite.cpp refuses an S:R where a nonblocking collective runs; latency_mt and
// latency_mp refuse a count outside 1 to 127, as OSU's set_threads does).
void parse_t(const std::string& text, options& o) {
    const auto colon = text.find(':');
    std::uint64_t senders = 0;
    std::uint64_t receivers = 0;
    if (colon == std::string::npos) {
        o.test_calls = count_value("t", text, true);
        o.workers.receivers = o.test_calls;
        o.workers.given = true;
        return;
    }
    if (!parbench::parse_unsigned(std::string_view(text).substr(0, colon), senders) ||
        !parbench::parse_unsigned(std::string_view(text).substr(colon + 1), receivers) ||
        senders > INT_MAX || receivers > INT_MAX)
        throw input_error("-t " + text +
                          ": expected CALLS (MPI_Test calls of the nonblocking collectives) or "
                          "[SENDERS:]RECEIVERS (latency_mt threads, latency_mp processes)");
    o.workers = {.senders = senders, .receivers = receivers, .given = true, .both_given = true};
}

// -k fixed:N | rotate (OSU 7.5's spellings, osu_util.c:1133-1160; N below the process count is
// checked where the process count is known, osu/collectives.hpp)
root_option parse_root(const std::string& text) {
    if (text == "rotate") return {.rotate = true};
    std::uint64_t rank = 0;
    if (text.rfind("fixed:", 0) != 0 ||
        !parbench::parse_unsigned(std::string_view(text).substr(6), rank) || rank > INT_MAX)
        throw input_error("-k " + text + ": expected fixed:RANK (a process rank) or rotate");
    return {.rank = rank};
}

// -T MPI_CHAR | MPI_INT | MPI_FLOAT | ALL, in any case (OSU 7.5's spellings, osu_util.c:1096-1108,
// which compares them with strncasecmp; OSU ignores any other value, parbench refuses it).
std::vector<datatype> parse_datatypes(const std::string& text) {
    std::string lower;
    for (const char ch : text)
        lower += static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
    if (lower == "mpi_char") return {datatype::mpi_char};
    if (lower == "mpi_int") return {datatype::mpi_int};
    if (lower == "mpi_float") return {datatype::mpi_float};
    if (lower == "all") return {datatype::mpi_char, datatype::mpi_int, datatype::mpi_float};
    throw input_error("-T " + text + ": expected MPI_CHAR, MPI_INT, MPI_FLOAT or ALL");
}

// -N cart:D:R | graph:FILE (OSU 7.5's spellings; the file is read here, on every process, so
// that a bad one is refused before the run starts).
neighborhood parse_neighborhood(const std::string& text) {
    const auto bad = [&](const std::string& why) {
        return input_error("-N " + text + ": " + why + "; expected cart:DIMENSIONS:RADIUS or " +
                           "graph:FILE");
    };
    neighborhood n;
    if (text == "cart") throw bad("DIMENSIONS and RADIUS missing");
    if (text.rfind("cart:", 0) == 0) {
        const std::string rest = text.substr(5);
        const auto colon = rest.find(':');
        std::uint64_t dims = 0;
        std::uint64_t radius = 0;
        if (colon == std::string::npos ||
            !parbench::parse_unsigned(std::string_view(rest).substr(0, colon), dims) ||
            !parbench::parse_unsigned(std::string_view(rest).substr(colon + 1), radius))
            throw bad("DIMENSIONS and RADIUS must be non-negative integers");
        if (dims == 0 || dims > 16) throw bad("DIMENSIONS must be 1 to 16");
        if (radius > 1024) throw bad("RADIUS must be at most 1024");
        n.dimensions = static_cast<int>(dims);
        n.radius = static_cast<int>(radius);
        return n;
    }
    if (text.rfind("graph:", 0) != 0 || text.size() == 6)
        throw bad(text.rfind("graph", 0) == 0 ? "no adjacency file" : "unknown topology");
    n.graph = true;
    n.file = text.substr(6);
    std::ifstream in(n.file);
    if (!in) throw bad("cannot read " + n.file);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        const auto comma = line.find(',');
        std::uint64_t src = 0;
        std::uint64_t dest = 0;
        if (comma == std::string::npos ||
            !parbench::parse_unsigned(std::string_view(line).substr(0, comma), src) ||
            !parbench::parse_unsigned(std::string_view(line).substr(comma + 1), dest) ||
            src > INT_MAX || dest > INT_MAX)
            throw bad(n.file + " line " + std::to_string(number) + " '" + line +
                      "' is not SRC,DEST (process ranks)");
        n.edges.emplace_back(static_cast<int>(src), static_cast<int>(dest));
    }
    return n;
}

// -D cont | vect:STRIDE:BLOCK_LENGTH | indx:FILE (OSU 7.5's spellings, any case,
// omb_ddt_process_options, osu_util.c:1258-1303; the file is read here, on every process, as
// OSU's omb_ddt_assign reads it, osu_util_mpi.c:2982-3000). Where OSU would crash or make a type
// that overruns or overlaps its receive buffer, parbench refuses in one line: vect without both
// numbers (OSU's atoi(NULL)), a stride of 0 (OSU divides by it), a block longer than the stride
// (blocks that overlap, which a receive may not have), indx entries that overlap, more than OSU's
// 100 (OMB_DDT_INDEXED_MAX_LENGTH, osu_util_mpi.h:220, past which OSU writes beyond its arrays).
constexpr std::size_t max_indexed_entries = 100;

[[nodiscard]] std::string trimmed(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
        text.remove_suffix(1);
    return std::string(text);
}

derived_datatype parse_ddt(const std::string& text) {
    const auto bad = [&](const std::string& why) {
        return input_error("-D " + text + ": " + why +
                           "; expected cont, vect:STRIDE:BLOCK_LENGTH or indx:FILE");
    };
    const auto colon = text.find(':');
    std::string kind = text.substr(0, colon);
    for (char& ch : kind) ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
    const std::string rest = colon == std::string::npos ? std::string() : text.substr(colon + 1);
    derived_datatype d;
    if (kind == "cont") {
        if (colon != std::string::npos) throw bad("cont takes no arguments");
        d.kind = ddt_kind::contiguous;
        return d;
    }
    if (kind == "vect") {
        const auto second = rest.find(':');
        if (colon == std::string::npos || second == std::string::npos ||
            !parbench::parse_unsigned(std::string_view(rest).substr(0, second), d.stride) ||
            !parbench::parse_unsigned(std::string_view(rest).substr(second + 1), d.block_length))
            throw bad("vect takes STRIDE and BLOCK_LENGTH, both integers");
        if (d.stride == 0 || d.block_length == 0 || d.stride > INT_MAX)
            throw bad("STRIDE and BLOCK_LENGTH must be positive");
        if (d.block_length > d.stride)
            throw bad("a BLOCK_LENGTH above the STRIDE makes the blocks overlap, which a "
                      "receive may not have");
        d.kind = ddt_kind::vector;
        return d;
    }
    if (kind != "indx") throw bad("unknown datatype '" + text.substr(0, colon) + "'");
    if (rest.empty()) throw bad("no file");
    d.kind = ddt_kind::indexed;
    d.file = rest;
    std::ifstream in(d.file);
    if (!in) throw bad("cannot read " + d.file);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        const auto comma = line.find(',');
        std::uint64_t displacement = 0;
        std::uint64_t length = 0;
        if (comma == std::string::npos ||
            !parbench::parse_unsigned(trimmed(std::string_view(line).substr(0, comma)),
                                      displacement) ||
            !parbench::parse_unsigned(trimmed(std::string_view(line).substr(comma + 1)),
                                      length) ||
            length == 0 || displacement > INT_MAX / 2 || length > INT_MAX / 2)
            throw bad(d.file + " line " + std::to_string(number) + " '" + line +
                      "' is not DISPLACEMENT,BLOCK_LENGTH (elements, the length positive)");
        d.displacements.push_back(static_cast<int>(displacement));
        d.block_lengths.push_back(static_cast<int>(length));
    }
    if (d.displacements.empty()) throw bad(d.file + " has no DISPLACEMENT,BLOCK_LENGTH line");
    if (d.displacements.size() > max_indexed_entries)
        throw bad(d.file + " has " + std::to_string(d.displacements.size()) +
                  " entries; OSU 7.5 holds at most 100");
    std::vector<std::pair<int, int>> blocks;
    for (std::size_t k = 0; k < d.displacements.size(); ++k)
        blocks.emplace_back(d.displacements[k], d.block_lengths[k]);
    std::sort(blocks.begin(), blocks.end());
    for (std::size_t k = 1; k < blocks.size(); ++k)
        if (blocks[k - 1].first + blocks[k - 1].second > blocks[k].first)
            throw bad(d.file + ": the blocks at " + std::to_string(blocks[k - 1].first) +
                      " and " + std::to_string(blocks[k].first) +
                      " overlap, which a receive may not have");
    return d;
}

// -d ACCEL [SRC DST] (OSU 7.5: -d's value, then two placement words after the options,
// osu_util.c:1190-1252): ACCEL one of OSU's five, any case; SRC and DST each H, D, M, MH or MD
// (OSU reads M alone as MH, with a deprecation note).
void parse_accelerator(const nlohmann::json& value, options& o) {
    std::vector<std::string> words;
    if (value.is_array()) {
        for (const auto& word : value)
            if (word.is_string()) words.push_back(word.get<std::string>());
    } else if (value.is_string()) {
        words.push_back(value.get<std::string>());
    }
    std::string text;
    for (const auto& word : words) text += (text.empty() ? "" : " ") + word;
    const auto bad = [&](const std::string& why) {
        return input_error("-d " + text + ": " + why +
                           "; expected -d cuda|managed|openacc|rocm|sycl [SRC DST], SRC and "
                           "DST each H, D, MH or MD");
    };
    if (words.empty()) throw bad("no accelerator");
    std::string accelerator;
    for (const char ch : words.front())
        accelerator += static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
    if (accelerator != "cuda" && accelerator != "managed" && accelerator != "openacc" &&
        accelerator != "rocm" && accelerator != "sycl")
        throw bad("unknown accelerator '" + words.front() + "'");
    if (words.size() != 1 && words.size() != 3) throw bad("SRC and DST come as a pair");
    for (std::size_t k = 1; k < words.size(); ++k)
        if (words[k] != "H" && words[k] != "D" && words[k] != "M" && words[k] != "MH" &&
            words[k] != "MD")
            throw bad("buffer placement '" + words[k] + "'");
    o.accelerator = accelerator;
    o.placements.assign(words.begin() + 1, words.end());
}

// OSU 7.5's long options (c/util/osu_util_options.h:28-57, OMBOP_LONG_OPTIONS_ALL) of the short
// options the suite has, each an alias of its short form.
constexpr std::pair<std::string_view, std::string_view> long_options[] = {
    {"message-size", "m"}, {"iterations", "i"},  {"warmup", "x"},         {"window-size", "W"},
    {"full", "f"},         {"validation", "c"},  {"tail-lat", "z"},       {"num-test-calls", "t"},
    {"sync-option", "s"},  {"win-options", "w"}, {"nhbr", "N"},           {"partitions", "q"},
    {"root-rank", "k"},    {"type", "T"},        {"in-place", "l"},      {"buffer-num", "b"},
    {"num-pairs", "p"},    {"print-rate", "R"},  {"vary-window", "V"},
    {"session", "I"},      {"accelerator", "d"},  {"validation-warmup", "u"}, {"ddt", "D"},
    {"array-size", "a"}};

[[nodiscard]] std::string short_name(const std::string& name) {
    for (const auto& [long_name, short_form] : long_options)
        if (name == long_name) return std::string(short_form);
    return name;
}

constexpr parbench_parameter parameter_rows[] = {
    {"m", "[MIN:]MAX", "message sizes MIN, 2 MIN, ... up to MAX bytes (MIN: sets MIN only)",
     "1:4194304 (collectives 1:1048576)", PARBENCH_ARITY_ONE},
    {"i", "ITER", "timed iterations, small and large messages (OSU -i)",
     "latency 10000 (1000 above 8 KiB), bandwidth 100 (20), collectives 1000 (100)",
     PARBENCH_ARITY_ONE},
    {"x", "WARMUP", "untimed warm-up iterations (OSU -x)",
     "latency 100 (10 above 8 KiB), bandwidth 10 (2), collectives 100 (10)", PARBENCH_ARITY_ONE},
    {"W", "WINDOW",
     "transfers per window of the bandwidth tests (OSU -W; at most 65536, and within -mem-limit)", "64",
     PARBENCH_ARITY_ONE},
    {"w", "create|allocate|dynamic", "one-sided window creation (OSU -w)", "allocate",
     PARBENCH_ARITY_ONE},
    {"s", "lock|flush|flush_local|lock_all|pscw|fence",
     "one-sided synchronisation (OSU -s); each test accepts OSU's set", "flush (put_bibw: pscw)",
     PARBENCH_ARITY_ONE},
    {"c", "log[:DIR]",
     "validate the data received (OSU -c; parbench's check); -clog[:DIR] also writes each "
     "process's count of mismatching elements per size to DIR/log-RANK.log",
     "DIR validation_output", PARBENCH_ARITY_ATTACHED},
    {"f", nullptr,
     "collectives: full statistics, min and max latency and iterations columns (OSU -f)", nullptr,
     PARBENCH_ARITY_FLAG},
    {"z", "[P,...]",
     "tail-latency columns, one per percentile P (0 to 100, at most 5) of OSU's times of single "
     "iterations (collectives: each one's mean over the processes; OSU -z)",
     "50,90,99", PARBENCH_ARITY_LIST},
    {"t", "CALLS|[SENDERS:]RECEIVERS",
     "MPI_Test calls during the dummy compute of the nonblocking collectives; latency_mt's "
     "threads and latency_mp's forked processes per side (OSU -t)",
     "0; latency_mt 1:2 threads, latency_mp 2:2 processes", PARBENCH_ARITY_ONE},
    {"q", "PARTITIONS", "partitions of partitioned_latency's messages (OSU -q)", "8",
     PARBENCH_ARITY_ONE},
    {"N", "cart:D:R|graph:FILE",
     "neighbourhood collectives' topology: periodic D-dimensional grid, neighbours within R "
     "steps, or the SRC,DEST edges of FILE (OSU -N)",
     "cart:1:1", PARBENCH_ARITY_ONE},
    {"a", "N",
     "collectives: the side of OSU's device compute kernel's arrays; parbench's compute runs on "
     "the host, so it is recorded and changes nothing (OSU -a)",
     "32", PARBENCH_ARITY_ONE},
    {"array-size", "N", "OSU's long form of -a", nullptr, PARBENCH_ARITY_ONE},
    {"D", "cont|vect:STRIDE:BLOCK_LENGTH|indx:FILE",
     "point-to-point tests; blocking, nonblocking, persistent and neighbourhood collectives "
     "that move data: "
     "each message "
     "one element "
     "of a derived datatype of its elements: "
     "contiguous, a vector of BLOCK_LENGTH of every STRIDE, or FILE's DISPLACEMENT,BLOCK_LENGTH "
     "blocks; adds OSU's Transmit Size column (OSU -D)",
     nullptr, PARBENCH_ARITY_ONE},
    {"ddt", "cont|vect:STRIDE:BLOCK_LENGTH|indx:FILE", "OSU's long form of -D", nullptr,
     PARBENCH_ARITY_ONE},
    {"mem-limit", "BYTES",
     "memory limit per process; larger sizes are skipped (OSU 7.3's -M, which 7.5 dropped)",
     "536870912", PARBENCH_ARITY_ONE},
    {"M", "BYTES", "refused, as OSU 7.5 refuses it: OSU 7.5 has no -M; see -mem-limit", nullptr,
     PARBENCH_ARITY_ONE},
    {"k", "fixed:RANK|rotate",
     "root of gather, gatherv, reduce, scatter, scatterv and their nonblocking forms: a fixed "
     "process, or iteration i's root i % n (OSU -k)",
     "fixed:0", PARBENCH_ARITY_ONE},
    {"root-rank", "fixed:RANK|rotate", "OSU's long form of -k", nullptr, PARBENCH_ARITY_ONE},
    {"T", "MPI_CHAR|MPI_INT|MPI_FLOAT|ALL",
     "collectives and point-to-point tests: the element datatype, "
     "one table per datatype (ALL: all three; OSU -T)",
     "MPI_INT for the reductions, MPI_CHAR for the others", PARBENCH_ARITY_ONE},
    {"type", "MPI_CHAR|MPI_INT|MPI_FLOAT|ALL", "OSU's long form of -T", nullptr,
     PARBENCH_ARITY_ONE},
    {"R", "0|1", "mbw_mr: the Messages/s column (1) or MB/s alone (0) (OSU -R)", "1",
     PARBENCH_ARITY_ONE},
    {"p", "PAIRS",
     "mbw_mr: accepted and, as in OSU 7.5, overridden by n/2 pairs (OSU -p; see docs/osu.md)",
     nullptr, PARBENCH_ARITY_ONE},
    {"num-pairs", "PAIRS", "OSU's long form of -p", nullptr, PARBENCH_ARITY_ONE},
    {"V", nullptr,
     "mbw_mr: MB/s (and -R 1's message rates) per size and window, over windows 1 to 128 "
     "(OSU -V)",
     nullptr, PARBENCH_ARITY_FLAG},
    {"vary-window", nullptr, "OSU's long form of -V (taking no value here)", nullptr,
     PARBENCH_ARITY_FLAG},
    {"I", nullptr,
     "run the tests on a communicator of an MPI session's mpi://WORLD instead of "
     "MPI_COMM_WORLD (MPI-4; OSU -I)",
     nullptr, PARBENCH_ARITY_FLAG},
    {"session", nullptr, "OSU's long form of -I", nullptr, PARBENCH_ARITY_FLAG},
    {"d", "cuda|managed [SRC DST]",
     "OSU's device buffers: on the point-to-point and one-sided tests process 0's where SRC "
     "says, process 1's where DST says (H host, D device, MH or MD managed; bw_fan_in, "
     "bw_fan_out: the senders' SRC, the receivers' DST; a managed one makes -b multiple), on the "
     "collectives every process's in -d's memory; needs a CUDA-aware MPI, not with -c (OSU -d)",
     nullptr, PARBENCH_ARITY_LIST},
    {"accelerator", "cuda|managed [SRC DST]", "OSU's long form of -d", nullptr,
     PARBENCH_ARITY_LIST},
    {"u", "N",
     "refused: OSU's untimed exchanges before each validated one (parbench's -c checks after "
     "the timed iterations; OSU -u, which 7.5's one-sided tests, bw_fan_in, bw_fan_out, "
     "ibarrier and init do not take either)",
     nullptr, PARBENCH_ARITY_ONE},
    {"validation-warmup", "N", "OSU's long form of -u (refused)", nullptr, PARBENCH_ARITY_ONE},
    {"print-rate", "0|1", "OSU's long form of -R", nullptr, PARBENCH_ARITY_ONE},
    {"l", nullptr,
     "collectives: MPI_IN_PLACE as the send buffer (gather, reduce: at the root; scatter: the "
     "root's receive buffer; OSU -l)",
     nullptr, PARBENCH_ARITY_FLAG},
    {"in-place", nullptr, "OSU's long form of -l", nullptr, PARBENCH_ARITY_FLAG},
    {"b", "single|multiple",
     "bw, bibw, mbw_mr, bw_persistent, bibw_persistent, bw_fan_in, bw_fan_out: every message "
     "of a window on one buffer, or each on its own (OSU -b)",
     "single", PARBENCH_ARITY_ONE},
    {"buffer-num", "single|multiple", "OSU's long form of -b", nullptr, PARBENCH_ARITY_ONE},
    {"message-size", "[MIN:]MAX", "OSU's long form of -m", nullptr, PARBENCH_ARITY_ONE},
    {"iterations", "ITER", "OSU's long form of -i", nullptr, PARBENCH_ARITY_ONE},
    {"warmup", "WARMUP", "OSU's long form of -x", nullptr, PARBENCH_ARITY_ONE},
    {"window-size", "WINDOW", "OSU's long form of -W", nullptr, PARBENCH_ARITY_ONE},
    {"full", nullptr, "OSU's long form of -f", nullptr, PARBENCH_ARITY_FLAG},
    {"validation", "log[:DIR]", "OSU's long form of -c (--validation=log:DIR)", nullptr,
     PARBENCH_ARITY_ATTACHED},
    {"tail-lat", "[P,...]", "OSU's long form of -z", nullptr, PARBENCH_ARITY_LIST},
    {"num-test-calls", "CALLS|[SENDERS:]RECEIVERS", "OSU's long form of -t", nullptr,
     PARBENCH_ARITY_ONE},
    {"sync-option", "SYNC", "OSU's long form of -s", nullptr, PARBENCH_ARITY_ONE},
    {"win-options", "CREATION", "OSU's long form of -w", nullptr, PARBENCH_ARITY_ONE},
    {"nhbr", "cart:D:R|graph:FILE", "OSU's long form of -N", nullptr, PARBENCH_ARITY_ONE},
    {"partitions", "PARTITIONS", "OSU's long form of -q", nullptr, PARBENCH_ARITY_ONE},
    {"batched", nullptr,
     "collectives and window tests: time the calls (windows) as one loop with no barrier "
     "between them (parbench's method) instead of each on its own, with an MPI_Barrier after "
     "it (collectives, OSU 7.5's) or none (bw's windows)",
     nullptr, PARBENCH_ARITY_FLAG},
    {"extra", nullptr, "append parbench's median and its 95% CI as trailing columns", nullptr,
     PARBENCH_ARITY_FLAG},
};

// -c's attached value (OSU 7.5's "c::", osu_util.c:959-1008): none, or log with an optional
// :DIR (OSU's default OMB_VALIDATION_LOG_DIR_PATH, osu_util.h:202). A DIR that already exists is
// refused with OSU's words (osu_util.c:996-1006), before anything runs; OSU ignores any other
// value, parbench refuses it.
constexpr const char* default_log_dir = "validation_output";

void parse_validation(const nlohmann::json& value, options& o) {
    if (value.is_boolean() && !value.get<bool>()) return;
    o.check = true;
    if (value.is_null() || value.is_boolean()) return;
    const std::string text = parbench::option_text("c", value);
    if (text != "log" && text.rfind("log:", 0) != 0)
        throw input_error("-c" + text + ": expected -c, -clog or -clog:DIR (attached, as OSU's "
                          "getopt takes it)");
    o.validation_log_dir = text.size() > 4 ? text.substr(4) : default_log_dir;
    if (access(o.validation_log_dir.c_str(), F_OK) == 0)
        throw input_error("-c" + text + ": \"" + o.validation_log_dir +
                          "\" already exists. Set validation log directory using \"-clog:<dir>\"");
}

// OSU 7.5's -z list (osu_util.c:834-856): comma-separated integers 0 to 100, in the order given;
// no list: 50,90,99 (lines 836-840). At most OMB_STAT_MAX_NUM (osu_util.h:218), 5: OSU's loop
// writes past its array of five beyond that, so more are refused here.
constexpr std::size_t max_percentiles = 5;

[[nodiscard]] std::vector<int> parse_percentiles(const nlohmann::json& value) {
    if (value.is_null() || (value.is_boolean() && value.get<bool>())) return {50, 90, 99};
    if (value.is_boolean()) return {};
    std::string text;  // the words of -z 50,90 (or -z 50 90) joined with commas
    if (value.is_array()) {
        for (const auto& word : value) {
            if (!word.is_string()) throw input_error("-z: expected PERCENTILE[,PERCENTILE...]");
            text += (text.empty() ? "" : ",") + word.get<std::string>();
        }
    } else {
        text = parbench::option_text("z", value);
    }
    if (text.empty()) return {50, 90, 99};
    std::vector<int> list;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        std::uint64_t p = 0;
        if (!parbench::parse_unsigned(std::string_view(text).substr(start, comma - start), p) ||
            p > 100)
            throw input_error("-z " + text + ": each percentile must be an integer 0 to 100");
        list.push_back(static_cast<int>(p));
        start = comma + 1;
    }
    if (list.size() > max_percentiles)
        throw input_error("-z " + text + ": at most 5 percentiles (OSU 7.5's OMB_STAT_MAX_NUM)");
    return list;
}

}  // namespace

}  // namespace options_impl
std::string_view to_string(sync s) noexcept {
    switch (s) {
        case sync::lock: return "lock";
        case sync::flush: return "flush";
        case sync::flush_local: return "flush_local";
        case sync::lock_all: return "lock_all";
        case sync::pscw: return "pscw";
        case sync::fence: return "fence";
    }
    return "flush";
}

std::string_view sync_calls(sync s) noexcept {
    switch (s) {
        case sync::lock: return "MPI_Win_lock/unlock";
        case sync::flush: return "MPI_Win_flush";
        case sync::flush_local: return "MPI_Win_flush_local";
        case sync::lock_all: return "MPI_Win_lock_all/unlock_all";
        case sync::pscw: return "MPI_Win_post/start/complete/wait";
        case sync::fence: return "MPI_Win_fence";
    }
    return "MPI_Win_flush";
}

std::string_view creation_call(mpi::window_creation c) noexcept {
    switch (c) {
        case mpi::window_creation::create: return "MPI_Win_create";
        case mpi::window_creation::allocate: return "MPI_Win_allocate";
        case mpi::window_creation::dynamic: return "MPI_Win_create_dynamic";
    }
    return "MPI_Win_allocate";
}

options parse_options(const run_request& request) {
    options o;
    o.check = o.driver_check = request.check;
    for (const auto& [given_name, value] : request.options) {
        // OSU's long options are their short forms; a value's error names the short form
        const std::string name = options_impl::short_name(given_name);
        if (name == "check") continue;
        if (name.size() == 1 && !(value.is_boolean() && !value.get<bool>()))
            o.given_letters += name;
        if (name == "z") {
            o.percentiles = options_impl::parse_percentiles(value);
            continue;
        }
        if (name == "d") {
            options_impl::parse_accelerator(value, o);
            continue;
        }
        if (name == "c") {
            options_impl::parse_validation(value, o);
            continue;
        }
        // OSU 7.5's -u N: untimed exchanges before each validated one (osu_latency.c:187-208),
        // refused once the tests are known (osu/suite.cpp): as a letter a test's 7.5 string
        // lacks, else as not offered (parbench's -c checks once, after the timed iterations).
        if (name == "u") {
            o.validation_warmup = parbench::option_text(name, value);
            continue;
        }
        if (name == "extra" || name == "f" || name == "batched" ||
            name == "l" || name == "V" || name == "I") {
            if (!value.is_null() && !value.is_boolean())
                throw input_error("-" + name + ": takes no value");
            if (value.is_boolean() && !value.get<bool>()) continue;
            if (name == "extra") o.extra_columns = true;
            if (name == "f") o.full = true;
            if (name == "batched") o.batched = true;
            if (name == "l") o.in_place = true;
            if (name == "V") o.vary_window = true;
            if (name == "I") o.sessions = true;
            continue;
        }
        const std::string text = parbench::option_text(name, value);
        if (name == "m") {
            options_impl::parse_sizes(text, o);
        } else if (name == "R") {
            // OSU 7.5 takes 0 or 1 (osu_util.c:803-808)
            if (text != "0" && text != "1") throw input_error("-R " + text + ": expected 0 or 1");
            o.print_rate = text == "1";
            o.print_rate_given = true;
        } else if (name == "p") {
            o.pairs_given = options_impl::count_value(name, text, false);
        } else if (name == "i") {
            o.iterations = options_impl::count_value(name, text, false);
        } else if (name == "x") {
            o.skip = options_impl::count_value(name, text, true);
        } else if (name == "t") {
            options_impl::parse_t(text, o);
        } else if (name == "q") {
            o.partitions = options_impl::count_value(name, text, false);
        } else if (name == "a") {
            // OSU 7.5 refuses a value below 1: "Invalid Device Array Size" (osu_util.c:383-391,
            // 823-830)
            std::uint64_t size = 0;
            if (!parbench::parse_unsigned(text, size) || size == 0 || size > INT_MAX)
                throw input_error("-a " + text +
                                  ": Invalid Device Array Size (expected a positive integer, "
                                  "at most 2147483647)");
            o.device_array_size = size;
        } else if (name == "b") {
            // OSU 7.5's spellings, any case (osu_util.c:1038-1049)
            std::string lower;
            for (const char ch : text)
                lower += static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
            if (lower != "single" && lower != "multiple")
                throw input_error("-b " + text + ": expected single or multiple");
            o.multiple_buffers = lower == "multiple";
            o.buffers_given = true;
        } else if (name == "T") {
            o.datatypes = options_impl::parse_datatypes(text);
        } else if (name == "k") {
            o.root = options_impl::parse_root(text);
            o.root.given = true;
        } else if (name == "D") {
            o.ddt = options_impl::parse_ddt(text);
        } else if (name == "N") {
            o.topology = options_impl::parse_neighborhood(text);
        } else if (name == "M") {
            // OSU 7.5 dropped -M (osu_util_options.h: no 'M' in any option string; its getopt
            // ends in print_bad_usage_message and EXIT_FAILURE)
            throw input_error("-M " + text +
                              ": OSU 7.5 has no -M; parbench's memory limit per process is "
                              "-mem-limit BYTES");
        } else if (name == "mem-limit") {
            std::uint64_t bytes = 0;
            if (!parbench::parse_unsigned(text, bytes) || bytes == 0)
                throw input_error("-mem-limit " + text + ": expected a positive number of bytes");
            o.mem_limit_bytes = bytes;
        } else if (name == "W") {
            o.window_size = options_impl::count_value(name, text, false);
        } else if (name == "w") {
            bool known = false;
            for (auto c : {mpi::window_creation::create, mpi::window_creation::allocate,
                           mpi::window_creation::dynamic})
                if (text == mpi::to_string(c)) o.creation = c, known = true;
            if (!known)
                throw input_error("-w " + text + ": expected create, allocate or dynamic");
        } else if (name == "s") {
            for (auto s : all_syncs)
                if (text == to_string(s)) o.synchronization = s;
            if (!o.synchronization)
                throw input_error("-s " + text +
                                  ": expected lock, flush, flush_local, lock_all, pscw or fence");
        } else {
            throw input_error("-" + name + ": not an option of suite osu");
        }
    }
    // a managed SRC or DST gives every message of a window its own buffer, as OSU 7.5's
    // setAccel and its programs do (managed_placement)
    if (managed_placement(o) && !o.multiple_buffers) {
        o.multiple_buffers = true;
        o.managed_made_multiple = true;
    }
    return o;
}

std::vector<std::uint64_t> message_sizes(const options& o, std::uint64_t default_max,
                                         std::uint64_t unit, std::uint64_t smallest) {
    const std::uint64_t max = o.max_bytes.value_or(default_max);
    const std::uint64_t first = std::max(o.min_bytes.value_or(smallest), smallest);
    std::vector<std::uint64_t> sizes;
    for (std::uint64_t x = unit > 1 ? std::max(first, unit) : first; x <= max;
         x = x == 0 ? 1 : 2 * x)
        if (x % unit == 0) sizes.push_back(x);
    return sizes;
}

std::span<const parbench_parameter> parameters() noexcept { return options_impl::parameter_rows; }

char buffer_placement(const options& o, device_placement rule, int world_rank,
                      int world_size) noexcept {
    if (o.accelerator.empty()) return 'H';
    bool source_side = false;
    switch (rule) {
        case device_placement::none:
        case device_placement::host: return 'H';
        case device_placement::every: return o.accelerator == "managed" ? 'M' : 'D';
        case device_placement::pair:
            if (world_rank > 1) return 'H';  // idle beside the pair: no buffers used
            source_side = world_rank == 0;
            break;
        case device_placement::halves: source_side = world_rank < world_size / 2; break;
        case device_placement::fan_in:
        case device_placement::fan_out: {
            const std::vector<int> nodes = fan_nodes();
            const bool parent = nodes.empty() ? world_rank == 0
                                              : nodes.at(static_cast<std::size_t>(world_rank)) ==
                                                    nodes.front();
            source_side = parent == (rule == device_placement::fan_out);
            break;
        }
    }
    if (o.placements.size() != 2) return 'H';
    // "M", "MH", "MD": managed (OSU reads the first letter, osu_util.c:1193, :1219)
    return o.placements[source_side ? 0 : 1].front();
}

std::vector<int> fan_nodes() {
    std::vector<int> nodes = mpi::world_nodes::get();
    if (std::all_of(nodes.begin(), nodes.end(), [](int n) { return n == 0; }))
        for (std::size_t r = 0; r < nodes.size(); ++r) nodes[r] = static_cast<int>(r);
    return nodes;
}

std::string_view effective_accelerator(const options& o, bool point_to_point) noexcept {
    if (point_to_point && device_buffers_asked(o)) return "cuda";
    return o.accelerator;
}

bool device_buffers_asked(const options& o) noexcept {
    return !o.accelerator.empty() &&
           std::any_of(o.placements.begin(), o.placements.end(),
                       [](const std::string& p) { return p != "H"; });
}

bool managed_placement(const options& o) noexcept {
    return !o.accelerator.empty() &&
           std::any_of(o.placements.begin(), o.placements.end(),
                       [](const std::string& p) { return p.front() == 'M'; });
}

}  // namespace parbench::osu
