// The point-to-point family of the caf suite: EPCC's put and get ping-pongs (one per transfer
// pattern of point_to_point.hpp) and the MPI_Send/MPI_Recv ping-pong of the same data.
#include "families/families.hpp"

#include "caf_kernels.h"
#include "ping_pong_kernels.hpp"

#include <fmt/format.h>

#include <optional>
#include <span>
#include <string>

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

}  // namespace

}  // namespace point_to_point_impl
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
                const point_to_point_impl::point_to_point_check check{
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
                point_to_point_impl::describe_transfer(
                    *r, p.name,
                    point_to_point_impl::mode_text(mode, c.size) + ", " +
                        std::string(to_string(sync)),
                    g);
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
            const point_to_point_impl::point_to_point_check check{
                {base, static_cast<std::size_t>(g.nextent())}, c.rank, role, g};
            const mpi_send_kernel kernel{base, static_cast<int>(g.ndata()),
                                         role.kind == ping_pong_role::idle ? -1 : role.partner,
                                         role.kind == ping_pong_role::initiator};
            std::optional<result_record> r = time_on_all_images(
                c.images, caf_step{.time_divisor = 2.0}, "mpi_send", g.bytes(), kernel, c.timing,
                check);
            parbench_caf_release_point_to_point();
            if (!r) continue;
            point_to_point_impl::describe_transfer(
                *r, "mpi_send",
                point_to_point_impl::mode_text(mode, c.size) + ", MPI_Send/MPI_Recv", g);
            c.host.result(*r);
        }
    }
}

}  // namespace parbench::caf
