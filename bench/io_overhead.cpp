// Is IMB-IO through parbench's runner as cheap as a hand-written MPI-IO loop? Two benchmarks,
// each on the same file, view and n as a plain loop that runs alternately with it:
//
//   S_Write_indv  one process, aggregate mode: n x MPI_File_write, then the assured completion
//                 (MPI_File_sync; MPI_Barrier; MPI_File_sync) — the plugin's definition through
//                 the runner's public phases vs  barriers, MPI_Wtime, the same calls, MPI_Wtime
//   P_Read_expl   both processes, n x MPI_File_read_at of X/2 bytes at disjoint offsets
//
//   S_IWrite_indv one process, t_ovrl's iteration (MPI_File_iwrite; the CPU load; MPI_Wait),
//                 n of them then the assured completion, the load calibrated to 50 µs (not
//                 IMB's 0.1 s, so that the loop's own cost is visible) vs the same by hand:
//                 the guide's non-aggregate shape (IMB 4.0)
//   S_IWrite_aggr one process, t_ovrl's aggregate sample as IMB 2021 times it
//                 (IMB_write.c:462-501): n x MPI_File_iwrite begun (a request each), the CPU
//                 load n times, one MPI_Waitall, the assured completion — the plugin's
//                 begun_transfer and io::overlapped_completion through the runner vs the same
//                 by hand
//
// at I/O portions of 4 KiB and 1 MiB, in a fresh directory under $TMPDIR (removed at the end).
// Each alternation gives a ratio parbench / plain of the time per call (max over the ranks, as
// IMB reports). Long form (benchmark()): the median ratio per size must stay within 3 %. Short
// form (--short, a benchmark() in suite bench-short): fails when a size's 95 % CI of the median ratio lies entirely
// outside [0.90, 1.10]. Both fail when a time was not measured.
//
//   mpiexec -n 2 ./io_overhead [ALTERNATIONS] [--short]
#include "mpi_pair.hpp"
#include "suites/imb_io_kernels.hpp"
#include "ratio_rule.hpp"

#include <parbench/core/statistics.hpp>
#include <parbench/mpi/environment.hpp>
#include <parbench/mpi/file_errors.hpp>
#include <parbench/mpi/phases.hpp>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace {

namespace pb = parbench;
using pb::pattern::io_access;
using pb::pattern::io_direction;
using pb::pattern::io_files;
using write_def = pb::imb_io::transfer_def<pb::imb_io::action(
    io_files::one_process, io_access::individual, io_direction::write)>;
using read_def = pb::imb_io::transfer_def<pb::imb_io::action(
    io_files::common, io_access::explicit_offset, io_direction::read)>;
using iwrite_def = pb::imb_io::nonblocking_def<pb::imb_io::action(
    io_files::one_process, io_access::individual, io_direction::write)>;
using plan_t = pb::mpi::timing_plan<pb::policy::iterations::imb_volume, pb::policy::sync::barrier,
                                    pb::policy::aggregation::aggregate>;

constexpr double tolerated_ratio = 1.03;
constexpr double short_low = 0.90;
constexpr double short_high = 1.10;

[[nodiscard]] double max_over_ranks(double value) {
    MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return value;
}

// IMB's aggregate write, by hand: the individual pointer from the first tile.
double plain_write_us(const pb::mpi::file_view& v, std::uint64_t n) {
    MPI_File_seek(v.fh, 0, MPI_SEEK_SET);
    MPI_Barrier(v.comm);
    MPI_Barrier(v.comm);
    const double start = MPI_Wtime();
    for (std::uint64_t i = 0; i < n; ++i)
        MPI_File_write(v.fh, v.buffer, v.count, MPI_BYTE, MPI_STATUS_IGNORE);
    MPI_File_sync(v.fh);
    MPI_Barrier(v.comm);
    MPI_File_sync(v.fh);
    return (MPI_Wtime() - start) / static_cast<double>(n) * 1e6;
}

// t_ovrl's iteration by hand, n times, then the assured completion.
double plain_iwrite_us(const pb::mpi::file_view& v, std::uint64_t n, pb::policy::matvec_load& load) {
    MPI_File_seek(v.fh, 0, MPI_SEEK_SET);
    MPI_Barrier(v.comm);
    MPI_Barrier(v.comm);
    const double start = MPI_Wtime();
    for (std::uint64_t i = 0; i < n; ++i) {
        MPI_Request request = MPI_REQUEST_NULL;
        MPI_File_iwrite(v.fh, v.buffer, v.count, MPI_BYTE, &request);
        load.run();
        MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
    MPI_File_sync(v.fh);
    MPI_Barrier(v.comm);
    MPI_File_sync(v.fh);
    return (MPI_Wtime() - start) / static_cast<double>(n) * 1e6;
}

// IMB 2021's aggregate t_ovrl sample by hand: n transfers begun, n loads, one MPI_Waitall, then
// the assured completion.
double plain_iwrite_aggregate_us(const pb::mpi::file_view& v, std::uint64_t n,
                                 pb::policy::matvec_load& load,
                                 std::vector<MPI_Request>& requests) {
    MPI_File_seek(v.fh, 0, MPI_SEEK_SET);
    requests.assign(static_cast<std::size_t>(n), MPI_REQUEST_NULL);
    MPI_Barrier(v.comm);
    MPI_Barrier(v.comm);
    const double start = MPI_Wtime();
    for (std::uint64_t i = 0; i < n; ++i)
        MPI_File_iwrite(v.fh, v.buffer, v.count, MPI_BYTE, &requests[static_cast<std::size_t>(i)]);
    for (std::uint64_t i = 0; i < n; ++i) load.run();
    MPI_Waitall(static_cast<int>(n), requests.data(), MPI_STATUSES_IGNORE);
    MPI_File_sync(v.fh);
    MPI_Barrier(v.comm);
    MPI_File_sync(v.fh);
    return (MPI_Wtime() - start) / static_cast<double>(n) * 1e6;
}

double plain_read_us(const pb::mpi::file_view& v, std::uint64_t n) {
    MPI_Barrier(v.comm);
    MPI_Barrier(v.comm);
    const double start = MPI_Wtime();
    for (std::uint64_t i = 0; i < n; ++i)
        MPI_File_read_at(v.fh, static_cast<MPI_Offset>(i % v.tiles) * v.portion + v.block_offset,
                         v.buffer, v.count, MPI_BYTE, MPI_STATUS_IGNORE);
    return (MPI_Wtime() - start) / static_cast<double>(n) * 1e6;
}

struct verdicts {
    int over = 0;
};

// One benchmark at one portion: both loops alternately on one prepared file.
// The completion is the definition's unless `completion_of` gives another (t_ovrl's
// overlapped_completion around it).
struct definition_completion {
    template <class Completion>
    Completion& operator()(Completion& own) const { return own; }
};

template <class Def, class MakeKernel, class Plain, class CompletionOf = definition_completion>
void compare(const char* name, const pb::mpi::session& s, const std::string& directory,
             std::uint64_t bytes, plan_t& plan, const bench::bench_args& args, int rank,
             verdicts& out, MakeKernel make_kernel, Plain plain,
             CompletionOf completion_of = {}) {
    const auto x = static_cast<std::size_t>(bytes);
    const std::uint64_t n = plan.iterations.n_sample(bytes, true);
    const pb::mpi::kernel_context context = s.context(x);
    const pb::mpi::file_site site{.directory = directory, .tiles = 2 * n};
    pb::mpi::prepared<pb::mpi::file_resource> ready = pb::mpi::prepare(
        s, pb::mpi::file_resource(Def::file(x, context, site), context), 0.0);
    auto kernel = make_kernel(context);
    typename Def::completion own_completion;
    auto&& completion = completion_of(own_completion);
    const bool active = s.active();
    const auto parbench_us = [&] {
        if (!active) return max_over_ranks(0.0);
        MPI_File_seek(ready.get().view().fh, 0, MPI_SEEK_SET);  // the file's room, as plain
        const auto mine = pb::mpi::time_iterations(s, Def::descriptor, ready, context, kernel,
                                                   completion, plan, bytes);
        return max_over_ranks(mine.total_s / static_cast<double>(mine.iterations) * 1e6);
    };
    const auto plain_us = [&] {
        if (!active) return max_over_ranks(0.0);
        const pb::mpi::file_view v = ready.get().view();
        return max_over_ranks(plain(v, n));
    };
    const auto [plain_all, runner_all, ratios] =
        bench::alternate(args.alternations, plain_us, parbench_us);
    ready.release();
    if (rank != 0) return;
    const auto ci = bench::median_with_ci(ratios);
    const bool measured = bench::all_measured(plain_all) && bench::all_measured(runner_all) &&
                          bench::all_measured(ratios);
    const bool ok = measured && (args.short_form ? bench::ci_within(ci, short_low, short_high)
                                                 : ci.median <= tolerated_ratio);
    out.over += ok ? 0 : 1;
    std::printf("%-13s %10llu %6llu %14.3f %14.3f %14.4f %10.4f %10.4f%s\n", name,
                static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(n),
                pb::summarize(plain_all).median, pb::summarize(runner_all).median, ci.median,
                ci.low, ci.high, ok ? "" : !measured ? "  NOT MEASURED" : "  OUTSIDE THE RULE");
}

}  // namespace

int main(int argc, char** argv) {
    pb::mpi::environment env(argc, argv);
    const auto started = bench::start_pair("io_overhead", argc, argv, 20);
    if (!started) return 1;
    const int rank = started->rank;
    const bench::bench_args& args = started->args;
    // The directory: rank 0's pid names it, under $TMPDIR.
    long long pid = rank == 0 ? static_cast<long long>(::getpid()) : 0;
    MPI_Bcast(&pid, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    const char* tmp = std::getenv("TMPDIR");
    const std::filesystem::path directory =
        std::filesystem::path(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") /
        ("parbench-io-bench-" + std::to_string(pid));
    if (rank == 0) std::filesystem::create_directories(directory);
    MPI_Barrier(MPI_COMM_WORLD);

    plan_t plan;
    plan.iterations.secs_per_sample = 1e9;  // never cut: the same n for both loops
    plan.iterations.msgs_per_sample = args.short_form ? 50 : 200;
    plan.iterations.overall_vol_bytes = 32ull << 20;
    if (rank == 0)
        std::printf("# IMB-IO overhead (%s form): parbench runner vs plain MPI-IO loops on the "
                    "same file and view, %d alternations, files in %s\n%-13s %10s %6s %14s %14s "
                    "%14s %10s %10s\n",
                    args.short_form ? "short" : "long", args.alternations, directory.c_str(),
                    "benchmark", "#bytes", "n", "plain[usec]", "parbench[usec]", "median_ratio",
                    "ci95_low", "ci95_high");
    verdicts out;
    // t_ovrl's CPU load, the same passes for both loops.
    pb::policy::matvec_load load;
    (void)pb::mpi::calibrate(MPI_COMM_WORLD, load, 50e-6);
    {
        const pb::mpi::session one(MPI_COMM_WORLD, 1);
        const pb::mpi::session both(MPI_COMM_WORLD, 2);
        for (const std::uint64_t bytes : {std::uint64_t{4096}, std::uint64_t{1} << 20}) {
            const auto blocking = [](const pb::mpi::kernel_context& c) {
                return write_def::make_kernel(c);
            };
            compare<write_def>("S_Write_indv", one, directory.string(), bytes, plan, args, rank,
                               out, blocking, plain_write_us);
            compare<read_def>("P_Read_expl", both, directory.string(), bytes, plan, args, rank,
                              out, [](const pb::mpi::kernel_context& c) {
                                  return read_def::make_kernel(c);
                              }, plain_read_us);
            compare<iwrite_def>(
                "S_IWrite_indv", one, directory.string(), bytes, plan, args, rank, out,
                [&](const pb::mpi::kernel_context&) {
                    return pb::imb_io::overlapped_transfer<iwrite_def::descriptor,
                                                           pb::policy::matvec_load>{&load};
                },
                [&](const pb::mpi::file_view& v, std::uint64_t n) {
                    return plain_iwrite_us(v, n, load);
                });
            // IMB 2021's aggregate shape: the epoch's requests reserved before timing, as
            // io::measure_overlap reserves them.
            pb::mpi_plugin::io::overlap_epoch epoch{.work = &load, .requests = {}};
            epoch.requests.reserve(
                static_cast<std::size_t>(plan.iterations.n_sample(bytes, true)));
            std::vector<MPI_Request> plain_requests;
            plain_requests.reserve(epoch.requests.capacity());
            pb::mpi_plugin::io::overlapped_completion<iwrite_def::completion> ends{&epoch, nullptr};
            compare<iwrite_def>(
                "S_IWrite_aggr", one, directory.string(), bytes, plan, args, rank, out,
                [&](const pb::mpi::kernel_context&) {
                    return pb::imb_io::begun_transfer<iwrite_def::descriptor>{&epoch};
                },
                [&](const pb::mpi::file_view& v, std::uint64_t n) {
                    return plain_iwrite_aggregate_us(v, n, load, plain_requests);
                },
                [&](iwrite_def::completion& own) -> decltype(ends)& {
                    ends.inner = &own;
                    return ends;
                });
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        std::error_code ignored;
        std::filesystem::remove_all(directory, ignored);
    }
    const std::string failure = pb::mpi::file_errors::take_agreed(MPI_COMM_WORLD);
    if (rank == 0 && !failure.empty()) std::printf("# MPI-IO failed: %s\n", failure.c_str());
    MPI_Bcast(&out.over, 1, MPI_INT, 0, MPI_COMM_WORLD);
    const bool ok = out.over == 0 && failure.empty();
    if (rank == 0) std::printf("# %s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
