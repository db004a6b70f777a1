// Test harness only, never part of parbench: lets the ranks of an oversubscribed MPICH run give up
// their core while they wait. MPICH's ch4 progress engine polls without ever yielding, where Open
// MPI yields between polls on an oversubscribed node (its mpi_yield_when_idle). The tests' -n 3
// and -n 4 runs on a 2-core machine (CI) then pass each message after a scheduler time slice, as
// the peer a rank waits for runs only when the waiting rank's slice ends: the -n 4 suites took
// 3-4x as long. pbtest.run.mpiexec preloads this library into the ranks of a run with more
// processes than the machine has CPUs (PARBENCH_TEST_YIELD_WHEN_IDLE, tests/meson.build): after
// 16 polls in a row that progressed nothing, the rank yields its core. It interposes on UCX's
// ucp_worker_progress, which MPICH's ch4:ucx calls on every poll; under another device nothing
// calls it and the library changes nothing. The tests check calls, counts and known answers on
// the PMPI oracle's virtual clock, never a time, so no result they check depends on it.
#include <dlfcn.h>
#include <sched.h>

extern "C" unsigned ucp_worker_progress(void* worker) {
    using progress_function = unsigned (*)(void*);
    static const auto next =
        reinterpret_cast<progress_function>(dlsym(RTLD_NEXT, "ucp_worker_progress"));
    thread_local unsigned idle_polls = 0;
    const unsigned events = next(worker);
    if (events != 0) {
        idle_polls = 0;
    } else if (++idle_polls == 16) {
        idle_polls = 0;
        sched_yield();
    }
    return events;
}
