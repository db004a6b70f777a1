// A test-only PMPI interposition library: every MPI call that an IMB-MPI1 kernel makes takes a
// fixed, known time, so that a real run under mpiexec has a known answer (tests/mpi/oracle.py).
//
// Each interposed MPI_X costs D, then calls PMPI_X. D is the delay of this process's MPI_COMM_WORLD
// rank:
//   PARBENCH_ORACLE_DELAY_US="D"            every rank
//   PARBENCH_ORACLE_DELAY_US="D0,D1,D2,..." per world rank; the last value repeats
//   unset or 0                              no delay (the calls are still counted)
// How a call costs D (PARBENCH_ORACLE_CLOCK):
//   virtual (default)  MPI_Wtime is interposed too and returns this process's virtual time: the
//                      sum of the delays of its calls so far (+ 1e-12 s per MPI_Wtime reading, so
//                      that loops waiting for the clock to tick end). The answer is then exact
//                      whatever the machine's load: a rank's timed region lasts exactly D x its
//                      calls. Real messages still move; only the clock is replaced.
//   spin               the call spins until PMPI_Wtime() has passed entry + D; MPI_Wtime is the
//                      real one. Real time, so the answer holds within scheduling noise only.
// PARBENCH_ORACLE_REPORT=PREFIX: at MPI_Finalize each rank writes PREFIX.RANK.json with the number
// of calls per function and, per message count of MPI_Send/MPI_Isend, the distinct send-buffer
// addresses (for -off_cache) — which also proves that the interposition happened.
//
// Load it with `mpiexec -n 2 env LD_PRELOAD=libparbench_pmpi_oracle.so parbench ...`: the
// preloaded definitions come first in the global scope, ahead of libmpich's, so the dlopen'd MPI
// plugin's MPI_Send resolves here; PMPI_Send resolves in libmpich. Built only for the tests.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace {

enum fn : int {
    f_send, f_recv, f_isend, f_irecv, f_wait, f_waitall, f_sendrecv, f_bcast, f_allgather,
    f_allgatherv, f_scatter, f_scatterv, f_gather, f_gatherv, f_alltoall, f_alltoallv, f_reduce,
    f_reduce_scatter, f_allreduce, f_barrier, f_reduce_scatter_block, f_reduce_local, f_count
};
const char* const fn_names[f_count] = {
    "MPI_Send", "MPI_Recv", "MPI_Isend", "MPI_Irecv", "MPI_Wait", "MPI_Waitall", "MPI_Sendrecv",
    "MPI_Bcast", "MPI_Allgather", "MPI_Allgatherv", "MPI_Scatter", "MPI_Scatterv", "MPI_Gather",
    "MPI_Gatherv", "MPI_Alltoall", "MPI_Alltoallv", "MPI_Reduce", "MPI_Reduce_scatter",
    "MPI_Allreduce", "MPI_Barrier", "MPI_Reduce_scatter_block", "MPI_Reduce_local"};

struct state {
    bool ready = false;
    bool spin = false;
    int rank = -1;
    double delay_s = 0.0;
    double virtual_s = 0.0;        // virtual clock: delays so far
    std::uint64_t readings = 0;    // virtual clock: MPI_Wtime calls so far
    std::uint64_t calls[f_count] = {};
    // Per count of MPI_Send / MPI_Isend: distinct buffer addresses (capped).
    std::map<int, std::set<std::uintptr_t>> send_buffers;
};

state& self() {
    static state s;
    return s;
}

void setup(state& s) {
    int initialized = 0;
    PMPI_Initialized(&initialized);
    if (!initialized) return;
    PMPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
    std::vector<double> delays;
    if (const char* text = std::getenv("PARBENCH_ORACLE_DELAY_US"); text != nullptr) {
        const char* p = text;
        while (*p != '\0') {
            char* end = nullptr;
            const double v = std::strtod(p, &end);
            if (end == p) break;
            delays.push_back(v);
            p = *end == ',' ? end + 1 : end;
        }
    }
    if (const char* clock = std::getenv("PARBENCH_ORACLE_CLOCK"); clock != nullptr)
        s.spin = std::strcmp(clock, "spin") == 0;
    if (!delays.empty()) {
        const auto i = static_cast<std::size_t>(s.rank) < delays.size()
                           ? static_cast<std::size_t>(s.rank)
                           : delays.size() - 1;
        s.delay_s = delays[i] * 1e-6;
    }
    s.ready = true;
}

// Counts the call and spins until the fixed delay has passed since entry.
void enter(fn f) {
    state& s = self();
    if (!s.ready) setup(s);
    ++s.calls[f];
    if (!s.spin) {
        s.virtual_s += s.delay_s;
    } else if (s.delay_s > 0.0) {
        const double deadline = PMPI_Wtime() + s.delay_s;
        while (PMPI_Wtime() < deadline) {
        }
    }
}

void note_send_buffer(const void* buffer, int count) {
    auto& set = self().send_buffers[count];
    if (set.size() < 100000) set.insert(reinterpret_cast<std::uintptr_t>(buffer));
}

void write_report() {
    const state& s = self();
    const char* prefix = std::getenv("PARBENCH_ORACLE_REPORT");
    if (prefix == nullptr || s.rank < 0) return;
    const std::string path = std::string(prefix) + "." + std::to_string(s.rank) + ".json";
    FILE* f = std::fopen(path.c_str(), "w");
    if (f == nullptr) return;
    std::fprintf(f, "{\"rank\": %d, \"delay_us\": %.3f, \"clock\": \"%s\", \"calls\": {", s.rank,
                 s.delay_s * 1e6, s.spin ? "spin" : "virtual");
    for (int i = 0; i < f_count; ++i)
        std::fprintf(f, "%s\"%s\": %llu", i ? ", " : "", fn_names[i],
                     static_cast<unsigned long long>(s.calls[i]));
    std::fprintf(f, "}, \"send_buffers\": {");
    bool first = true;
    for (const auto& [count, set] : s.send_buffers) {
        std::fprintf(f, "%s\"%d\": {\"distinct\": %zu, \"min\": %llu, \"max\": %llu}",
                     first ? "" : ", ", count, set.size(),
                     static_cast<unsigned long long>(*set.begin()),
                     static_cast<unsigned long long>(*set.rbegin()));
        first = false;
    }
    std::fprintf(f, "}}\n");
    std::fclose(f);
}

}  // namespace

extern "C" {

int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
    enter(f_send);
    note_send_buffer(buf, count);
    return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status* status) {
    enter(f_recv);
    return PMPI_Recv(buf, count, type, source, tag, comm, status);
}

int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request* request) {
    enter(f_isend);
    note_send_buffer(buf, count);
    return PMPI_Isend(buf, count, type, dest, tag, comm, request);
}

int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request* request) {
    enter(f_irecv);
    return PMPI_Irecv(buf, count, type, source, tag, comm, request);
}

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
    enter(f_wait);
    return PMPI_Wait(request, status);
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
    enter(f_waitall);
    return PMPI_Waitall(count, requests, statuses);
}

int MPI_Sendrecv(const void* sbuf, int scount, MPI_Datatype stype, int dest, int stag, void* rbuf,
                 int rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                 MPI_Status* status) {
    enter(f_sendrecv);
    return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm,
                         status);
}

int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
    enter(f_bcast);
    return PMPI_Bcast(buf, count, type, root, comm);
}

int MPI_Allgather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                  MPI_Datatype rtype, MPI_Comm comm) {
    enter(f_allgather);
    return PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

int MPI_Allgatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf,
                   const int rcounts[], const int displs[], MPI_Datatype rtype, MPI_Comm comm) {
    enter(f_allgatherv);
    return PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm);
}

int MPI_Scatter(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                MPI_Datatype rtype, int root, MPI_Comm comm) {
    enter(f_scatter);
    return PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}

int MPI_Scatterv(const void* sbuf, const int scounts[], const int displs[], MPI_Datatype stype,
                 void* rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm) {
    enter(f_scatterv);
    return PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm);
}

int MPI_Gather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
               MPI_Datatype rtype, int root, MPI_Comm comm) {
    enter(f_gather);
    return PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}

int MPI_Gatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int rcounts[],
                const int displs[], MPI_Datatype rtype, int root, MPI_Comm comm) {
    enter(f_gatherv);
    return PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm);
}

int MPI_Alltoall(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                 MPI_Datatype rtype, MPI_Comm comm) {
    enter(f_alltoall);
    return PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

int MPI_Alltoallv(const void* sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype,
                  void* rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rtype,
                  MPI_Comm comm) {
    enter(f_alltoallv);
    return PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm);
}

int MPI_Reduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, int root,
               MPI_Comm comm) {
    enter(f_reduce);
    return PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm);
}

int MPI_Reduce_scatter(const void* sbuf, void* rbuf, const int rcounts[], MPI_Datatype type,
                       MPI_Op op, MPI_Comm comm) {
    enter(f_reduce_scatter);
    return PMPI_Reduce_scatter(sbuf, rbuf, rcounts, type, op, comm);
}

int MPI_Reduce_scatter_block(const void* sbuf, void* rbuf, int rcount, MPI_Datatype type,
                             MPI_Op op, MPI_Comm comm) {
    enter(f_reduce_scatter_block);
    return PMPI_Reduce_scatter_block(sbuf, rbuf, rcount, type, op, comm);
}

int MPI_Reduce_local(const void* inbuf, void* inoutbuf, int count, MPI_Datatype type, MPI_Op op) {
    enter(f_reduce_local);
    return PMPI_Reduce_local(inbuf, inoutbuf, count, type, op);
}

int MPI_Allreduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm) {
    enter(f_allreduce);
    return PMPI_Allreduce(sbuf, rbuf, count, type, op, comm);
}

int MPI_Barrier(MPI_Comm comm) {
    enter(f_barrier);
    return PMPI_Barrier(comm);
}

double MPI_Wtime() {
    state& s = self();
    if (!s.ready) setup(s);
    if (!s.ready || s.spin) return PMPI_Wtime();
    return s.virtual_s + 1e-12 * static_cast<double>(++s.readings);
}

int MPI_Finalize() {
    write_report();
    return PMPI_Finalize();
}

}  // extern "C"
