// PAW's rows (catalogue C.3, C.8-C.10): the kinds of rows and the names of the two files PAW
// writes per test, which the console summary (paw_reporter, report/paw.hpp) and the files
// themselves (paw_dat_reporter, report/paw_dat.hpp) both follow. The files are written
// incrementally — after each size, so an interrupted run keeps what it measured — and whatever
// the console shows, --quiet included. Their names and kinds of rows are decided here:
//
//   BLAS:      <call>_time-np_<threads>.dat   N      min  max  mean  (seconds per call)
//              <call>_flops-np_<threads>.dat  N      min  max  mean  (GFlop/s, PAW's flop count)
//   transfers: <test>_time-np_<processes>.dat bytes  min  max  mean  (seconds per transfer)
//              <test>_bw-np_<processes>.dat   bytes  min  max  mean  (GB/s = 10^9 bytes/s)
//   MPI:       <test>_time-np_<tasks>.dat     bytes  min  max  mean  stddev  (s per iteration)
//              <test>_bw-np_<tasks>.dat       bytes  min  max  mean  (GB/s), or
//              <test>_rate-np_<tasks>.dat     bytes  min  max  mean  (messages/s), or none
//                                             (collectives: the time file only)
//              latency.dat                    bytes  min  max  mean  stddev  (two tasks only)
//
// What a row is follows from its record, never from its suite or test name (paw_row_of): the
// class (compute: BLAS; host_device_transfer: GPU/offload) and, between MPI tasks, the work
// its typed repetition figures say one iteration does (result.hpp's repetition_figures:
// bytes_per_iteration: bandwidth; messages_per_iteration: message rate; neither: time only).
// PAW does not give the column layout; parbench writes one '#' comment line naming the columns
// and units, then one line per size. Rates come from times: min rate = work / max time, mean
// rate = work / mean time. A test's <test> is the block title, which carries PAW's
// concurrent-device suffix ("_dev0+1").
#pragma once

#include <parbench/report/result.hpp>

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <utility>

namespace parbench::report {

// The two file names PAW uses for one call at one thread count.
[[nodiscard]] inline std::pair<std::string, std::string> paw_dat_names(const std::string& call,
                                                                       int threads) {
    return {fmt::format("{}_time-np_{}.dat", call, threads),
            fmt::format("{}_flops-np_{}.dat", call, threads)};
}

// The kinds of PAW rows: what their size means and which rate file and columns they carry.
enum class paw_row {
    blas,          // N, GFlop/s (class compute, and any record of no other kind)
    bandwidth,     // bytes, GB/s: host-device copies, MPI tests with bytes_per_iteration
    message_rate,  // bytes, messages/s: MPI tests with messages_per_iteration (p2p_mrate*)
    time_only,     // bytes, times only: the other MPI tests (latency, collectives)
};

[[nodiscard]] inline paw_row paw_row_of(const result_record& r) {
    switch (r.klass) {
        case benchmark_class::host_device_transfer: return paw_row::bandwidth;
        case benchmark_class::single_transfer:
        case benchmark_class::parallel_transfer:
        case benchmark_class::multiple_transfer:
        case benchmark_class::collective:
            if (!r.repetitions) return paw_row::time_only;
            if (r.repetitions->messages_per_iteration) return paw_row::message_rate;
            if (r.repetitions->bytes_per_iteration) return paw_row::bandwidth;
            return paw_row::time_only;
        case benchmark_class::compute:
        case benchmark_class::other: break;
    }
    return paw_row::blas;
}

// The repetitions a row timed (PAW's NREPS column), 0 for a row without repetition figures.
[[nodiscard]] inline std::uint64_t paw_nreps(const result_record& r) {
    return r.repetitions ? r.repetitions->nreps : 0;
}

// The devices a host-device transfer row used at once, 0 where the row does not say.
[[nodiscard]] inline std::uint64_t paw_devices(const result_record& r) {
    return r.repetitions ? r.repetitions->devices.value_or(0) : 0;
}

// Transfer rows (bytes): every row but BLAS's.
[[nodiscard]] inline bool paw_transfer_row(const result_record& r) {
    return paw_row_of(r) != paw_row::blas;
}

// Rows measured between MPI tasks (PAW writes their standard deviation too, catalogue C.5).
[[nodiscard]] inline bool paw_mpi_row(const result_record& r) {
    return paw_transfer_row(r) && r.klass != benchmark_class::host_device_transfer;
}

// The file names of a record: BLAS calls by thread count, transfer tests by process count. The
// second name is empty for time-only rows; a single transfer runs on exactly two tasks, so its
// one file carries no task count (PAW's latency.dat).
[[nodiscard]] inline std::pair<std::string, std::string> paw_dat_names(const result_record& r) {
    const paw_row kind = paw_row_of(r);
    if (kind == paw_row::blas) return paw_dat_names(r.benchmark, r.block.threads);
    std::string test = r.block.title.empty() ? r.benchmark : r.block.title;
    if (!r.block.timing.empty()) test += "_" + r.block.timing;  // a second method, its own files
    if (kind == paw_row::time_only && r.klass == benchmark_class::single_transfer)
        return {test + ".dat", ""};
    const std::string time = fmt::format("{}_time-np_{}.dat", test, r.block.processes);
    if (kind == paw_row::time_only) return {time, ""};
    return {time, fmt::format("{}_{}-np_{}.dat", test, kind == paw_row::message_rate ? "rate" : "bw",
                              r.block.processes)};
}

}  // namespace parbench::report
