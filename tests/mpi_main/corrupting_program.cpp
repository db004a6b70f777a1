// A program built on parbench::mpi::main for its tests (mpi_main_test.py): two ping-pongs of
// bytes validated with --check, one of which corrupts what it receives (rank 1 flips the first
// byte of every message it gets before checking it), and a barrier-like benchmark without a
// verification. Built without optimisation on purpose: the program's run must say so in one
// warning (mpi/build_warnings.hpp).
#include <parbench/mpi/check.hpp>
#include <parbench/mpi/main.hpp>
#include <parbench/pattern/collective.hpp>
#include <parbench/pattern/ping_pong.hpp>

#include <span>

namespace {

template <bool Corrupts>
struct byte_ping_pong : parbench::mpi::definition_defaults {
    static constexpr parbench::pattern::ping_pong descriptor{};
    static parbench::mpi::buffer_layout layout(std::size_t x, int) { return {x, x}; }
    struct verify_check {
        void fill_send(const parbench::mpi::kernel_context& c, std::span<std::byte> s) const {
            parbench::mpi::check::fill_bytes(s, c.rank);
        }
        std::uint64_t verify(const parbench::mpi::kernel_context& c, std::uint64_t,
                             std::span<const std::byte> recv) const {
            return c.rank < 2 ? parbench::mpi::check::count_byte_defects(recv, 1 - c.rank) : 0;
        }
    };
    static auto make_kernel(const parbench::mpi::kernel_context&) {
        return [](const parbench::mpi::kernel_context& c, std::uint64_t i, const auto& b) {
            const int n = static_cast<int>(c.bytes);
            if (c.rank == 0) {
                MPI_Send(b.send(i), n, MPI_BYTE, c.peer, 0, c.comm);
                MPI_Recv(b.recv(i), n, MPI_BYTE, c.peer, 0, c.comm, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(b.recv(i), n, MPI_BYTE, c.peer, 0, c.comm, MPI_STATUS_IGNORE);
                if (Corrupts && n > 0) b.recv(i)[0] ^= std::byte{0xff};
                MPI_Send(b.send(i), n, MPI_BYTE, c.peer, 0, c.comm);
            }
        };
    }
};

struct plain_barrier : parbench::mpi::definition_defaults {
    static constexpr parbench::pattern::collective descriptor{};
    static constexpr parbench::mpi::definition_traits traits{.has_bytes = false};
    static parbench::mpi::buffer_layout layout(std::size_t, int) { return {0, 0}; }
    static auto make_kernel(const parbench::mpi::kernel_context&) {
        return [](const parbench::mpi::kernel_context& c, std::uint64_t, const auto&) {
            MPI_Barrier(c.comm);
        };
    }
};

}  // namespace

int main(int argc, char** argv) {
    return parbench::mpi::main(argc, argv, {.suite = "mpi-main-test"},
                               parbench::mpi::benchmark<byte_ping_pong<false>>{"PingPong"},
                               parbench::mpi::benchmark<byte_ping_pong<true>>{"CorruptPingPong"},
                               parbench::mpi::benchmark<plain_barrier>{"Barrier"});
}
