// The caf suite: EPCC's Fortran Coarray Micro-Benchmark Suite (CAF_BENCH v1.0) as one table of
// benchmarks, each row naming the family that runs it (families/), the choice of what runs on
// this many images, and the run header. The Fortran kernels (caf_kernels.f90) do one transfer or
// one synchronisation; the loop around them is the runner's (timing.hpp), the tables and rows
// of each benchmark mpi::sweep()'s, with each family's policy (families/families.hpp).
#include "suite.hpp"

#include "caf_kernels.h"
#include "families/families.hpp"
#include "toolchain.hpp"

#include <parbench/core/clock.hpp>
#include <parbench/core/error.hpp>
#include <parbench/core/names.hpp>
#include <parbench/mpi/environment.hpp>
#include <parbench/report/caf_header.hpp>
#include <parbench/report/mpi_suite_context.hpp>
#include <parbench/report/stability.hpp>

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace parbench::caf {
namespace suite_impl {
namespace {

constexpr const char* suite_name = "caf";

// ---- the catalogue: every benchmark, in `parbench list` order, and the family that runs it ----

// Which file of families/ runs a row.
enum class family { transfer, mpi_send, sync, halo };

struct entry {
    parbench_benchmark info;
    family kind;
    std::size_t transfer = 0;  // index into transfer_patterns
    sync_kind sync = sync_kind::all;
};

constexpr std::uint32_t dflt = PARBENCH_BENCH_DEFAULT;
constexpr const char* pt2pt = "single_transfer";

constexpr entry catalogue[] = {
    {{"put", "x(1:ndata)[image] = x(1:ndata)", pt2pt, dflt}, family::transfer, 0},
    {{"subput", "put through a subroutine (disp, count)", pt2pt, dflt}, family::transfer, 1},
    {{"simple_subput", "put through a subroutine: target(:)[image] = source(:)", pt2pt, dflt},
     family::transfer, 2},
    {{"all_put", "x(:)[image] = x(:), x of exactly ndata elements", pt2pt, dflt},
     family::transfer, 3},
    {{"many_put", "count puts of blksize elements", pt2pt, dflt}, family::transfer, 4},
    {{"sub_manyput", "many put inside one subroutine", pt2pt, dflt}, family::transfer, 5},
    {{"many_subput", "count calls of the subput subroutine", pt2pt, dflt}, family::transfer, 6},
    {{"strided_put", "one strided section, blocks stride apart", pt2pt, dflt}, family::transfer, 7},
    {{"strided_subput", "strided section through a subroutine", pt2pt, dflt}, family::transfer, 8},
    {{"strided_many_put", "count puts of blksize, stride blocks apart", pt2pt, dflt},
     family::transfer, 9},
    {{"get", "x(1:ndata) = x(1:ndata)[image]", pt2pt, dflt}, family::transfer, 10},
    {{"subget", "get through a subroutine (disp, count)", pt2pt, dflt}, family::transfer, 11},
    {{"simple_subget", "get through a subroutine: target(:) = source(:)[image]", pt2pt, dflt},
     family::transfer, 12},
    {{"all_get", "x(:) = x(:)[image], x of exactly ndata elements", pt2pt, dflt},
     family::transfer, 13},
    {{"many_get", "count gets of blksize elements", pt2pt, dflt}, family::transfer, 14},
    {{"sub_manyget", "many get inside one subroutine", pt2pt, dflt}, family::transfer, 15},
    {{"many_subget", "count calls of the subget subroutine", pt2pt, dflt}, family::transfer, 16},
    {{"strided_get", "one strided section, blocks stride apart", pt2pt, dflt}, family::transfer, 17},
    {{"strided_subget", "strided section through a subroutine", pt2pt, dflt}, family::transfer, 18},
    {{"strided_many_get", "count gets of blksize, stride blocks apart", pt2pt, dflt},
     family::transfer, 19},
    {{"mpi_send", "MPI_Send/MPI_Recv ping-pong of the same data (sanity check)", pt2pt, dflt},
     family::mpi_send},
    {{"sync_all", "Overhead of sync all", "other", dflt}, family::sync, 0, sync_kind::all},
    {{"sync_mpi_barrier", "Overhead of MPI_Barrier, for comparison", "other", dflt}, family::sync,
     0, sync_kind::mpi_barrier},
    {{"sync_images_pairwise", "Overhead of sync images with the partner i +- n/2", "other", dflt},
     family::sync, 0, sync_kind::pairwise},
    {{"sync_images_random", "Overhead of sync images with N random neighbours", "other", dflt},
     family::sync, 0, sync_kind::random},
    {{"sync_images_ring", "Overhead of sync images with the images +-1 ... +-N/2", "other", dflt},
     family::sync, 0, sync_kind::ring},
    {{"sync_images_3d_grid", "Overhead of sync images with the 3D grid neighbours", "other", dflt},
     family::sync, 0, sync_kind::grid},
    {{"sync_lock", "Overhead of lock/unlock of a lock variable on image 1", "other", dflt},
     family::sync, 0, sync_kind::lock},
    {{"sync_critical", "Overhead of an empty critical construct", "other", dflt}, family::sync,
     0, sync_kind::critical},
    {{"halo", "3D periodic halo swap on the MPI_Dims_create grid", "parallel_transfer", dflt},
     family::halo},
};
constexpr std::size_t catalogue_size = std::size(catalogue);

constexpr auto benchmark_infos = [] {
    std::array<parbench_benchmark, catalogue_size> infos{};
    for (std::size_t i = 0; i < catalogue_size; ++i) infos[i] = catalogue[i].info;
    return infos;
}();

// ---- selection: what runs, and what is refused before anything runs -------------------------

// Why benchmark `e` cannot run on `images` images ("" when it can).
[[nodiscard]] std::string cannot_run(const entry& e, const options& o, int images) {
    if (e.kind == family::transfer || e.kind == family::mpi_send) {
        for (const ping_pong_mode mode : o.modes)
            if (std::string why = refusal(mode, images); !why.empty()) return why;
        return {};
    }
    if (e.kind != family::sync) return {};
    if (e.sync == sync_kind::critical) return critical_section_problem();
    if ((e.sync == sync_kind::random || e.sync == sync_kind::ring) && images < 2)
        return "sync images with neighbours needs at least 2 images; the run has 1";
    if (e.sync == sync_kind::pairwise && (images < 2 || images % 2 != 0))
        return "pairs image i with i + n/2 and needs an even number of images; the run has " +
               std::to_string(images);
    return {};
}

// The benchmarks to run, in catalogue order. A benchmark (or -mode) the user named that cannot
// run at this image count is refused (one line, exit status 2); one that is merely among the
// defaults is skipped with a warning.
struct selection {
    std::vector<const entry*> chosen;
    std::vector<std::string> skipped;  // "NAME skipped: WHY", said after the run has started
};

[[nodiscard]] selection select(const run_request& request, const options& o, int images) {
    selection s;
    for (const entry& e : catalogue) {
        const bool named = std::any_of(request.benchmarks.begin(), request.benchmarks.end(),
                                       [&](const std::string& b) { return same_name(b, e.info.name); });
        if (!request.benchmarks.empty() && !named) continue;
        const std::string why = cannot_run(e, o, images);
        if (why.empty()) {
            s.chosen.push_back(&e);
            continue;
        }
        const bool asked = named || (o.modes_given && e.kind != family::sync);
        if (asked) throw input_error(std::string(e.info.name) + ": " + why);
        s.skipped.push_back(std::string(e.info.name) + " skipped: " + why);
    }
    return s;
}

// Every array of the chosen point-to-point benchmarks must fit the size limit; judged before
// the run, alike on every image.
void check_extents(const options& o, const std::vector<const entry*>& chosen) {
    std::vector<placement> used;
    for (const entry* e : chosen) {
        if (e->kind == family::mpi_send) used.push_back(placement::contiguous);
        if (e->kind == family::transfer) used.push_back(transfer_patterns[e->transfer].where);
    }
    for (const int count : o.counts) {
        for (const placement where : used) {
            // In floating point: the factors may reach 2^31 each (data_geometry's int64 would
            // overflow before the comparison).
            const double stride = where == placement::contiguous ? 1.0 : o.stride;
            const double extent = ((count - 1.0) * stride + 1.0) * o.blksize;
            if (extent > static_cast<double>(max_extent_elements))
                throw input_error(fmt::format(
                    "-count {} -blksize {}{}: an array of {:.0f} elements would exceed the limit of "
                    "{} elements (1 GiB) per image",
                    count, o.blksize,
                    where == placement::contiguous ? "" : fmt::format(" -stride {}", o.stride),
                    extent, max_extent_elements));
        }
    }
}

// ---- one run: the header on rank 0, then each chosen row's family on every image -------------

void run_suite(const run_request& request, const plugin::host_channel& host) {
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const options o = parse_options(request);
    const auto [chosen, skipped] = select(request, o, size);
    check_extents(o, chosen);

    if (rank == 0) {
        run_start start;
        start.suite = suite_name;
        start.layout = "caf";
        start.title = "parbench " PARBENCH_PLUGIN_VERSION
                      ", EPCC CAF_BENCH compatible (Fortran Coarray Micro-Benchmark Suite 1.0 "
                      "method)";
        for (const entry* e : chosen) start.benchmarks.emplace_back(e->info.name);
        std::vector<std::string> modes, syncs;
        for (const auto m : o.modes) modes.emplace_back(to_string(m));
        for (const auto s : o.syncs) syncs.emplace_back(to_string(s));
        const auto clock = measure_clock(mpi::wtime_clock{});
        start.header = report::caf_header{.images = size,
                                          .coarray_runtime = PARBENCH_CAF_RUNTIME,
                                          .compiler = PARBENCH_CAF_COMPILER,
                                          .mpi_version = mpi::standard_version(),
                                          .check = o.check};
        start.context =
            report::mpi_suite_context{.mpi_library = mpi::library_version(), .processes = size};
        start.context.update({
            {"coarray_runtime", PARBENCH_CAF_RUNTIME},
            {"compiler", PARBENCH_CAF_COMPILER},
            {"timer", "MPI_Wtime"},
            {"options",
             {{"counts", o.counts},
              {"blksize", o.blksize},
              {"stride", o.stride},
              {"modes", modes},
              {"syncs", syncs},
              {"syncmaxneigh", o.syncmaxneigh},
              {"seed", o.seed},
              {"delay_us", o.delay_us},
              {"halo_sizes", o.halo_sizes},
              {"msgs_per_sample", o.iterations.msgs_per_sample},
              {"time_s", o.iterations.secs_per_sample},
              {"check", o.check}}}});
        start.context.update(nlohmann::json(report::timer_limits::of(clock)));
        host.run_started(start);
        for (const auto& message : skipped) host.warning(message);
    }

    const mpi::session images(MPI_COMM_WORLD, size);
    parbench_caf_warm_up();
    const run_context c{o, host, images, rank, size, {o.iterations, o.check}};
    // Calibrated once, before the first synchronisation benchmark: not a sweep of its own
    // (calibrate_delay says why).
    std::optional<int> delay_loops;
    for (const entry* e : chosen) {
        switch (e->kind) {
            case family::transfer: run_transfer(c, transfer_patterns[e->transfer]); break;
            case family::mpi_send: run_mpi_send(c); break;
            case family::sync:
                if (!delay_loops) delay_loops = calibrate_delay(o.delay_us);
                run_sync(c, e->info.name, e->sync, *delay_loops);
                break;
            case family::halo: run_halo(c); break;
        }
    }
}

const parbench_suite info = {suite_name,
                             "EPCC Fortran coarray micro-benchmarks (CAF_BENCH 1.0): "
                             "put/get ping-pongs, synchronisation, halo swap",
                             benchmark_infos.data(), catalogue_size, parameters,
                             std::size(parameters), PARBENCH_SUITE_NEEDS_MPI};

}  // namespace

}  // namespace suite_impl
const plugin::hosted_suite suites::caf = {suite_impl::info, &suite_impl::run_suite};

}  // namespace parbench::caf
