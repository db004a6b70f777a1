// The synchronisation family of the caf suite: EPCC's overheads of sync all, sync images (with
// the pairwise, random, ring and 3D grid neighbours), lock/unlock and an empty critical
// construct, and of MPI_Barrier for comparison. Each is the time of a delay loop followed by the
// synchronisation, less the time of the delay loop alone.
#include "families/families.hpp"

#include "caf_kernels.h"

#include <fmt/format.h>

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <numeric>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace parbench::caf {
namespace synchronisation_impl {
namespace {

// The critical construct lives in libparbench_caf_critical.so (caf_critical.f90), opened in
// init after the runtime started; nullptr with `critical_problem` set when it could not be.
void (*critical_section)() = nullptr;
std::string critical_problem = "the coarray runtime has not started";

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
    with_sync.caf = caf_figures{.table = caf_figures::kind::synchronisation,
                                .neighbours = neighbours,
                                .t_delay_sync_us = w.median,
                                .t_delay_us = d.median,
                                .overhead_us = overhead,
                                .overhead_ci_low_us = low,
                                .overhead_ci_high_us = high};
}

struct sync_row {
    sync_call sync;
    std::vector<int> images;  // the sync images list of this image (1-based)
    int neighbours = 0;       // as reported (rank 0's count)
};

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

// The family of one synchronisation benchmark for mpi::sweep(): one table, every image in it;
// its sizes are the rows of the kind (sync_rows: one per neighbour count of the random and ring
// lists, one row otherwise), each the overhead of two measurements: the delay loop alone, then
// the same loop followed by the synchronisation. The lock variable lives for the whole table.
struct sync_family {
    const run_context& run;
    std::string_view name;
    sync_kind kind;
    int delay_loops = 0;
    std::vector<sync_row> rows;  // this image's

    struct count {};

    [[nodiscard]] std::array<int, 1> process_counts() const { return {run.size}; }
    [[nodiscard]] std::vector<std::uint64_t> sizes() const {  // the rows' indices
        std::vector<std::uint64_t> indices(rows.size());
        std::iota(indices.begin(), indices.end(), std::uint64_t{0});
        return indices;
    }
    [[nodiscard]] count open(int /*images*/) const {
        if (kind == sync_kind::lock) parbench_caf_prepare_lock();
        return {};
    }
    void progress(const count& /*c*/, std::uint64_t /*row*/) const {
        run.host.progress(name, 0, run.size);
    }
    [[nodiscard]] mpi::measurement measure(const count& /*c*/, std::uint64_t x) const {
        const sync_row& row = rows[static_cast<std::size_t>(x)];
        const caf_step step{.klass = benchmark_class::other, .nmsg = 0};
        const delay_and_sync_kernel reference{delay_loops, no_sync, nullptr, 0};
        const delay_and_sync_kernel with_sync{delay_loops, row.sync, row.images.data(),
                                              static_cast<int>(row.images.size())};
        // Alternated within one measurement pair: the reference first, then the same loop
        // synced.
        const mpi::measurement delay_only =
            measure_on_all_images(run.images, step, std::string(name), 0, reference, run.timing);
        mpi::measurement m =
            measure_on_all_images(run.images, step, std::string(name), 0, with_sync, run.timing);
        if (m.records.empty() || delay_only.records.empty()) {
            m.records.clear();  // a row needs both times (rank 0 has both)
            return m;
        }
        describe_overhead(m.records.front(), delay_only.records.front(), name, row.neighbours,
                          run.opts.delay_us);
        return m;
    }
    void publish(const count& /*c*/, const result_record& r) const { run.host.result(r); }
    void close(const count& /*c*/, const mpi::size_notes& /*notes*/) const {
        if (kind == sync_kind::lock) parbench_caf_release_lock();
    }
};

}  // namespace

}  // namespace synchronisation_impl
void open_critical_section() {
    Dl_info self{};
    std::string path = "libparbench_caf_critical.so";
    if (::dladdr(reinterpret_cast<const void*>(&open_critical_section), &self) != 0 &&
        self.dli_fname != nullptr)
        path = (std::filesystem::path(self.dli_fname).parent_path() / path).string();
    void* library = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (library == nullptr) {
        const char* why = ::dlerror();
        synchronisation_impl::critical_problem =
            "cannot open " + path + ": " + (why != nullptr ? why : "unknown error");
        return;
    }
    synchronisation_impl::critical_section =
        reinterpret_cast<void (*)()>(::dlsym(library, "parbench_caf_critical"));
    if (synchronisation_impl::critical_section == nullptr)
        synchronisation_impl::critical_problem = path + " lacks parbench_caf_critical";
}

std::string critical_section_problem() {
    return synchronisation_impl::critical_section == nullptr
               ? synchronisation_impl::critical_problem
               : std::string{};
}

// Delay-loop iterations that take `delay_us` on rank 0, the same count on every image. The
// loop is timed at ~2 ms, five times, and the fastest run counts: a preempted run would make
// the delay loop too short. Not a sweep (mpi::sweep): a calibration on rank 0 alone, once per
// run before the first synchronisation benchmark (suite.cpp), whose doubling search and
// fastest-of-five have no sizes, no records and no warm-up; its one collective is the Bcast.
int calibrate_delay(double delay_us) {
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

void run_sync(const run_context& c, std::string_view name, sync_kind kind, int delay_loops) {
    mpi::sweep(synchronisation_impl::sync_family{.run = c,
                                                 .name = name,
                                                 .kind = kind,
                                                 .delay_loops = delay_loops,
                                                 .rows = synchronisation_impl::sync_rows(c, kind)});
}

}  // namespace parbench::caf
