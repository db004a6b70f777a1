// The coarray plugin (parbench_caf.so): suite `caf`, EPCC's Fortran Coarray Micro-Benchmark
// Suite (CAF_BENCH v1.0) on OpenCoarrays for MPICH, through the same driver, runner and records
// as every other suite.
//
// Lifetime: the MPI plugin (loaded RTLD_GLOBAL, initialised first) starts MPI; this plugin's
// init starts the coarray runtime with the real argc/argv (OpenCoarrays sees MPI_Initialized and
// leaves MPI to its owner) and its finalize stops it, before the driver finalizes the MPI
// plugin. The Fortran kernels (caf_kernels.f90) do one transfer or one synchronisation; the
// loop around them is the runner's (timing.hpp).
#include "caf_kernels.h"
#include "neighbours.hpp"
#include "options.hpp"
#include "ping_pong_kernels.hpp"
#include "point_to_point.hpp"
#include "runtime.hpp"
#include "timing.hpp"

#include <parbench/core/clock.hpp>
#include <parbench/core/error.hpp>
#include <parbench/core/names.hpp>
#include <parbench/mpi/environment.hpp>
#include <parbench/plugin/export.hpp>
#include <parbench/plugin/request.hpp>

#include <fmt/format.h>
#include <mpi.h>

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <vector>

#ifndef PARBENCH_PLUGIN_VERSION
#define PARBENCH_PLUGIN_VERSION "0.0.0"
#endif
#ifndef PARBENCH_CAF_RUNTIME
#define PARBENCH_CAF_RUNTIME "OpenCoarrays"
#endif
#ifndef PARBENCH_CAF_COMPILER
#define PARBENCH_CAF_COMPILER "gfortran"
#endif

namespace parbench::caf {
namespace {

constexpr const char* suite_name = "caf";

// ---- the benchmarks --------------------------------------------------------------------------

enum class family { transfer, mpi_send, sync, halo };
enum class sync_kind { all, mpi_barrier, pairwise, random, ring, grid, lock, critical };

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

// ---- one run ------------------------------------------------------------------------------

struct run_context {
    const options& opts;
    const plugin::host_channel& host;
    const mpi::session& images;
    int rank = 0;
    int size = 1;
    timing_settings timing;
};

// EPCC's "MPI_Cart_dims" grid, reversed for Fortran indexing (x varies fastest).
[[nodiscard]] grid3 image_grid(int images) {
    std::array<int, 3> dims{0, 0, 0};
    MPI_Dims_create(images, 3, dims.data());
    return {{dims[2], dims[1], dims[0]}};
}

// -- point-to-point --

// -check for the point-to-point patterns (the runner's data_check): the known answer of
// point_to_point.hpp, on the coarray itself.
struct point_to_point_check {
    static constexpr bool enabled = true;
    std::span<double> data;
    int rank = 0;
    ping_pong_role role;
    data_geometry geometry;
    void fill_send(const mpi::kernel_context& /*c*/, std::span<std::byte> /*slot*/) const {
        fill_known(data, rank);
    }
    [[nodiscard]] std::uint64_t verify(const mpi::kernel_context& /*c*/, std::uint64_t /*last*/,
                                       std::span<const std::byte> /*slot*/) const {
        return count_defects(data, rank, role, geometry);
    }
};

void describe_transfer(result_record& r, std::string_view name, std::string_view how,
                       const data_geometry& g) {
    r.benchmark = r.block.title = std::string(name);
    r.block.mode = std::string(how);
    r.metrics = {{"count", static_cast<double>(g.count)},
                 {"blksize", static_cast<double>(g.blksize)},
                 {"stride", static_cast<double>(g.stride)},
                 {"ndata", static_cast<double>(g.ndata())},
                 {"nextent", static_cast<double>(g.nextent())}};
    const double median_us = r.distribution_us.median;
    r.throughput_mib_s = median_us > 0.0 ? static_cast<double>(r.bytes) / 1.048576 / median_us
                                         : 0.0;
}

[[nodiscard]] std::string mode_text(ping_pong_mode mode, int images) {
    if (mode == ping_pong_mode::single)
        return fmt::format("single ping-pong, images 1 and {}", images);
    const int pairs = images / 2;
    return fmt::format("{} ping-pong, images i and i+{} ({} pair{})",
                       mode == ping_pong_mode::multiple ? "multiple" : "multiple crossing", pairs,
                       pairs, pairs == 1 ? "" : "s");
}

void run_transfer(const run_context& c, const transfer_pattern& p) {
    for (const ping_pong_mode mode : c.opts.modes) {
        if (!refusal(mode, c.size).empty()) continue;  // judged before the run (select())
        const ping_pong_role role = role_of(mode, c.rank, c.size);
        const bool put = p.dir == direction::put;
        const bool initiator = role.kind == ping_pong_role::initiator;
        const bool idle = role.kind == ping_pong_role::idle;
        for (const step_sync sync : c.opts.syncs) {
            for (const int count : c.opts.counts) {
                const data_geometry g = geometry_of(p.where, count, c.opts);
                c.host.progress(p.name, g.bytes(), c.size);
                auto* base = static_cast<double*>(parbench_caf_prepare_point_to_point(
                    count, c.opts.blksize, static_cast<int>(g.stride),
                    static_cast<int>(g.nextent()), p.where == placement::strided_columns ? 1 : 0));
                const point_to_point_check check{
                    {base, static_cast<std::size_t>(g.nextent())}, c.rank, role, g};
                const caf_step step{.time_divisor = 2.0};
                const auto measure_with = [&](auto kernel) {
                    kernel.transfer = p.kernel;
                    kernel.partner_image = idle ? 0 : role.partner + 1;
                    kernel.moves_in_step_one = !idle && (put == initiator);
                    kernel.moves_in_step_two = !idle && (put != initiator);
                    return time_on_all_images(c.images, step, std::string(p.name), g.bytes(),
                                              kernel, c.timing, check);
                };
                std::optional<result_record> r =
                    sync == step_sync::all ? measure_with(ping_pong_kernel<sync_all_step>{})
                                           : measure_with(ping_pong_kernel<sync_images_step>{});
                parbench_caf_release_point_to_point();
                if (!r) continue;
                describe_transfer(*r, p.name,
                                  mode_text(mode, c.size) + ", " + std::string(to_string(sync)), g);
                c.host.result(*r);
            }
        }
    }
}

void run_mpi_send(const run_context& c) {
    for (const ping_pong_mode mode : c.opts.modes) {
        if (!refusal(mode, c.size).empty()) continue;
        const ping_pong_role role = role_of(mode, c.rank, c.size);
        for (const int count : c.opts.counts) {
            const data_geometry g = geometry_of(placement::contiguous, count, c.opts);
            c.host.progress("mpi_send", g.bytes(), c.size);
            auto* base = static_cast<double*>(parbench_caf_prepare_point_to_point(
                count, c.opts.blksize, 1, static_cast<int>(g.nextent()), 0));
            const point_to_point_check check{
                {base, static_cast<std::size_t>(g.nextent())}, c.rank, role, g};
            const mpi_send_kernel kernel{base, static_cast<int>(g.ndata()),
                                         role.kind == ping_pong_role::idle ? -1 : role.partner,
                                         role.kind == ping_pong_role::initiator};
            std::optional<result_record> r = time_on_all_images(
                c.images, caf_step{.time_divisor = 2.0}, "mpi_send", g.bytes(), kernel, c.timing,
                check);
            parbench_caf_release_point_to_point();
            if (!r) continue;
            describe_transfer(*r, "mpi_send", mode_text(mode, c.size) + ", MPI_Send/MPI_Recv", g);
            c.host.result(*r);
        }
    }
}

// -- synchronisation --

// The critical construct lives in libparbench_caf_critical.so (caf_critical.f90), opened in
// init after the runtime started; nullptr with `critical_problem` set when it could not be.
void (*critical_section)() = nullptr;
std::string critical_problem = "the coarray runtime has not started";

void open_critical_library() {
    Dl_info self{};
    std::string path = "libparbench_caf_critical.so";
    if (::dladdr(reinterpret_cast<const void*>(&open_critical_library), &self) != 0 &&
        self.dli_fname != nullptr)
        path = (std::filesystem::path(self.dli_fname).parent_path() / path).string();
    void* library = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (library == nullptr) {
        const char* why = ::dlerror();
        critical_problem = "cannot open " + path + ": " + (why != nullptr ? why : "unknown error");
        return;
    }
    critical_section = reinterpret_cast<void (*)()>(::dlsym(library, "parbench_caf_critical"));
    if (critical_section == nullptr) critical_problem = path + " lacks parbench_caf_critical";
}

using sync_call = void (*)(const int* images, int n);
void no_sync(const int* /*images*/, int /*n*/) {}
void sync_all_call(const int* /*images*/, int /*n*/) { parbench_caf_sync_all(); }
void mpi_barrier_call(const int* /*images*/, int /*n*/) { MPI_Barrier(MPI_COMM_WORLD); }
void lock_call(const int* /*images*/, int /*n*/) { parbench_caf_lock_unlock(); }
void critical_call(const int* /*images*/, int /*n*/) { critical_section(); }

// One iteration of EPCC's synchronisation benchmarks: the delay loop, then the synchronisation
// (none for the reference time).
struct delay_and_sync_kernel {
    int delay_loops = 0;
    sync_call sync = no_sync;
    const int* images = nullptr;
    int n = 0;
    template <class Buffers>
    void operator()(const mpi::kernel_context& /*c*/, std::uint64_t /*i*/, const Buffers&) const {
        parbench_caf_delay(delay_loops);
        sync(images, n);
    }
};

// Delay-loop iterations that take `delay_us` on rank 0, the same count on every image. The
// loop is timed at ~2 ms, five times, and the fastest run counts: a preempted run would make
// the delay loop too short.
[[nodiscard]] int calibrate_delay(double delay_us) {
    const auto elapsed_us = [](int loops) {
        const double start = MPI_Wtime();
        parbench_caf_delay(loops);
        return (MPI_Wtime() - start) * 1e6;
    };
    int loops = 1024;
    while (loops < (1 << 29) && elapsed_us(loops) < 2000.0) loops *= 2;
    double fastest_us = elapsed_us(loops);
    for (int repeat = 0; repeat < 4; ++repeat) fastest_us = std::min(fastest_us, elapsed_us(loops));
    int delay_loops = static_cast<int>(std::clamp(
        static_cast<double>(loops) / std::max(fastest_us, 1e-3) * delay_us, 1.0, 2e9));
    MPI_Bcast(&delay_loops, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return delay_loops;
}

// overhead = t(delay + sync) - t(delay), from the medians; its interval is the widest the two
// medians' intervals allow. An interval that reaches zero is reported as within noise (a
// negative median always is), never as a bare negative number.
void describe_overhead(result_record& with_sync, const result_record& delay_only,
                       std::string_view name, int neighbours, double delay_us) {
    const summary& w = with_sync.distribution_us;
    const summary& d = delay_only.distribution_us;
    const double overhead = w.median - d.median;
    const double low = w.ci_low - d.ci_high;
    const double high = w.ci_high - d.ci_low;
    with_sync.benchmark = with_sync.block.title = std::string(name);
    with_sync.block.mode = fmt::format("delay loop {:g} usec", delay_us);
    with_sync.klass = benchmark_class::other;
    with_sync.throughput_mib_s.reset();
    with_sync.metrics = {{"neighbours", static_cast<double>(neighbours)},
                         {"t_delay_sync_us", w.median},
                         {"t_delay_us", d.median},
                         {"overhead_us", overhead},
                         {"overhead_ci_low_us", low},
                         {"overhead_ci_high_us", high},
                         {"overhead_within_noise", low <= 0.0 ? 1.0 : 0.0}};
}

struct sync_row {
    sync_call sync;
    std::vector<int> images;  // the sync images list of this image (1-based)
    int neighbours = 0;       // as reported (rank 0's count)
};

void run_sync_row(const run_context& c, std::string_view name, const sync_row& row,
                  int delay_loops) {
    c.host.progress(name, 0, c.size);
    const caf_step step{.klass = benchmark_class::other, .nmsg = 0};
    const delay_and_sync_kernel reference{delay_loops, no_sync, nullptr, 0};
    const delay_and_sync_kernel with_sync{delay_loops, row.sync, row.images.data(),
                                          static_cast<int>(row.images.size())};
    // Alternated within one measurement pair: the reference first, then the same loop synced.
    const std::optional<result_record> delay_only =
        time_on_all_images(c.images, step, std::string(name), 0, reference, c.timing);
    std::optional<result_record> r =
        time_on_all_images(c.images, step, std::string(name), 0, with_sync, c.timing);
    if (!r || !delay_only) return;
    describe_overhead(*r, *delay_only, name, row.neighbours, c.opts.delay_us);
    c.host.result(*r);
}

[[nodiscard]] std::vector<sync_row> sync_rows(const run_context& c, sync_kind kind) {
    const auto list = [&](std::span<const int> ranks, int reported) {
        return sync_row{parbench_caf_sync_images, as_images(distinct_others(ranks, c.rank)),
                        reported};
    };
    switch (kind) {
        case sync_kind::all: return {{sync_all_call, {}, c.size - 1}};
        case sync_kind::mpi_barrier: return {{mpi_barrier_call, {}, c.size - 1}};
        case sync_kind::lock: return {{lock_call, {}, 0}};
        case sync_kind::critical: return {{critical_call, {}, 0}};
        case sync_kind::pairwise: {
            const int partner = pair_partner(c.rank, c.size);
            return {list(std::span(&partner, 1), 1)};
        }
        case sync_kind::random:
        case sync_kind::ring: {
            // The ring in image order, or randomly permuted (EPCC: "so that they all match").
            std::vector<int> order(static_cast<std::size_t>(c.size));
            std::iota(order.begin(), order.end(), 0);
            if (kind == sync_kind::random) order = random_order(c.size, c.opts.seed);
            std::vector<sync_row> rows;
            for (const int n : neighbour_counts(c.opts.syncmaxneigh, c.size))
                rows.push_back(list(ring_neighbours(order, c.rank, n), n));
            return rows;
        }
        case sync_kind::grid: {
            const std::array<int, 6> around = image_grid(c.size).neighbours(c.rank);
            const std::vector<int> distinct = distinct_others(around, c.rank);
            int reported = static_cast<int>(distinct.size());
            MPI_Bcast(&reported, 1, MPI_INT, 0, MPI_COMM_WORLD);
            return {list(around, reported)};
        }
    }
    return {};
}

void run_sync(const run_context& c, const entry& e, int delay_loops) {
    if (e.sync == sync_kind::lock) parbench_caf_prepare_lock();
    for (const sync_row& row : sync_rows(c, e.sync)) run_sync_row(c, e.info.name, row, delay_loops);
    if (e.sync == sync_kind::lock) parbench_caf_release_lock();
}

// -- halo --

// -check for the halo swap: interior cells hold known values, halo cells -1; after a swap each
// face of halo cells holds the neighbour's opposite boundary face, edges and corners stay -1.
struct halo_check {
    static constexpr bool enabled = true;
    std::span<double> field;  // (0:n+1)^3, Fortran order
    int n = 0;
    int rank = 0;
    std::array<int, 6> around{};  // ranks: x-, x+, y-, y+, z-, z+

    [[nodiscard]] std::int64_t index(int i, int j, int k) const noexcept {
        const std::int64_t e = n + 2;
        return i + e * (j + e * static_cast<std::int64_t>(k));
    }
    [[nodiscard]] double expected(int i, int j, int k) const noexcept {
        const std::array<int, 3> c{i, j, k};
        int outside = -1;  // the one dimension in the halo, if exactly one
        for (int d = 0; d < 3; ++d) {
            if (c[static_cast<std::size_t>(d)] == 0 || c[static_cast<std::size_t>(d)] == n + 1) {
                if (outside >= 0) return -1.0;  // edge or corner
                outside = d;
            }
        }
        if (outside < 0) return known_value(rank, index(i, j, k));
        const auto d = static_cast<std::size_t>(outside);
        const bool low_side = c[d] == 0;
        std::array<int, 3> from = c;
        from[d] = low_side ? n : 1;  // the neighbour's boundary face
        return known_value(around[2 * d + (low_side ? 0 : 1)], index(from[0], from[1], from[2]));
    }
    void fill_send(const mpi::kernel_context& /*c*/, std::span<std::byte> /*slot*/) const {
        for (int k = 0; k <= n + 1; ++k)
            for (int j = 0; j <= n + 1; ++j)
                for (int i = 0; i <= n + 1; ++i) {
                    const bool interior =
                        i >= 1 && i <= n && j >= 1 && j <= n && k >= 1 && k <= n;
                    field[static_cast<std::size_t>(index(i, j, k))] =
                        interior ? known_value(rank, index(i, j, k)) : -1.0;
                }
    }
    [[nodiscard]] std::uint64_t verify(const mpi::kernel_context& /*c*/, std::uint64_t /*last*/,
                                       std::span<const std::byte> /*slot*/) const {
        std::uint64_t defects = 0;
        for (int k = 0; k <= n + 1; ++k)
            for (int j = 0; j <= n + 1; ++j)
                for (int i = 0; i <= n + 1; ++i)
                    if (field[static_cast<std::size_t>(index(i, j, k))] != expected(i, j, k))
                        ++defects;
        return defects;
    }
};

struct halo_swap_kernel {
    const int* images = nullptr;
    int n = 0;
    template <class Buffers>
    void operator()(const mpi::kernel_context& /*c*/, std::uint64_t /*i*/, const Buffers&) const {
        parbench_caf_halo_swap(images, n);
    }
};

void run_halo(const run_context& c) {
    const grid3 grid = image_grid(c.size);
    const std::array<int, 6> around = grid.neighbours(c.rank);
    const std::vector<int> around_images = as_images(around);
    const std::vector<int> sync_images = as_images(distinct_others(around, c.rank));
    for (const int n : c.opts.halo_sizes) {
        // Six faces of n * n cells leave every image per swap.
        const std::uint64_t bytes = 6ull * static_cast<std::uint64_t>(n) * n * sizeof(double);
        c.host.progress("halo", bytes, c.size);
        auto* base = static_cast<double*>(parbench_caf_prepare_halo(n, around_images.data()));
        const std::size_t cells = static_cast<std::size_t>(n + 2) * (n + 2) * (n + 2);
        const halo_check check{{base, cells}, n, c.rank, around};
        std::optional<result_record> r = time_on_all_images(
            c.images, caf_step{.klass = benchmark_class::parallel_transfer}, "halo", bytes,
            halo_swap_kernel{sync_images.data(), static_cast<int>(sync_images.size())}, c.timing,
            check);
        parbench_caf_release_halo();
        if (!r) continue;
        r->block.mode = fmt::format("grid {}x{}x{}", grid.dims[0], grid.dims[1], grid.dims[2]);
        r->metrics = {{"halo_size", static_cast<double>(n)},
                      {"grid_x", static_cast<double>(grid.dims[0])},
                      {"grid_y", static_cast<double>(grid.dims[1])},
                      {"grid_z", static_cast<double>(grid.dims[2])}};
        const double median_us = r->distribution_us.median;
        r->throughput_mib_s =
            median_us > 0.0 ? static_cast<double>(bytes) / 1.048576 / median_us : 0.0;
        c.host.result(*r);
    }
}

// ---- selection: what runs, and what is refused before anything runs -------------------------

// Why benchmark `e` cannot run on `images` images ("" when it can).
[[nodiscard]] std::string cannot_run(const entry& e, const options& o, int images) {
    if (e.kind == family::transfer || e.kind == family::mpi_send) {
        for (const ping_pong_mode mode : o.modes)
            if (std::string why = refusal(mode, images); !why.empty()) return why;
        return {};
    }
    if (e.kind != family::sync) return {};
    if (e.sync == sync_kind::critical && critical_section == nullptr) return critical_problem;
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

void run_suite(const run_request& request, const plugin::host_channel& host) {
    if (lowercase(request.suite) != suite_name)
        throw input_error("suite '" + request.suite + "' is not offered by the caf plugin");
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
        start.header = {{"images", size},
                        {"coarray_runtime", PARBENCH_CAF_RUNTIME},
                        {"compiler", PARBENCH_CAF_COMPILER},
                        {"mpi_version", mpi::standard_version()},
                        {"check", o.check}};
        start.context = {
            {"mpi_library", mpi::library_version()},
            {"coarray_runtime", PARBENCH_CAF_RUNTIME},
            {"compiler", PARBENCH_CAF_COMPILER},
            {"processes", size},
            {"timer", "MPI_Wtime"},
            {"timer_resolution_s", clock.resolution_s},
            {"timer_overhead_s", clock.overhead_s},
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
              {"check", o.check}}}};
        host.run_started(start);
        for (const auto& message : skipped) host.warning(message);
    }

    const mpi::session images(MPI_COMM_WORLD, size);
    parbench_caf_warm_up();
    const run_context c{o, host, images, rank, size, {o.iterations, o.check}};
    std::optional<int> delay_loops;
    for (const entry* e : chosen) {
        switch (e->kind) {
            case family::transfer: run_transfer(c, transfer_patterns[e->transfer]); break;
            case family::mpi_send: run_mpi_send(c); break;
            case family::sync:
                if (!delay_loops) delay_loops = calibrate_delay(o.delay_us);
                run_sync(c, *e, *delay_loops);
                break;
            case family::halo: run_halo(c); break;
        }
    }
}

// ---- the C surface ----------------------------------------------------------------------------

bool runtime_started = false;

const char* backend_info() {
    static const std::string text = std::string(PARBENCH_CAF_RUNTIME) + " coarray runtime, " +
                                    PARBENCH_CAF_COMPILER + " -fcoarray=lib, on " +
                                    mpi::library_version();
    return text.c_str();
}

parbench_status caf_init(const parbench_init_args* args, char* error, std::size_t error_size) {
    return plugin::guarded(error, error_size, [&] {
        int initialised = 0;
        MPI_Initialized(&initialised);
        if (initialised == 0)
            throw std::runtime_error(
                "the coarray runtime shares MPI with the MPI plugin, which has not started it "
                "(is parbench_mpi.so on the plugin path?)");
        // OpenCoarrays asks MPI_Initialized too and then neither initialises nor finalizes MPI.
        start_coarray_runtime(args != nullptr ? args->argc : nullptr,
                              args != nullptr ? args->argv : nullptr);
        runtime_started = true;
        open_critical_library();  // collective: registers the construct's lock on every image
    });
}

parbench_status caf_finalize(char* error, std::size_t error_size) {
    return plugin::guarded(error, error_size, [&] {
        if (!runtime_started) return;
        stop_coarray_runtime();
        runtime_started = false;
    });
}

parbench_status caf_run(const char* request_json, const parbench_host* host_ptr, char* error,
                        std::size_t error_size) {
    return plugin::guarded(error, error_size, [&] {
        const run_request request = parse_run_request(request_json, "caf plugin");
        const plugin::host_channel host(host_ptr);
        run_suite(request, host);
    });
}

const parbench_suite suites[] = {{suite_name,
                                  "EPCC Fortran coarray micro-benchmarks (CAF_BENCH 1.0): "
                                  "put/get ping-pongs, synchronisation, halo swap",
                                  benchmark_infos.data(), catalogue_size, parameters,
                                  std::size(parameters), PARBENCH_SUITE_NEEDS_MPI}};

const parbench_plugin descriptor = {PARBENCH_ABI_MAJOR,
                                    PARBENCH_ABI_MINOR,
                                    sizeof(parbench_plugin),
                                    "caf",
                                    PARBENCH_PLUGIN_VERSION,
                                    backend_info,
                                    caf_init,
                                    caf_finalize,
                                    suites,
                                    1,
                                    nullptr,
                                    caf_run,
                                    {}};

}  // namespace
}  // namespace parbench::caf

PARBENCH_PLUGIN_ENTRY(parbench::caf::descriptor)
