// The result model: one typed record per (benchmark, process count/group, size, mode), plus the
// run-start event that carries the header and run context. Plugins build these, serialise them to
// JSON for the C ABI (see plugin/abi.h), and the driver's reporters render them. Nothing here
// depends on MPI.
#pragma once

#include <parbench/core/benchmark_class.hpp>
#include <parbench/core/statistics.hpp>
#include <parbench/report/caf_figures.hpp>
#include <parbench/report/overlap.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace parbench {

// The heading printed above a table: what ran, on which processes, in which mode. Consecutive
// records with an equal block share one table.
struct block_info {
    std::string title;       // "PingPong", "Multi-PingPing"
    int processes = 1;       // active processes per group (IMB's #processes)
    int groups = 1;          // groups running simultaneously (multiple mode)
    std::vector<std::vector<int>> group_ranks;  // world ranks of each group, multiple mode only
    std::vector<std::vector<int>> rank_order;   // -map: matrix rows ("rank order (rowwise)")
    int waiting = 0;         // additional processes waiting in MPI_Barrier
    std::string mode;        // "", "aggregate" or "non_aggregate"
    int group = -1;          // -multi 1: the group this block reports; -1: combined
    int threads = 0;         // compute kernels: threads used (0: not applicable)
    std::string timing;      // how a batch was timed: "" = the host clock around the loop;
                             // "cuda_events" = events on the device's stream
    std::string datatype;    // the MPI datatype of the elements where the user chose it (OSU's
                             // -T: "MPI_INT"); "" elsewhere

    friend bool operator==(const block_info&, const block_info&) = default;
};

// What t_min/t_max/t_avg of a record are taken over: the active ranks (IMB, OSU) or the timed
// repetitions (PAW: NREPS loops, each reduced across ranks first where several ranks time).
enum class time_statistics { across_ranks, over_repetitions };

[[nodiscard]] constexpr std::string_view to_string(time_statistics s) noexcept {
    return s == time_statistics::over_repetitions ? "over_repetitions" : "across_ranks";
}

// The overlap suite's figures of one row (COMB-style availability; the formulas are in
// plugins/mpi/overlap/availability.hpp, their meaning in docs/methodology.md). Times in µs per
// iteration, the slowest process's.
struct availability_figures {
    double base_t_us = 0.0;      // the variant with no work
    double iter_t_us = 0.0;      // call + work + wait, at the last ramp step
    double work_t_us = 0.0;      // the busy wait of that step
    double overhead_us = 0.0;    // iter_t - work_t (at least 0)
    std::optional<double> avail_percent;  // 100 (1 - overhead / base_t); none when base_t is 0
    double threshold = 0.0;      // -threshold the ramp stopped at
    bool work_dominated = false; // false: the ramp gave up; the figures are its last step's
    std::vector<std::pair<double, double>> ramp_us;  // (work_t, iter_t) of every step

    friend bool operator==(const availability_figures&, const availability_figures&) = default;
};

// How the samples of a window-synchronised row were taken (-start_sync window,
// policy/sync/window.hpp): the calls that started inside their window are the samples, the
// others are dropped; every process holds the same values.
struct window_sync_figures {
    std::uint64_t valid_samples = 0;
    std::uint64_t invalid_samples = 0;
    double window_us = 0.0;  // the window's length

    friend bool operator==(const window_sync_figures&, const window_sync_figures&) = default;
};

// What stop-when-confident iterations (policy/iterations/confidence.hpp) asked and reached: the
// median's CI half-width in % of the median.
struct confidence_figures {
    double target_percent = 0.0;
    std::optional<double> achieved_percent;  // from the row's samples; none without a median
    bool target_met = false;
    bool futile = false;  // stopped early: the target was projected out of the budget's reach
    int rounds = 0;       // measuring rounds it took

    friend bool operator==(const confidence_figures&, const confidence_figures&) = default;
};

// How PAW's NLOOP was planned for a row (pattern/compute.hpp): the ceiling calibrated at the
// start, the untimed warm-up, the loop time NLOOP aimed at (report/stability.hpp judges rows by
// it) and the re-plans after a first repetition contradicted the warm-up.
struct loop_calibration_figures {
    std::uint64_t nloop_calibrated = 0;
    double warmup_us = 0.0;
    double loop_target_us = 0.0;
    int recalibrations = 0;

    friend bool operator==(const loop_calibration_figures&,
                           const loop_calibration_figures&) = default;
};

// A row timed over repetitions (PAW's method: report/paw_record.hpp, mpi/reduction.hpp's
// per-repetition reduction): the repetitions timed, the work one iteration does, which decides
// the row's kind and rate (report/paw_rows.hpp: bandwidth, message rate, or times only), and
// the devices of a host-device transfer. They travel in the event, and the JSON and CSV files
// list them, under "metrics" by the names they have always had there (nreps,
// bytes_per_iteration, messages_per_iteration, devices: add_repetition_metrics and
// take_repetition_metrics below).
struct repetition_figures {
    std::uint64_t nreps = 0;
    std::optional<double> bytes_per_iteration{};     // what one iteration moves: a GB/s row
    std::optional<double> messages_per_iteration{};  // messages one iteration sends: a rate row
    std::optional<std::uint64_t> devices{};          // host-device transfers: devices at once

    friend bool operator==(const repetition_figures&, const repetition_figures&) = default;
};

// The rate figures PAW's console and .dat files print (report/paw.hpp, report/paw_dat.hpp), set
// where PAW's method fills them: the flop count and GFlop/s of a compute row and its share of a
// peak (report/paw_record.hpp's add_flop_rates), the spread and aggregate rate of a row run on
// several ranks (the blas plugin's sweep), the GB/s of a transfer row (report/paw_transfer.hpp,
// the mpi plugin's paw suite) and the messages/s of a message-rate row, over the mean time
// (PAW's) and the median (parbench's). They travel in the event, and the JSON and CSV files list
// them, under "metrics" by the names they have always had there (add_paw_rate_metrics and
// take_paw_rate_metrics below); the figures beside them (gflops_paw_min, gb_per_s_max...) stay
// plain metrics, since nothing reads them back.
struct paw_rate_figures {
    std::optional<double> flops_paw{};              // PAW's flop count of one call
    std::optional<double> gflops_paw{};             // PAW's count over the mean time
    std::optional<double> percent_of_peak{};        // conventional GFlop/s over a known peak
    std::optional<double> rank_spread_percent{};    // slowest over fastest rank's mean, - 1
    std::optional<double> aggregate_gflops_paw{};   // every rank's flops over the slowest mean
    std::optional<double> gb_per_s_mean{};          // 10^9 bytes/s over the mean time
    std::optional<double> gb_per_s_median{};        // over the median time
    std::optional<double> messages_per_s_mean{};    // messages/s over the mean time
    std::optional<double> messages_per_s_median{};  // over the median time

    friend bool operator==(const paw_rate_figures&, const paw_rate_figures&) = default;
};

// The bandwidth and message rate of a message row, each in the unit its tool prints it, and the
// window it was measured at where the row is one of several windows: IMB 2021's Mbytes/sec
// (10^6 bytes/s: the imb-* suites' driver, IMB-MT, IMB-P2P; an IMB 4.0 row has only its
// throughput_mib_s, which report/columns.hpp shows then), OSU's MB/s (10^6 bytes/s over OSU's
// figure time: osu/suite.hpp, the bw_fan tests), the messages/s of IMB's Uniband and Biband
// (mpi/phases.hpp), IMB-MT, IMB-P2P and osu_mbw_mr, and osu_mbw_mr -V's window (one row per
// window: report/osu_console.hpp's matrix). They travel in the event, and the JSON and CSV files
// list them, under "metrics" by the names they have always had there (add_message_rate_metrics
// and take_message_rate_metrics below); a declared column names them by those names.
struct message_rate_figures {
    std::optional<double> mbytes_per_s{};    // IMB 2021's Mbytes/sec
    std::optional<double> bandwidth_mb_s{};  // OSU's MB/s
    std::optional<double> messages_per_s{};
    std::optional<std::uint64_t> window_size{};  // messages in flight per iteration (-V)

    friend bool operator==(const message_rate_figures&, const message_rate_figures&) = default;
};

// Where a row's processes ran: the node of each process of each of its groups (mpi/node.hpp's
// numbering, the run's placement record's), so that a PingPong row says whether its pair crossed
// a node. Set by the MPI runner where the run's nodes are known.
struct row_placement {
    std::vector<std::vector<int>> group_nodes;  // per group, the node of each process, in order
    int run_nodes = 1;                          // the nodes of the whole run

    // "intra-node": every group within one node; "inter-node": every group across nodes;
    // "mixed": some of each (multiple mode).
    [[nodiscard]] std::string_view span() const noexcept {
        bool within = false;
        bool across = false;
        for (const auto& nodes : group_nodes) {
            const bool one = std::adjacent_find(nodes.begin(), nodes.end(),
                                                std::not_equal_to<>()) == nodes.end();
            (one ? within : across) = true;
        }
        return within && across ? "mixed" : across ? "inter-node" : "intra-node";
    }
    // How many distinct nodes the row's processes are on.
    [[nodiscard]] int nodes() const {
        std::vector<int> all;
        for (const auto& nodes : group_nodes) all.insert(all.end(), nodes.begin(), nodes.end());
        std::sort(all.begin(), all.end());
        return static_cast<int>(std::unique(all.begin(), all.end()) - all.begin());
    }

    friend bool operator==(const row_placement&, const row_placement&) = default;
};

// What a record's size counts: message or I/O bytes (every MPI suite), elements, or the order N
// of the matrices a compute kernel multiplies (PAW's BLAS and GPU GEMM tests).
enum class size_unit { bytes, elements, matrix_order };

[[nodiscard]] constexpr std::string_view to_string(size_unit u) noexcept {
    switch (u) {
        case size_unit::elements: return "elements";
        case size_unit::matrix_order: return "matrix_order";
        case size_unit::bytes: break;
    }
    return "bytes";
}

// Throws std::invalid_argument naming the text for anything but the three names.
[[nodiscard]] inline size_unit size_unit_from_string(std::string_view text) {
    for (const size_unit u : {size_unit::bytes, size_unit::elements, size_unit::matrix_order})
        if (to_string(u) == text) return u;
    throw std::invalid_argument("unknown size unit '" + std::string(text) + "'");
}

// The defects cell of a -check row that has no verification: one token, so that
// whitespace-separated parsers (IMB's, CAF_BENCH's) still find every column after it.
inline constexpr const char* not_verified_cell = "unverified";

struct result_record {
    std::string suite;      // "imb-mpi1"
    std::string benchmark;  // canonical name, "PingPong"
    benchmark_class klass = benchmark_class::other;
    block_info block;
    // The row's size X, counted in `unit`: bytes for messages and I/O, the matrix order N for
    // compute kernels. (The field keeps its JSON name, "bytes", in every output.)
    std::uint64_t bytes = 0;
    size_unit unit = size_unit::bytes;
    bool has_bytes = true;       // false for Barrier (no #bytes column)
    std::uint64_t iterations = 0;  // repetitions per timed sample (IMB's #repetitions)
    // The suite's three headline timings, µs per iteration. IMB: across the active ranks
    // (and groups); PAW: across repetitions.
    double t_min_us = 0.0;
    double t_max_us = 0.0;
    double t_avg_us = 0.0;
    double cpu_time_us = 0.0;  // process CPU time per iteration (max over ranks)
    std::optional<double> throughput_mib_s;  // 2^20 bytes per second; only where well defined
    std::optional<std::uint64_t> defects;    // with -check: mismatching elements found
    // With -check, a row of a benchmark that has no verification (no defects to count): said
    // as not_verified_cell in every output, never as a bare "-". Set by the host.
    bool not_verified = false;
    summary distribution_us;   // over the timed samples (batches or repetitions), µs
    // The timed samples themselves, in the order they were taken (one per batch or repetition,
    // µs per iteration, the same values distribution_us summarises). `parbench compare` tests
    // two runs' samples against each other; empty when a plugin does not provide them.
    std::vector<double> samples_us;
    std::map<std::string, double> metrics;  // further named figures, unit in the name
    // Overlap benchmarks (IMB-NBC, IMB-IO's I flavours): t_ovrl, t_pure, t_CPU and overlap[%]
    // (report/overlap.hpp); absent elsewhere.
    std::optional<overlap_figures> overlap;
    std::vector<std::string> warnings;
    // What t_min/t_max/t_avg are over; every record of PAW's method (report/paw_record.hpp,
    // mpi/reduction.hpp's per-repetition reduction) says over_repetitions.
    time_statistics statistics = time_statistics::across_ranks;
    std::optional<availability_figures> availability;  // the overlap suite's rows
    // Aggregate rows timed in epochs: every sample is one epoch of `iterations` calls.
    std::optional<std::uint64_t> epochs;
    // A row of a size that ended its benchmark unmeasured under IMB 2021 (a `time_out` event)
    // because its buffers would exceed -mem: the bytes per process they needed. Unset: the
    // -time budget ran out.
    std::optional<std::uint64_t> over_memory_need_bytes;
    std::optional<window_sync_figures> window_sync;            // -start_sync window rows
    std::optional<confidence_figures> confidence;              // -confidence rows
    std::optional<loop_calibration_figures> loop_calibration;  // PAW's NLOOP plan
    std::optional<repetition_figures> repetitions;  // PAW's NREPS and work per iteration
    std::optional<paw_rate_figures> paw_rates;      // PAW's printed rates (report/paw.hpp)
    std::optional<message_rate_figures> message_rates;  // MB/s, messages/s of IMB and OSU rows
    std::optional<row_placement> placement;  // the nodes of the row's processes, where known
    // The caf suite's rows (report/caf_figures.hpp): every record of its layout has one.
    std::optional<caf_figures> caf;

    // The figure a table's "t[usec]" column and Google Benchmark's real_time show, decided by
    // what the times are over (never by suite or class): across ranks the slowest rank (t_max,
    // IMB and OSU); over repetitions their mean (t_avg, PAW).
    [[nodiscard]] double headline_time_us() const noexcept {
        return over_repetitions() ? t_avg_us : t_max_us;
    }
    // Whether t_min/t_max/t_avg are over timed repetitions (one loop of `iterations` calls each)
    // rather than across ranks; the plugin that builds the record says so in `statistics`.
    [[nodiscard]] bool over_repetitions() const noexcept {
        return statistics == time_statistics::over_repetitions;
    }
};

// The record's message rates, an empty block made where it has none (for a plugin to fill).
[[nodiscard]] inline message_rate_figures& message_rates_of(result_record& r) {
    return r.message_rates ? *r.message_rates : r.message_rates.emplace();
}

// --- JSON (event schema PARBENCH_EVENT_SCHEMA) ---------------------------------------------

inline void to_json(nlohmann::json& j, const summary& s) {
    j = {{"samples", s.samples}, {"min", s.min},       {"max", s.max},
         {"mean", s.mean},       {"stddev", s.stddev}, {"median", s.median},
         {"p5", s.p5},           {"p95", s.p95},       {"ci_low", s.ci_low},
         {"ci_high", s.ci_high}, {"ci_coverage", s.ci_coverage}};
}

inline void from_json(const nlohmann::json& j, summary& s) {
    s.samples = j.at("samples").get<std::size_t>();
    s.min = j.at("min").get<double>();
    s.max = j.at("max").get<double>();
    s.mean = j.at("mean").get<double>();
    s.stddev = j.at("stddev").get<double>();
    s.median = j.at("median").get<double>();
    s.p5 = j.at("p5").get<double>();
    s.p95 = j.at("p95").get<double>();
    s.ci_low = j.at("ci_low").get<double>();
    s.ci_high = j.at("ci_high").get<double>();
    s.ci_coverage = j.at("ci_coverage").get<double>();
}

inline void to_json(nlohmann::json& j, const block_info& b) {
    j = {{"title", b.title},
         {"processes", b.processes},
         {"groups", b.groups},
         {"group_ranks", b.group_ranks},
         {"rank_order", b.rank_order},
         {"waiting", b.waiting},
         {"mode", b.mode},
         {"group", b.group},
         {"threads", b.threads},
         {"timing", b.timing}};
    if (!b.datatype.empty()) j["datatype"] = b.datatype;
}

inline void from_json(const nlohmann::json& j, block_info& b) {
    b.title = j.at("title").get<std::string>();
    b.processes = j.at("processes").get<int>();
    b.groups = j.value("groups", 1);
    b.group_ranks = j.value("group_ranks", std::vector<std::vector<int>>{});
    b.rank_order = j.value("rank_order", std::vector<std::vector<int>>{});
    b.waiting = j.value("waiting", 0);
    b.mode = j.value("mode", std::string{});
    b.group = j.value("group", -1);
    b.threads = j.value("threads", 0);
    b.timing = j.value("timing", std::string{});
    b.datatype = j.value("datatype", std::string{});
}

inline void to_json(nlohmann::json& j, const availability_figures& a) {
    nlohmann::json ramp = nlohmann::json::array();
    for (const auto& [work, iter] : a.ramp_us) ramp.push_back({{"work_t_us", work}, {"iter_t_us", iter}});
    j = {{"base_t_us", a.base_t_us},
         {"iter_t_us", a.iter_t_us},
         {"work_t_us", a.work_t_us},
         {"overhead_us", a.overhead_us},
         {"avail_percent", a.avail_percent ? nlohmann::json(*a.avail_percent) : nullptr},
         {"threshold", a.threshold},
         {"work_dominated", a.work_dominated},
         {"ramp", ramp}};
}

inline void from_json(const nlohmann::json& j, availability_figures& a) {
    a.base_t_us = j.at("base_t_us").get<double>();
    a.iter_t_us = j.at("iter_t_us").get<double>();
    a.work_t_us = j.at("work_t_us").get<double>();
    a.overhead_us = j.at("overhead_us").get<double>();
    if (auto it = j.find("avail_percent"); it != j.end() && !it->is_null())
        a.avail_percent = it->get<double>();
    a.threshold = j.value("threshold", 0.0);
    a.work_dominated = j.value("work_dominated", false);
    for (const auto& step : j.value("ramp", nlohmann::json::array()))
        a.ramp_us.emplace_back(step.at("work_t_us").get<double>(), step.at("iter_t_us").get<double>());
}

inline void to_json(nlohmann::json& j, const window_sync_figures& w) {
    j = {{"valid_samples", w.valid_samples},
         {"invalid_samples", w.invalid_samples},
         {"window_us", w.window_us}};
}

inline void from_json(const nlohmann::json& j, window_sync_figures& w) {
    w.valid_samples = j.at("valid_samples").get<std::uint64_t>();
    w.invalid_samples = j.at("invalid_samples").get<std::uint64_t>();
    w.window_us = j.at("window_us").get<double>();
}

inline void to_json(nlohmann::json& j, const confidence_figures& c) {
    j = {{"target_percent", c.target_percent},
         {"achieved_percent", c.achieved_percent ? nlohmann::json(*c.achieved_percent) : nullptr},
         {"target_met", c.target_met},
         {"futile", c.futile},
         {"rounds", c.rounds}};
}

inline void from_json(const nlohmann::json& j, confidence_figures& c) {
    c.target_percent = j.at("target_percent").get<double>();
    if (auto it = j.find("achieved_percent"); it != j.end() && !it->is_null())
        c.achieved_percent = it->get<double>();
    c.target_met = j.at("target_met").get<bool>();
    c.futile = j.value("futile", false);  // absent in files of parbench before it
    c.rounds = j.at("rounds").get<int>();
}

inline void to_json(nlohmann::json& j, const loop_calibration_figures& c) {
    j = {{"nloop_calibrated", c.nloop_calibrated},
         {"warmup_us", c.warmup_us},
         {"loop_target_us", c.loop_target_us},
         {"recalibrations", c.recalibrations}};
}

inline void from_json(const nlohmann::json& j, loop_calibration_figures& c) {
    c.nloop_calibrated = j.at("nloop_calibrated").get<std::uint64_t>();
    c.warmup_us = j.at("warmup_us").get<double>();
    c.loop_target_us = j.at("loop_target_us").get<double>();
    c.recalibrations = j.at("recalibrations").get<int>();
}

// The repetition figures under their names in "metrics" (added to `metrics`).
inline void add_repetition_metrics(const repetition_figures& f,
                                   std::map<std::string, double>& metrics) {
    metrics["nreps"] = static_cast<double>(f.nreps);
    if (f.bytes_per_iteration) metrics["bytes_per_iteration"] = *f.bytes_per_iteration;
    if (f.messages_per_iteration) metrics["messages_per_iteration"] = *f.messages_per_iteration;
    if (f.devices) metrics["devices"] = static_cast<double>(*f.devices);
}

// The figure `name` of an event's "metrics", taken out of them; none where they lack it.
[[nodiscard]] inline std::optional<double> take_metric(std::map<std::string, double>& metrics,
                                                      const char* name) {
    const auto it = metrics.find(name);
    if (it == metrics.end()) return std::nullopt;
    const double value = it->second;
    metrics.erase(it);
    return value;
}

// A count among the metrics (nreps, devices, window_size): refused, naming it, unless a whole
// number from 0 to 2^53.
[[nodiscard]] inline std::uint64_t metric_count(const char* name, double value) {
    if (!(value >= 0.0 && value <= 9007199254740992.0) || value != std::floor(value))
        throw std::invalid_argument(std::string("metrics.") + name + " must be a count, not " +
                                    std::to_string(value));
    return static_cast<std::uint64_t>(value);
}

// The repetition figures of an event's "metrics", taken out of them: none without "nreps".
[[nodiscard]] inline std::optional<repetition_figures> take_repetition_metrics(
    std::map<std::string, double>& metrics) {
    const std::optional<double> nreps = take_metric(metrics, "nreps");
    if (!nreps) return std::nullopt;
    repetition_figures f{.nreps = metric_count("nreps", *nreps)};
    f.bytes_per_iteration = take_metric(metrics, "bytes_per_iteration");
    f.messages_per_iteration = take_metric(metrics, "messages_per_iteration");
    if (const auto devices = take_metric(metrics, "devices"))
        f.devices = metric_count("devices", *devices);
    return f;
}

// A block's optional figures, each by its name in "metrics" (paw_rate_figures,
// message_rate_figures).
template <class Figures>
using metric_name = std::pair<const char*, std::optional<double> Figures::*>;

// The figures of `f` that are set, under their names (added to `metrics`).
template <class Figures, std::size_t N>
void add_named_metrics(const Figures& f, const metric_name<Figures> (&names)[N],
                       std::map<std::string, double>& metrics) {
    for (const auto& [name, member] : names)
        if (const auto& value = f.*member) metrics[name] = *value;
}

// Those of the figures of `names` that an event's "metrics" have, taken out of them into `f`;
// whether there was one.
template <class Figures, std::size_t N>
bool take_named_metrics(Figures& f, const metric_name<Figures> (&names)[N],
                        std::map<std::string, double>& metrics) {
    bool any = false;
    for (const auto& [name, member] : names)
        if (const auto value = take_metric(metrics, name)) {
            f.*member = value;
            any = true;
        }
    return any;
}

// Each of the named figures of paw_rate_figures, by its name in "metrics".
inline constexpr metric_name<paw_rate_figures> paw_rate_metric_names[] = {
        {"flops_paw", &paw_rate_figures::flops_paw},
        {"gflops_paw", &paw_rate_figures::gflops_paw},
        {"percent_of_peak", &paw_rate_figures::percent_of_peak},
        {"rank_spread_percent", &paw_rate_figures::rank_spread_percent},
        {"aggregate_gflops_paw", &paw_rate_figures::aggregate_gflops_paw},
        {"gb_per_s_mean", &paw_rate_figures::gb_per_s_mean},
        {"gb_per_s_median", &paw_rate_figures::gb_per_s_median},
        {"messages_per_s_mean", &paw_rate_figures::messages_per_s_mean},
        {"messages_per_s_median", &paw_rate_figures::messages_per_s_median},
};

// PAW's rate figures under their names in "metrics" (added to `metrics`): those it has.
inline void add_paw_rate_metrics(const paw_rate_figures& f,
                                 std::map<std::string, double>& metrics) {
    add_named_metrics(f, paw_rate_metric_names, metrics);
}

// PAW's rate figures of an event's "metrics", taken out of them: none when it has none of them.
[[nodiscard]] inline std::optional<paw_rate_figures> take_paw_rate_metrics(
    std::map<std::string, double>& metrics) {
    paw_rate_figures f;
    if (!take_named_metrics(f, paw_rate_metric_names, metrics)) return std::nullopt;
    return f;
}

// The rates of message_rate_figures, by their names in "metrics".
inline constexpr metric_name<message_rate_figures> message_rate_metric_names[] = {
    {"mbytes_per_s", &message_rate_figures::mbytes_per_s},
    {"bandwidth_mb_s", &message_rate_figures::bandwidth_mb_s},
    {"messages_per_s", &message_rate_figures::messages_per_s},
};

// The message rates and window under their names in "metrics" (added to `metrics`): those set.
inline void add_message_rate_metrics(const message_rate_figures& f,
                                     std::map<std::string, double>& metrics) {
    add_named_metrics(f, message_rate_metric_names, metrics);
    if (f.window_size) metrics["window_size"] = static_cast<double>(*f.window_size);
}

// The message rates and window of an event's "metrics", taken out of them: none when it has
// none of them; a window that is no count is refused, naming it.
[[nodiscard]] inline std::optional<message_rate_figures> take_message_rate_metrics(
    std::map<std::string, double>& metrics) {
    message_rate_figures f;
    bool any = take_named_metrics(f, message_rate_metric_names, metrics);
    if (const auto window = take_metric(metrics, "window_size")) {
        f.window_size = metric_count("window_size", *window);
        any = true;
    }
    if (!any) return std::nullopt;
    return f;
}

inline void to_json(nlohmann::json& j, const row_placement& p) {
    j = {{"nodes", p.group_nodes}, {"span", std::string(p.span())}, {"run_nodes", p.run_nodes}};
}

inline void from_json(const nlohmann::json& j, row_placement& p) {
    p.group_nodes = j.at("nodes").get<std::vector<std::vector<int>>>();
    p.run_nodes = j.value("run_nodes", 1);
}

inline void to_json(nlohmann::json& j, const result_record& r) {
    std::map<std::string, double> metrics = r.metrics;
    if (r.repetitions) add_repetition_metrics(*r.repetitions, metrics);  // their names of old
    if (r.paw_rates) add_paw_rate_metrics(*r.paw_rates, metrics);
    if (r.message_rates) add_message_rate_metrics(*r.message_rates, metrics);
    j = {{"suite", r.suite},
         {"benchmark", r.benchmark},
         {"class", std::string(to_string(r.klass))},
         {"block", r.block},
         {"bytes", r.bytes},
         {"has_bytes", r.has_bytes},
         {"iterations", r.iterations},
         {"t_min_us", r.t_min_us},
         {"t_max_us", r.t_max_us},
         {"t_avg_us", r.t_avg_us},
         {"cpu_time_us", r.cpu_time_us},
         {"distribution_us", r.distribution_us},
         {"samples_us", r.samples_us},
         {"metrics", metrics},
         {"warnings", r.warnings},
         {"statistics", std::string(to_string(r.statistics))}};
    j["throughput_mib_s"] = r.throughput_mib_s ? nlohmann::json(*r.throughput_mib_s) : nullptr;
    j["defects"] = r.defects ? nlohmann::json(*r.defects) : nullptr;
    if (r.not_verified) j["not_verified"] = true;
    if (r.overlap) j["overlap"] = *r.overlap;  // only overlap benchmarks carry it
    if (r.availability) j["availability"] = *r.availability;
    if (r.unit != size_unit::bytes) j["size_unit"] = std::string(to_string(r.unit));
    if (r.epochs) j["epochs"] = *r.epochs;
    if (r.over_memory_need_bytes) j["over_memory_need_bytes"] = *r.over_memory_need_bytes;
    if (r.window_sync) j["window_sync"] = *r.window_sync;
    if (r.confidence) j["confidence"] = *r.confidence;
    if (r.loop_calibration) j["loop_calibration"] = *r.loop_calibration;
    if (r.placement) j["placement"] = *r.placement;
    if (r.caf) j["caf"] = *r.caf;
}

inline void from_json(const nlohmann::json& j, result_record& r) {
    r.suite = j.at("suite").get<std::string>();
    r.benchmark = j.at("benchmark").get<std::string>();
    r.klass = benchmark_class_from_string(j.at("class").get<std::string>());
    r.block = j.at("block").get<block_info>();
    r.bytes = j.at("bytes").get<std::uint64_t>();
    r.has_bytes = j.value("has_bytes", true);
    r.iterations = j.at("iterations").get<std::uint64_t>();
    r.t_min_us = j.at("t_min_us").get<double>();
    r.t_max_us = j.at("t_max_us").get<double>();
    r.t_avg_us = j.at("t_avg_us").get<double>();
    r.cpu_time_us = j.value("cpu_time_us", 0.0);
    if (auto it = j.find("throughput_mib_s"); it != j.end() && !it->is_null())
        r.throughput_mib_s = it->get<double>();
    if (auto it = j.find("defects"); it != j.end() && !it->is_null())
        r.defects = it->get<std::uint64_t>();
    r.not_verified = j.value("not_verified", false);
    if (auto it = j.find("overlap"); it != j.end() && !it->is_null())
        r.overlap = it->get<overlap_figures>();
    if (auto it = j.find("distribution_us"); it != j.end()) r.distribution_us = it->get<summary>();
    r.samples_us = j.value("samples_us", std::vector<double>{});
    r.metrics = j.value("metrics", std::map<std::string, double>{});
    r.repetitions = take_repetition_metrics(r.metrics);
    r.paw_rates = take_paw_rate_metrics(r.metrics);
    r.message_rates = take_message_rate_metrics(r.metrics);
    r.warnings = j.value("warnings", std::vector<std::string>{});
    r.statistics = j.value("statistics", std::string{}) == "over_repetitions"
                       ? time_statistics::over_repetitions
                       : time_statistics::across_ranks;
    if (auto it = j.find("availability"); it != j.end() && !it->is_null())
        r.availability = it->get<availability_figures>();
    if (auto it = j.find("size_unit"); it != j.end() && !it->is_null())
        r.unit = size_unit_from_string(it->get<std::string>());
    if (auto it = j.find("epochs"); it != j.end() && !it->is_null())
        r.epochs = it->get<std::uint64_t>();
    if (auto it = j.find("over_memory_need_bytes"); it != j.end() && !it->is_null())
        r.over_memory_need_bytes = it->get<std::uint64_t>();
    if (auto it = j.find("window_sync"); it != j.end() && !it->is_null())
        r.window_sync = it->get<window_sync_figures>();
    if (auto it = j.find("confidence"); it != j.end() && !it->is_null())
        r.confidence = it->get<confidence_figures>();
    if (auto it = j.find("loop_calibration"); it != j.end() && !it->is_null())
        r.loop_calibration = it->get<loop_calibration_figures>();
    if (auto it = j.find("placement"); it != j.end() && !it->is_null())
        r.placement = it->get<row_placement>();
    if (auto it = j.find("caf"); it != j.end() && !it->is_null()) r.caf = it->get<caf_figures>();
}

// Every named figure of a record as the JSON and CSV files list them under "metrics": the
// plugin's own `metrics` and the typed blocks under the names docs/methodology.md gives them
// (epochs; valid_samples, invalid_samples, window_us; ci_target_percent, ci_achieved_percent,
// ci_target_met and ci_futile as 1 or 0, confidence_rounds; nloop_calibrated, warmup_us, loop_target_us,
// recalibrations; nreps, bytes_per_iteration, messages_per_iteration, devices; PAW's rates,
// gflops_paw...: paw_rate_figures; mbytes_per_s, bandwidth_mb_s, messages_per_s, window_size:
// message_rate_figures; the caf figures
// of the row's table: report/caf_figures.hpp). The overlap and
// availability blocks have columns of their own.
[[nodiscard]] inline std::map<std::string, double> named_figures(const result_record& r) {
    std::map<std::string, double> out = r.metrics;
    if (r.epochs) out["epochs"] = static_cast<double>(*r.epochs);
    if (const auto& w = r.window_sync) {
        out["valid_samples"] = static_cast<double>(w->valid_samples);
        out["invalid_samples"] = static_cast<double>(w->invalid_samples);
        out["window_us"] = w->window_us;
    }
    if (const auto& c = r.confidence) {
        out["ci_target_percent"] = c->target_percent;
        if (c->achieved_percent) out["ci_achieved_percent"] = *c->achieved_percent;
        out["ci_target_met"] = c->target_met ? 1.0 : 0.0;
        out["ci_futile"] = c->futile ? 1.0 : 0.0;
        out["confidence_rounds"] = static_cast<double>(c->rounds);
    }
    if (const auto& l = r.loop_calibration) {
        out["nloop_calibrated"] = static_cast<double>(l->nloop_calibrated);
        out["warmup_us"] = l->warmup_us;
        out["loop_target_us"] = l->loop_target_us;
        out["recalibrations"] = static_cast<double>(l->recalibrations);
    }
    if (r.repetitions) add_repetition_metrics(*r.repetitions, out);
    if (r.paw_rates) add_paw_rate_metrics(*r.paw_rates, out);
    if (r.message_rates) add_message_rate_metrics(*r.message_rates, out);
    if (r.caf) add_named_figures(out, *r.caf);
    return out;
}

// A figure column a suite declares for a benchmark's table (run_start.columns), replacing the
// columns its class would give: `source` is a record field ("t_min_us", "t_max_us", "t_avg_us",
// "throughput_mib_s", "iterations", "defects", the overlap figures "t_ovrl_us", "t_pure_us",
// "t_cpu_us", "overlap_percent"), "validation" (the check's verdict as OSU prints it: Pass or
// Fail) or the key of one of its metrics ("t_ovrl_us", "overlap_percent").
// report/columns.hpp reads a record's value for it.
struct column {
    std::string source;
    std::string heading;  // as the table prints it: "t_ovrl[usec]"
    int precision = 2;    // decimals
    int width = 0;        // characters, heading and cells right-aligned; 0: the layout's width

    friend bool operator==(const column&, const column&) = default;
};

inline void to_json(nlohmann::json& j, const column& c) {
    j = {{"source", c.source}, {"heading", c.heading}, {"precision", c.precision}};
    if (c.width > 0) j["width"] = c.width;
}

inline void from_json(const nlohmann::json& j, column& c) {
    c.source = j.at("source").get<std::string>();
    c.heading = j.at("heading").get<std::string>();
    c.precision = j.value("precision", 2);
    c.width = j.value("width", 0);
}

// The event a plugin emits once, before its first result: what the console header shows and
// what the run context records. `layout` picks the console renderer (report/console_layouts.hpp);
// every suite names one.
struct run_start {
    std::string suite;
    std::string layout;        // "imb", "imb-nbc", "osu", "paw", "overlap", "caf"
    std::string title;         // "parbench 0.1.0, IMB-MPI1 compatible (IMB 4.0 methodology), MPI-1 part"
    nlohmann::json header;     // layout-specific header fields (see docs/plugin-authors.md)
    nlohmann::json context;    // run context: library versions, processes, threads, timer, ...
    std::vector<std::string> benchmarks;  // the resolved list, as the header prints it
    // Benchmark name -> its figure columns, for benchmarks whose table differs from what their
    // class gives (IMB-RMA's Truly_passive_put: t_pure and t_ovrl; every OSU table). Absent:
    // the class decides.
    std::map<std::string, std::vector<column>> columns;
};

inline void to_json(nlohmann::json& j, const run_start& s) {
    j = {{"suite", s.suite},   {"layout", s.layout},   {"title", s.title},
         {"header", s.header}, {"context", s.context}, {"benchmarks", s.benchmarks}};
    if (!s.columns.empty()) j["columns"] = s.columns;
}

inline void from_json(const nlohmann::json& j, run_start& s) {
    s.suite = j.at("suite").get<std::string>();
    s.layout = j.value("layout", std::string{});  // none: refused by require_layout
    s.title = j.value("title", std::string{});
    s.header = j.value("header", nlohmann::json::object());
    s.context = j.value("context", nlohmann::json::object());
    s.benchmarks = j.value("benchmarks", std::vector<std::string>{});
    s.columns = j.value("columns", std::map<std::string, std::vector<column>>{});
}

// Wraps a payload as an ABI event: {"event": kind, "schema": N, ...payload}.
[[nodiscard]] inline std::string make_event(std::string_view kind, nlohmann::json payload) {
    payload["event"] = kind;
    payload["schema"] = 1;  // PARBENCH_EVENT_SCHEMA
    // Text from the command line may be any bytes: invalid UTF-8 becomes U+FFFD, not an error.
    return payload.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace parbench
