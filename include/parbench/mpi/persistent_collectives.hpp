// MPI-4's persistent collectives (MPI_Allreduce_init, ...) on an MPI-3.1 library that has them
// as an extension: Open MPI 4.1 declares them MPIX_<Collective>_init in <mpi-ext.h> (its
// "pcollreq" extension, OMPI_HAVE_MPI_EXT_PCOLLREQ), with the MPI-4 signatures. Here each
// standard name forwards to the extension's, so that the persistent benchmarks (imb-mpi4, osu's
// persistent collectives) are one source for MPICH 4 and Open MPI 4.1. An MPI-4 library declares
// the standard names itself, and nothing is added.
#pragma once

#include <mpi.h>

#if MPI_VERSION < 4 && __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#if MPI_VERSION < 4 && defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
// The MPI-4 names, in the global namespace where MPI declares them (the library has none).
inline int MPI_Allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                              void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                              MPI_Info info, MPI_Request* request) {
    return MPIX_Allgather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                               info, request);
}
inline int MPI_Allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                               void* recvbuf, const int recvcounts[], const int displs[],
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                               MPI_Request* request) {
    return MPIX_Allgatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                recvtype, comm, info, request);
}
inline int MPI_Allreduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                              MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
    return MPIX_Allreduce_init(sendbuf, recvbuf, count, datatype, op, comm, info, request);
}
inline int MPI_Alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                             void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Info info, MPI_Request* request) {
    return MPIX_Alltoall_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                              info, request);
}
inline int MPI_Alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                              MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                              const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                              MPI_Info info, MPI_Request* request) {
    return MPIX_Alltoallv_init(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                               rdispls, recvtype, comm, info, request);
}
inline int MPI_Alltoallw_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                              const MPI_Datatype sendtypes[], void* recvbuf,
                              const int recvcounts[], const int rdispls[],
                              const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                              MPI_Request* request) {
    return MPIX_Alltoallw_init(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                               rdispls, recvtypes, comm, info, request);
}
inline int MPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request* request) {
    return MPIX_Barrier_init(comm, info, request);
}
inline int MPI_Bcast_init(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                          MPI_Info info, MPI_Request* request) {
    return MPIX_Bcast_init(buffer, count, datatype, root, comm, info, request);
}
inline int MPI_Gather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                           void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                           MPI_Comm comm, MPI_Info info, MPI_Request* request) {
    return MPIX_Gather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                            comm, info, request);
}
inline int MPI_Gatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                            MPI_Request* request) {
    return MPIX_Gatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                             root, comm, info, request);
}
inline int MPI_Reduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                           MPI_Op op, int root, MPI_Comm comm, MPI_Info info,
                           MPI_Request* request) {
    return MPIX_Reduce_init(sendbuf, recvbuf, count, datatype, op, root, comm, info, request);
}
inline int MPI_Reduce_scatter_init(const void* sendbuf, void* recvbuf, const int recvcounts[],
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                   MPI_Request* request) {
    return MPIX_Reduce_scatter_init(sendbuf, recvbuf, recvcounts, datatype, op, comm, info,
                                    request);
}
inline int MPI_Reduce_scatter_block_init(const void* sendbuf, void* recvbuf, int recvcount,
                                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                         MPI_Info info, MPI_Request* request) {
    return MPIX_Reduce_scatter_block_init(sendbuf, recvbuf, recvcount, datatype, op, comm, info,
                                          request);
}
inline int MPI_Scatter_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                            MPI_Comm comm, MPI_Info info, MPI_Request* request) {
    return MPIX_Scatter_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                             comm, info, request);
}
inline int MPI_Scatterv_init(const void* sendbuf, const int sendcounts[], const int displs[],
                             MPI_Datatype sendtype, void* recvbuf, int recvcount,
                             MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                             MPI_Request* request) {
    return MPIX_Scatterv_init(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                              root, comm, info, request);
}
#endif
