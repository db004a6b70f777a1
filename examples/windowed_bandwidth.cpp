// A windowed bandwidth benchmark (IMB's Uniband for one pair): rank 0 posts a window of 64
// MPI_Isend, rank 1 64 MPI_Irecv, and a zero-byte reply closes the window.
//   mpiexec -n 2 ./windowed_bandwidth -msglog 0:16 [--json out.json]
#include <parbench/mpi/main.hpp>
#include <parbench/pattern/exchange.hpp>

#include <array>

constexpr int window = 64;

struct windowed_bandwidth : parbench::mpi::definition_defaults {
    // 64 messages per iteration: the throughput is 64·X / t and the message rate 64 / t.
    static constexpr parbench::pattern::exchange descriptor{
        .klass = parbench::benchmark_class::single_transfer,
        .who = parbench::pattern::participants::pair, .nmsg = window,
        .pairs = parbench::pattern::first_pair,
        .throughput = parbench::pattern::throughput_rule::per_pair, .message_rate = true};
    // Every message of a window uses the same buffer: buffers of one message suffice.
    static parbench::mpi::buffer_layout layout(std::size_t x, int) { return {x, x}; }
    static auto make_kernel(const parbench::mpi::kernel_context&) {
        return [requests = std::array<MPI_Request, window>{}](
                   const parbench::mpi::kernel_context& c, std::uint64_t i, const auto& b) mutable {
            const int n = static_cast<int>(c.bytes);
            for (MPI_Request& r : requests)
                if (c.rank == 0) MPI_Isend(b.send(i), n, MPI_BYTE, c.peer, 0, c.comm, &r);
                else MPI_Irecv(b.recv(i), n, MPI_BYTE, c.peer, 0, c.comm, &r);
            MPI_Waitall(window, requests.data(), MPI_STATUSES_IGNORE);
            if (c.rank == 0) MPI_Recv(nullptr, 0, MPI_BYTE, c.peer, 1, c.comm, MPI_STATUS_IGNORE);
            else MPI_Send(nullptr, 0, MPI_BYTE, c.peer, 1, c.comm);
        };
    }
};

int main(int argc, char** argv) {
    return parbench::mpi::main(argc, argv, {.suite = "example"},
                               parbench::mpi::benchmark<windowed_bandwidth>{"WindowedBandwidth"});
}
