// The point-to-point family of the caf suite: EPCC's put and get ping-pongs (one per transfer
// pattern of point_to_point.hpp) and the MPI_Send/MPI_Recv ping-pong of the same data.
#include "families/families.hpp"

#include "caf_kernels.h"
#include "ping_pong_kernels.hpp"

#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace parbench::caf {
namespace point_to_point_impl {
namespace {

// -check for the point-to-point patterns (the runner's data_check): the known answer of
// point_to_point.hpp, on the coarray itself.
struct point_to_point_check {
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
    r.caf = caf_figures{.table = caf_figures::kind::point_to_point,
                        .count = g.count,
                        .blksize = g.blksize,
                        .stride = g.stride,
                        .ndata = g.ndata(),
                        .nextent = g.nextent()};
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

// The family of one put or get pattern (or, without a pattern, of mpi_send) for mpi::sweep():
// a table per runnable mode and step synchronisation (mpi_send: per mode), every image in each;
// the -count list as its sizes. Each size is measured on a coarray allocated for it (outside
// timing), -check compares it with the known answer, and its record is EPCC's row.
struct ping_pong_family {
    const run_context& run;
    const transfer_pattern* pattern = nullptr;  // nullptr: mpi_send, MPI_Send/MPI_Recv

    struct count {
        ping_pong_mode mode;
        step_sync sync;  // the pattern's; none for mpi_send
        ping_pong_role role;
        std::string text;  // the table's mode line
    };

    [[nodiscard]] std::string_view name() const { return pattern ? pattern->name : "mpi_send"; }
    // The modes that can run at this image count (the others were judged before the run:
    // suite.cpp's select()).
    [[nodiscard]] std::vector<ping_pong_mode> modes() const {
        std::vector<ping_pong_mode> runnable;
        for (const ping_pong_mode mode : run.opts.modes)
            if (refusal(mode, run.size).empty()) runnable.push_back(mode);
        return runnable;
    }
    [[nodiscard]] std::size_t syncs_per_mode() const {
        return pattern ? run.opts.syncs.size() : 1;
    }
    [[nodiscard]] std::vector<int> process_counts() const {  // the tables
        std::vector<int> tables(modes().size() * syncs_per_mode());
        std::iota(tables.begin(), tables.end(), 0);
        return tables;
    }
    [[nodiscard]] std::vector<std::uint64_t> sizes() const {
        return {run.opts.counts.begin(), run.opts.counts.end()};
    }
    [[nodiscard]] count open(int table) const {
        const auto k = static_cast<std::size_t>(table);
        const ping_pong_mode mode = modes()[k / syncs_per_mode()];
        const step_sync sync = pattern ? run.opts.syncs[k % syncs_per_mode()] : step_sync::all;
        return {mode, sync, role_of(mode, run.rank, run.size),
                mode_text(mode, run.size) + ", " +
                    (pattern ? std::string(to_string(sync)) : "MPI_Send/MPI_Recv")};
    }
    [[nodiscard]] data_geometry geometry(std::uint64_t x) const {
        return geometry_of(pattern ? pattern->where : placement::contiguous, static_cast<int>(x),
                           run.opts);
    }
    void progress(const count& /*c*/, std::uint64_t x) const {
        run.host.progress(name(), geometry(x).bytes(), run.size);
    }
    [[nodiscard]] mpi::measurement measure(const count& c, std::uint64_t x) const {
        const data_geometry g = geometry(x);
        auto* base = static_cast<double*>(parbench_caf_prepare_point_to_point(
            static_cast<int>(g.count), run.opts.blksize, static_cast<int>(g.stride),
            static_cast<int>(g.nextent()),
            pattern && pattern->where == placement::strided_columns ? 1 : 0));
        const point_to_point_check check{
            {base, static_cast<std::size_t>(g.nextent())}, run.rank, c.role, g};
        const bool idle = c.role.kind == ping_pong_role::idle;
        const bool initiator = c.role.kind == ping_pong_role::initiator;
        const auto measure_with = [&](auto kernel) {
            return measure_on_all_images(run.images, caf_step{.time_divisor = 2.0},
                                         std::string(name()), g.bytes(), kernel, run.timing,
                                         check);
        };
        const auto coarray_kernel = [&](auto kernel) {
            const bool put = pattern->dir == direction::put;
            kernel.transfer = pattern->kernel;
            kernel.partner_image = idle ? 0 : c.role.partner + 1;
            kernel.moves_in_step_one = !idle && (put == initiator);
            kernel.moves_in_step_two = !idle && (put != initiator);
            return kernel;
        };
        mpi::measurement m =
            !pattern ? measure_with(mpi_send_kernel{base, static_cast<int>(g.ndata()),
                                                    idle ? -1 : c.role.partner, initiator})
            : c.sync == step_sync::all
                ? measure_with(coarray_kernel(ping_pong_kernel<sync_all_step>{}))
                : measure_with(coarray_kernel(ping_pong_kernel<sync_images_step>{}));
        parbench_caf_release_point_to_point();
        for (result_record& r : m.records) describe_transfer(r, name(), c.text, g);
        return m;
    }
    void publish(const count& /*c*/, const result_record& r) const { run.host.result(r); }
    void close(const count& /*c*/, const mpi::size_notes& /*notes*/) const {}
};

}  // namespace

}  // namespace point_to_point_impl
void run_transfer(const run_context& c, const transfer_pattern& p) {
    mpi::sweep(point_to_point_impl::ping_pong_family{.run = c, .pattern = &p});
}

void run_mpi_send(const run_context& c) {
    mpi::sweep(point_to_point_impl::ping_pong_family{.run = c});
}

}  // namespace parbench::caf
