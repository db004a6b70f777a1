/* Test helper, LD_PRELOADed: counts this process's MPI_Send calls through the PMPI profiling
 * interface and writes "sends RANK COUNT" to stderr at MPI_Finalize, so that a test can see
 * untimed iterations (IMB 2021's -warm_up) that no record reports. */
#include <mpi.h>
#include <cstdio>

static long long sends;

extern "C" {

int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
    ++sends;
    return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Finalize(void) {
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::fprintf(stderr, "sends %d %lld\n", rank, sends);
    return PMPI_Finalize();
}

}  // extern "C"
