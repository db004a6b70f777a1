// A custom benchmark in a few lines: a ping-pong on MPI_Ssend (synchronous send), measured with
// IMB's methodology and printed as an IMB table with parbench's median and confidence columns.
//   mpiexec -n 2 ./ssend_pingpong -msglog 0:16 [--json out.json]
// It has no verify_check, so --check is refused (ring_allreduce.cpp shows one).
#include <parbench/mpi/main.hpp>
#include <parbench/pattern/ping_pong.hpp>

struct ssend_ping_pong : parbench::mpi::definition_defaults {
    static constexpr parbench::pattern::ping_pong descriptor{};  // a pair, t = Δt / 2n, X / t
    static parbench::mpi::buffer_layout layout(std::size_t x, int) { return {x, x}; }
    static auto make_kernel(const parbench::mpi::kernel_context&) {
        return [](const parbench::mpi::kernel_context& c, std::uint64_t i, const auto& b) {
            const int n = static_cast<int>(c.bytes);
            if (c.rank == 0) MPI_Ssend(b.send(i), n, MPI_BYTE, c.peer, 0, c.comm);
            MPI_Recv(b.recv(i), n, MPI_BYTE, c.peer, 0, c.comm, MPI_STATUS_IGNORE);
            if (c.rank == 1) MPI_Ssend(b.send(i), n, MPI_BYTE, c.peer, 0, c.comm);
        };
    }
};

int main(int argc, char** argv) {
    return parbench::mpi::main(argc, argv, {.suite = "example"},
                               parbench::mpi::benchmark<ssend_ping_pong>{"SsendPingPong"});
}
