// A custom collective with data validation: a naive ring allreduce (sum of floats) in np - 1
// MPI_Sendrecv steps, checked with --check like IMB's reductions (every rank fills its floats,
// the result must be their exact sum), and timed beside MPI_Allreduce.
//   mpiexec -n 2 ./ring_allreduce -msglog 2:16 --check
#include <parbench/mpi/check.hpp>
#include <parbench/mpi/main.hpp>
#include <parbench/pattern/collective.hpp>

#include <algorithm>
#include <span>
#include <vector>

// What both benchmarks share: a collective of floats, and its -check (fill, then count the
// floats of the result that are not the exact sum over the ranks).
struct float_sum : parbench::mpi::definition_defaults {
    static constexpr parbench::pattern::collective descriptor{};
    static constexpr parbench::mpi::definition_traits traits{.unit = sizeof(float)};
    static parbench::mpi::buffer_layout layout(std::size_t x, int) { return {x, x}; }
    struct verify_check {
        void fill_send(const parbench::mpi::kernel_context& c, std::span<std::byte> s) const {
            parbench::mpi::check::fill_floats(s, c.rank);
        }
        std::uint64_t verify(const parbench::mpi::kernel_context& c, std::uint64_t,
                             std::span<const std::byte> recv) const {
            return parbench::mpi::check::count_sum_defects(recv, c.size);
        }
    };
};

struct ring_allreduce : float_sum {
    static auto make_kernel(const parbench::mpi::kernel_context& at) {
        const std::size_t floats = at.bytes / sizeof(float);
        return [passing = std::vector<float>(floats), incoming = std::vector<float>(floats)](
                   const parbench::mpi::kernel_context& c, std::uint64_t i, const auto& b) mutable {
            const auto* mine = reinterpret_cast<const float*>(b.send(i));
            auto* sum = reinterpret_cast<float*>(b.recv(i));
            const int n = static_cast<int>(passing.size());
            std::copy_n(mine, n, sum);
            std::copy_n(mine, n, passing.data());
            const int right = (c.rank + 1) % c.size, left = (c.rank + c.size - 1) % c.size;
            for (int step = 1; step < c.size; ++step) {  // pass the left neighbour's floats on
                MPI_Sendrecv(passing.data(), n, MPI_FLOAT, right, 0, incoming.data(), n, MPI_FLOAT,
                             left, 0, c.comm, MPI_STATUS_IGNORE);
                passing.swap(incoming);
                for (int k = 0; k < n; ++k) sum[k] += passing[static_cast<std::size_t>(k)];
            }
        };
    }
};

struct library_allreduce : float_sum {
    static auto make_kernel(const parbench::mpi::kernel_context&) {
        return [](const parbench::mpi::kernel_context& c, std::uint64_t i, const auto& b) {
            MPI_Allreduce(b.send(i), b.recv(i), static_cast<int>(c.bytes / sizeof(float)),
                          MPI_FLOAT, MPI_SUM, c.comm);
        };
    }
};

int main(int argc, char** argv) {
    return parbench::mpi::main(argc, argv, {.suite = "example"},
                               parbench::mpi::benchmark<ring_allreduce>{"RingAllreduce"},
                               parbench::mpi::benchmark<library_allreduce>{"Allreduce"});
}
