// The memory reference for parbench's default imb-mpi1 run: a plain MPI program holding what
// IMB-MPI1 holds for its default set at its largest size (4 MiB): a send and a receive buffer of
// P x 4 MiB each (Alltoall's and Gather's need at P processes), touched, then one round of the
// heaviest transfers IMB makes at that size (the rooted collectives with each process as root, as
// IMB rotates the root), so MPI's own transfer buffers count as they do for IMB: MPICH's
// MPI_Scatter, for one, copies the whole send buffer into a temporary one when the root is not
// rank 0. Prints each rank's peak resident memory (VmHWM) after the buffers and after the transfers.
//
//   mpiexec -n 2 imb_memory_reference
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace {

long peak_resident_kib() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
    return -1;
}

}  // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    constexpr int max_message = 1 << 22;  // IMB-MPI1's default largest size, 4 MiB
    const std::size_t length = static_cast<std::size_t>(size) * max_message;
    std::vector<char> send(length);
    std::vector<char> receive(length);
    std::memset(send.data(), rank + 1, length);  // IMB initialises its buffers
    std::memset(receive.data(), 0, length);
    const long buffers_kib = peak_resident_kib();

    if (size >= 2 && rank < 2) {  // PingPong
        const int other = 1 - rank;
        if (rank == 0) {
            MPI_Send(send.data(), max_message, MPI_BYTE, other, 0, MPI_COMM_WORLD);
            MPI_Recv(receive.data(), max_message, MPI_BYTE, other, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(receive.data(), max_message, MPI_BYTE, other, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            MPI_Send(send.data(), max_message, MPI_BYTE, other, 0, MPI_COMM_WORLD);
        }
    }
    const int right = (rank + 1) % size;
    const int left = (rank + size - 1) % size;
    MPI_Sendrecv(send.data(), max_message, MPI_BYTE, right, 1, receive.data(), max_message,
                 MPI_BYTE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Allreduce(send.data(), receive.data(), max_message / 4, MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
    MPI_Alltoall(send.data(), max_message, MPI_BYTE, receive.data(), max_message, MPI_BYTE,
                 MPI_COMM_WORLD);
    MPI_Allgather(send.data(), max_message, MPI_BYTE, receive.data(), max_message, MPI_BYTE,
                  MPI_COMM_WORLD);
    for (int root = 0; root < size; ++root) {  // IMB's rooted collectives take turns as root
        MPI_Scatter(send.data(), max_message, MPI_BYTE, receive.data(), max_message, MPI_BYTE,
                    root, MPI_COMM_WORLD);
        MPI_Gather(send.data(), max_message, MPI_BYTE, receive.data(), max_message, MPI_BYTE,
                   root, MPI_COMM_WORLD);
        MPI_Reduce(send.data(), receive.data(), max_message / 4, MPI_FLOAT, MPI_SUM, root,
                   MPI_COMM_WORLD);
        MPI_Bcast(send.data(), max_message, MPI_BYTE, root, MPI_COMM_WORLD);
    }
    const long transfers_kib = peak_resident_kib();

    std::printf("rank %d buffers_kib %ld after_transfers_kib %ld\n", rank, buffers_kib,
                transfers_kib);
    MPI_Finalize();
    return 0;
}
