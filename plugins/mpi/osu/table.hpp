// What an OSU table shows: the columns the osu suite declares for a benchmark (run_start.columns,
// rendered by report/osu_console.hpp) and the figures its records carry for them. In OSU 7's
// order (osu_util_mpi.c, print_only_header and print_stats), each column FIELD_WIDTH (18)
// characters wide with two decimals unless said otherwise:
//
//   the test's figures (block_text::figures)  Latency (us) | Avg Latency(us) | Bandwidth (MB/s) |
//                                             MB/s and Messages/s (mbw_mr)
//   -f, latency tables                        Min Latency(us)  Max Latency(us)  Iterations (12, %lu)
//   nonblocking collectives                   Overall(us) Compute(us) [-f: Coll. Init(us)
//                                             MPI_Test(us) MPI_Wait(us)] Pure Comm.(us) [-f: Min
//                                             Comm.(us) Max Comm.(us)] Overlap(%)
//   -c (or --check)                           Validation: Pass or Fail
//   -z [P,...], latency, nonblocking tables   P<P> Tail Lat(us) per percentile (default 50,90,99)
//   -z [P,...], bandwidth tables              P<P> Tail BW(MB/s) per percentile
//   then parbench's own, never between OSU's:
//   -c                                        Defects (10, the count)
//   -extra                                    Median, CI95 low and CI95 high of the first figure
//
// OSU's columns come from record fields (t_min_us, t_max_us, iterations, defects) and the
// message rates the definitions add (result_record::message_rates: bandwidth_mb_s,
// messages_per_s, osu/suite.hpp's add_bandwidth and add_message_rate); the others are metrics that
// add_table_figures() puts on each record — so JSON and CSV carry every figure the console shows:
//
//   p<P>_latency_us (one per -z percentile P)  OSU 7.5's tail latency of OSU's series of
//                                              single iterations (each one's mean over the
//                                              processes, or process 0's; osu/messages.hpp):
//                                              sorted element floor(n·P/100) - 1 of n
//   p<P>_bandwidth_mb_s (bandwidth tables)     the same element of OSU's series of one
//                                              process's MB/s of single windows (iterations)
//   median_<figure>, ci95_low_<figure>, ci95_high_<figure>   parbench's median and its 95 % CI
//                                                     (<figure>: latency_us, bandwidth_mb_s)
//
// The batch times (samples_us) are the slowest process's. A derived figure of -extra of a time is the batch time scaled
// by the figure's ratio to the headline time (an average over processes keeps its ratio to the
// slowest: never below zero, as a shift by their difference could be on a loaded machine); a
// rate is rescaled to the batch time (a rate's CI bounds come from the time's bounds, swapped).
#pragma once

#include "osu/options.hpp"

#include <parbench/report/result.hpp>

#include <array>
#include <span>
#include <vector>

namespace parbench::osu {

// One of the figures a test reports: its OSU heading, the record's field or metric that holds it
// (report/columns.hpp), the stem and unit of parbench's derived figures of it, and whether it is
// a rate (bytes or messages per time) or a time.
struct figure_text {
    const char* heading = "Latency (us)";
    const char* source = "t_max_us";
    const char* name = "latency_us";
    const char* unit = "us";
    bool rate = false;
    int width = 0;  // 0: FIELD_WIDTH; ibarrier's Overall(us) is OSU's "%13.2f" after "# "
};

inline constexpr figure_text latency_figure{};
// OSU 7.5's heading of the point-to-point latency tests (latency, multi_lat, latency_persistent,
// latency_mt, latency_mp: print_only_header's "Avg Latency(us)"); the one-sided tests keep
// "Latency (us)".
inline constexpr figure_text avg_latency_figure{.heading = "Avg Latency(us)"};
inline constexpr figure_text bandwidth_figure{.heading = "Bandwidth (MB/s)",
                                              .source = "bandwidth_mb_s",
                                              .name = "bandwidth_mb_s",
                                              .unit = "MB/s",
                                              .rate = true};

// How OSU prints a benchmark's block: its banner ("OSU MPI_Put Latency Test"), the datatype
// line, whether the one-sided lines (window creation, synchronisation) belong to it, mbw_mr's
// "# [ pairs: N ] [ window size: W ]" line, its figures (up to two) and whether it is a latency
// table (OSU's -f and -z columns apply).
struct block_text {
    const char* banner = nullptr;
    const char* datatype = "MPI_CHAR";  // nullptr: no datatype line (barrier, ibarrier)
    // Under -d OSU 7.5 names the accelerator in the banner ("OSU MPI-CUDA Latency Test": each
    // program's BENCHMARK "OSU MPI%s Latency Test"); false where its BENCHMARK has no %s
    // (multi_lat, mbw_mr, get_acc_latency, init, hello)
    bool names_accelerator = true;
    bool one_sided = false;
    bool pairs_line = false;
    std::array<figure_text, 2> figures{};
    int figure_count = 1;
    bool latency = false;
    // OSU's nonblocking collective table (print_only_header_nbc): the figure is Overall(us),
    // then Compute(us), with -f Coll. Init(us) MPI_Test(us) MPI_Wait(us), Pure Comm.(us), with -f
    // Min Comm.(us) Max Comm.(us), and Overlap(%) (record metrics, osu/nonblocking.hpp).
    bool nonblocking = false;
    // OSU's start-up programs print one line of text instead of a table: the pieces of text
    // between the figures (one more piece than sources), each figure a record field or metric
    // printed as a whole number ("nprocs: 2, min: 41 ms, ..."; no datatype line, no heading).
    std::span<const char* const> row_text{};
    std::span<const char* const> row_sources{};
};

// OSU's pair tests (latency, bw, bibw, their persistent forms, latency_mp) print process 0's
// own time, t_end - t_start on process 0 (osu_latency.c:277-278, osu_bw.c:363-377,
// osu_bibw.c:408-423, osu_latency_persistent.c:290-291, osu_bw_persistent.c:368-382,
// osu_bibw_persistent.c:399-414, osu_latency_mp.c:293-294): the record's metric of that time
// per iteration, µs (one way on the latency tests), beside the slowest process's t_max_us.
inline constexpr const char* process0_time_metric = "process0_time_us";
// The one-sided tests' "Latency (us)": process 0's t_end - t_start over the iterations as well
// (print_latency's rank 0 branch, osu_put_latency.c:162-166, :581-583 halving the fence and pscw
// round trips; osu_get_latency.c:162-166, osu_acc_latency.c:183-199, osu_fop_latency.c:178-193,
// osu_cas_latency.c:169-183, osu_get_acc_latency.c:750-754, :545-547); their MB/s too
// (print_bw's t, process 0's: osu_put_bw.c:164-166, :245, osu_get_bw.c:163-165,
// osu_put_bibw.c:151-156, :235).
inline constexpr figure_text one_sided_latency_figure{.source = process0_time_metric};
// osu_mbw_mr's time: the senders' (the first n/2 processes') own times per window summed, then
// their mean (MPI_Reduce SUM over the senders' communicator / num_pairs, osu_mbw_mr.c:656-666),
// from which its MB/s and messages/s follow; µs per iteration.
inline constexpr const char* senders_time_metric = "senders_mean_time_us";

// The time a record's OSU figure comes from: process 0's on the pair tests, the senders' mean on
// mbw_mr, else the headline (the slowest process's).
[[nodiscard]] inline double figure_time_us(const result_record& r) {
    for (const char* metric : {process0_time_metric, senders_time_metric})
        if (const auto it = r.metrics.find(metric); it != r.metrics.end()) return it->second;
    return r.headline_time_us();
}

// The columns of the benchmark's table with options `o`, in OSU's order, parbench's last.
[[nodiscard]] std::vector<column> table_columns(const block_text& text, const options& o);

// Adds the metrics behind the declared columns that are not record fields (-extra).
void add_table_figures(result_record& r, const block_text& text, const options& o);

// -z's columns of a table: OSU 7.5 prints "P<P> Tail Lat(us)" on its latency tables (the
// point-to-point and collective ones, print_only_header, osu_util_mpi.c:633-647; the nonblocking
// ones and partitioned_latency after Overlap(%) and Validation, print_only_header_nbc, :524-533,
// print_stats_nbc, :874-881; the one-sided latency tests, print_header_one_sided, :402-416)
// and "P<P> Tail BW(MB/s)" on its bandwidth ones (bw, bibw, their persistent forms and the fan
// tests: print_only_header, :633-647; mbw_mr: osu_mbw_mr.c:195-205; put_bw, get_bw, put_bibw:
// :402-416).
enum class tail_figure { none, latency, bandwidth };
[[nodiscard]] constexpr tail_figure tail_of(const block_text& text) noexcept {
    if (!text.row_text.empty()) return tail_figure::none;
    if (text.latency || text.nonblocking) return tail_figure::latency;
    if (text.figures[0].rate) return tail_figure::bandwidth;
    return text.one_sided ? tail_figure::latency : tail_figure::none;
}

// -z: the metric of each of -z's percentiles P, p<P>_latency_us or p<P>_bandwidth_mb_s, OSU
// 7.5's element of `series` (µs, or MB/s), the series OSU takes them from (osu/messages.hpp,
// tail_series), on every record of one size (the series sorted once).
void add_tail_figures(std::span<result_record> records, std::vector<double> series,
                      const options& o, tail_figure kind);

// OSU 7.5's series of MB/s for -z: `bytes` (of one iteration: W messages, 2 W on bibw, ...) over
// each of one process's times of single iterations, `seconds` (omb_lat_arr[i - options.skip] =
// tmp_total / (t_end - t_start), osu_bw.c:269-274; 0 for a time of 0).
[[nodiscard]] std::vector<double> tail_bandwidths_mb_s(std::span<const double> seconds,
                                                       double bytes);

}  // namespace parbench::osu
