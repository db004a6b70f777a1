// The halo family of the caf suite: EPCC's 3D periodic halo swap, each image exchanging the six
// faces of its cube with its neighbours on the MPI_Dims_create grid of images.
#include "families/families.hpp"

#include "caf_kernels.h"

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace parbench::caf {
namespace halo_impl {
namespace {

// -check for the halo swap: interior cells hold known values, halo cells -1; after a swap each
// face of halo cells holds the neighbour's opposite boundary face, edges and corners stay -1.
struct halo_check {
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

// The halo swap's family for mpi::sweep(): one table, every image in it, on the MPI_Dims_create
// grid of images (its neighbours found once, in open()); the -halosize list as its sizes, each
// measured on a field allocated for it (outside timing) and checked with -check.
struct halo_family {
    const run_context& run;

    struct count {
        grid3 grid;
        std::array<int, 6> around;       // ranks: x-, x+, y-, y+, z-, z+
        std::vector<int> around_images;  // the same, as images (the kernels' neighbours)
        std::vector<int> sync_images;    // the distinct other images among them
    };

    [[nodiscard]] std::array<int, 1> process_counts() const { return {run.size}; }
    [[nodiscard]] std::vector<std::uint64_t> sizes() const {
        return {run.opts.halo_sizes.begin(), run.opts.halo_sizes.end()};
    }
    [[nodiscard]] count open(int /*images*/) const {
        const grid3 grid = image_grid(run.size);
        const std::array<int, 6> around = grid.neighbours(run.rank);
        return {grid, around, as_images(around), as_images(distinct_others(around, run.rank))};
    }
    // Six faces of n * n cells leave every image per swap.
    [[nodiscard]] static std::uint64_t bytes(std::uint64_t n) {
        return 6ull * n * n * sizeof(double);
    }
    void progress(const count& /*c*/, std::uint64_t n) const {
        run.host.progress("halo", bytes(n), run.size);
    }
    [[nodiscard]] mpi::measurement measure(const count& c, std::uint64_t x) const {
        const int n = static_cast<int>(x);
        auto* base = static_cast<double*>(parbench_caf_prepare_halo(n, c.around_images.data()));
        const std::size_t cells = static_cast<std::size_t>(n + 2) * (n + 2) * (n + 2);
        const halo_check check{{base, cells}, n, run.rank, c.around};
        mpi::measurement m = measure_on_all_images(
            run.images, caf_step{.klass = benchmark_class::parallel_transfer}, "halo", bytes(x),
            halo_swap_kernel{c.sync_images.data(), static_cast<int>(c.sync_images.size())},
            run.timing, check);
        parbench_caf_release_halo();
        for (result_record& r : m.records) {
            r.block.mode =
                fmt::format("grid {}x{}x{}", c.grid.dims[0], c.grid.dims[1], c.grid.dims[2]);
            r.caf = caf_figures{.table = caf_figures::kind::halo,
                                .halo_size = n,
                                .grid = c.grid.dims};
            const double median_us = r.distribution_us.median;
            r.throughput_mib_s =
                median_us > 0.0 ? static_cast<double>(bytes(x)) / 1.048576 / median_us : 0.0;
        }
        return m;
    }
    void publish(const count& /*c*/, const result_record& r) const { run.host.result(r); }
    void close(const count& /*c*/, const mpi::size_notes& /*notes*/) const {}
};

}  // namespace

}  // namespace halo_impl
void run_halo(const run_context& c) { mpi::sweep(halo_impl::halo_family{.run = c}); }

}  // namespace parbench::caf
