// The IMB-NBC benchmarks as definitions for the runner (catalogue A.3.4): each nonblocking
// collective is a "start" (begin the operation of iteration i, return its request); its buffers,
// data volumes, datatypes, root rotation and -check are those of the blocking IMB-MPI1 form,
// inherited from imb_mpi1's definition (but for the root of Ireduce's overlapped loop under IMB
// 2021: overlap_def). Two definitions per collective:
//
//   pure_def      Ixxx_pure: start; MPI_Wait — timed by the plain runner (t_min/t_max/t_avg)
//   overlap_def   Ixxx: t_pure, t_ovrl with the calibrated CPU load, t_CPU, overlap[%] —
//                 mpi::measure_overlap (mpi/overlap.hpp), the runner's phases composed
//
// No timing code here, and no test code (fault injection lives in plugins/mpi/testing/).
#pragma once

#include <parbench/mpi/overlap.hpp>
#include <parbench/suites/imb/mpi1.hpp>

#include <mpi.h>

#include <cstdint>
#include <utility>

namespace parbench::imb_nbc {

using imb_mpi1::count_of;
using imb_mpi1::float_count;
using mpi::kernel_context;

// --- starts: one nonblocking collective each ---------------------------------------------------

struct ibcast {
    template <class Buffers>
    MPI_Request operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
        MPI_Request r = MPI_REQUEST_NULL;
        const int root = c.root(i);
        MPI_Ibcast(c.rank == root ? b.send(i) : b.recv(i), count_of(c.bytes), MPI_BYTE, root,
                   c.comm, &r);
        return r;
    }
    static ibcast make(const kernel_context& /*c*/) { return {}; }
};

template <bool Vector>
struct iallgather {
    imb_mpi1::v_counts v;
    template <class Buffers>
    MPI_Request operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
        MPI_Request r = MPI_REQUEST_NULL;
        const int n = count_of(c.bytes);
        if constexpr (Vector)
            MPI_Iallgatherv(b.send(i), n, MPI_BYTE, b.recv(i), v.counts.data(), v.displs.data(),
                            MPI_BYTE, c.comm, &r);
        else
            MPI_Iallgather(b.send(i), n, MPI_BYTE, b.recv(i), n, MPI_BYTE, c.comm, &r);
        return r;
    }
    static iallgather make(const kernel_context& c) { return {imb_mpi1::v_counts(c.bytes, c.size)}; }
};

template <bool Vector>
struct igather {
    imb_mpi1::v_counts v;
    template <class Buffers>
    MPI_Request operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
        MPI_Request r = MPI_REQUEST_NULL;
        const int n = count_of(c.bytes);
        const int root = c.root(i);
        if constexpr (Vector)
            MPI_Igatherv(b.send(i), n, MPI_BYTE, b.recv(i), v.counts.data(), v.displs.data(),
                         MPI_BYTE, root, c.comm, &r);
        else
            MPI_Igather(b.send(i), n, MPI_BYTE, b.recv(i), n, MPI_BYTE, root, c.comm, &r);
        return r;
    }
    static igather make(const kernel_context& c) { return {imb_mpi1::v_counts(c.bytes, c.size)}; }
};

template <bool Vector>
struct iscatter {
    imb_mpi1::v_counts v;
    template <class Buffers>
    MPI_Request operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
        MPI_Request r = MPI_REQUEST_NULL;
        const int n = count_of(c.bytes);
        const int root = c.root(i);
        if constexpr (Vector)
            MPI_Iscatterv(b.send(i), v.counts.data(), v.displs.data(), MPI_BYTE, b.recv(i), n,
                          MPI_BYTE, root, c.comm, &r);
        else
            MPI_Iscatter(b.send(i), n, MPI_BYTE, b.recv(i), n, MPI_BYTE, root, c.comm, &r);
        return r;
    }
    static iscatter make(const kernel_context& c) { return {imb_mpi1::v_counts(c.bytes, c.size)}; }
};

template <bool Vector>
struct ialltoall {
    imb_mpi1::v_counts v;
    template <class Buffers>
    MPI_Request operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
        MPI_Request r = MPI_REQUEST_NULL;
        const int n = count_of(c.bytes);
        if constexpr (Vector)
            MPI_Ialltoallv(b.send(i), v.counts.data(), v.displs.data(), MPI_BYTE, b.recv(i),
                           v.counts.data(), v.displs.data(), MPI_BYTE, c.comm, &r);
        else
            MPI_Ialltoall(b.send(i), n, MPI_BYTE, b.recv(i), n, MPI_BYTE, c.comm, &r);
        return r;
    }
    static ialltoall make(const kernel_context& c) { return {imb_mpi1::v_counts(c.bytes, c.size)}; }
};

struct ireduce {
    template <class Buffers>
    MPI_Request operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
        MPI_Request r = MPI_REQUEST_NULL;
        MPI_Ireduce(b.send(i), b.recv(i), float_count(c.bytes), MPI_FLOAT, MPI_SUM, c.root(i),
                    c.comm, &r);
        return r;
    }
    static ireduce make(const kernel_context& /*c*/) { return {}; }
    // The root of overlap_def's overlapped loop: i % np under IMB 2021 whatever -root_shift
    // (IMB_reduce.c:197-204), t_pure's the root rule.
    static bool overlapped_root_round_robin(const imb::methodology& m) noexcept {
        return m.ireduce_overlapped_root_round_robin();
    }
};

// The methodology's counts (imb::methodology::reduce_scatter_whole_x_each), as Reduce_scatter's.
struct ireduce_scatter {
    imb_mpi1::reduce_scatter_counts receive;
    template <class Buffers>
    MPI_Request operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
        MPI_Request r = MPI_REQUEST_NULL;
        MPI_Ireduce_scatter(b.send(i), b.recv(i), receive.counts.data(), MPI_FLOAT, MPI_SUM,
                            c.comm, &r);
        return r;
    }
    static ireduce_scatter make(const kernel_context& c, const imb::methodology& m) {
        return {imb_mpi1::reduce_scatter_counts_under(m, float_count(c.bytes), c.size)};
    }
};

struct iallreduce {
    template <class Buffers>
    MPI_Request operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
        MPI_Request r = MPI_REQUEST_NULL;
        MPI_Iallreduce(b.send(i), b.recv(i), float_count(c.bytes), MPI_FLOAT, MPI_SUM, c.comm, &r);
        return r;
    }
    static iallreduce make(const kernel_context& /*c*/) { return {}; }
};

struct ibarrier {
    template <class Buffers>
    MPI_Request operator()(const kernel_context& c, std::uint64_t /*i*/, const Buffers& /*b*/) const {
        MPI_Request r = MPI_REQUEST_NULL;
        MPI_Ibarrier(c.comm, &r);
        return r;
    }
    static ibarrier make(const kernel_context& /*c*/) { return {}; }
};

// --- definitions ---------------------------------------------------------------------------------

// Ixxx_pure: the blocking form's pattern, layout, traits and check; start + MPI_Wait.
template <class Blocking, class Start>
struct pure_def : Blocking {
    using kernel = mpi::wait_kernel<Start>;
    static kernel make_kernel(const kernel_context& c) requires requires { Start::make(c); }
    { return {Start::make(c)}; }
    // A start that follows a rule of the methodology (Ireduce_scatter's counts); the imb family
    // prefers this form (plugins/mpi/imb/driver.hpp, methodology_definition).
    static kernel make_kernel(const kernel_context& c, const imb_mpi1::sized_operands& /*o*/,
                              const imb::methodology& m) requires requires { Start::make(c, m); }
    { return {Start::make(c, m)}; }
};

// The methodology's t_CPU, overlap[%] and CPU-work rules for mpi::measure_overlap; `run_work`:
// the run's IMB CPU work (mpi/imb_cpu_work.hpp), which imb::suite::run makes only where
// nbc_calibrates_once_per_run (nullptr otherwise): the run's choice, not tested again here.
[[nodiscard]] inline mpi::overlap_rule overlap_rule_of(const imb::methodology& m,
                                                       mpi::imb_cpu_work* run_work) noexcept {
    return {.cpu_inside_overlapped_loop = m.times_cpu_inside_overlap(),
            .percent = m.is_2021() ? &imb::overlap_percent_of_longer : nullptr,
            .run_work = run_work};
}

// IMB-NBC's overlap table (catalogue A.7.2): the record's typed overlap figures.
inline constexpr mpi::table_column overlap_columns[] = {{"t_ovrl_us", "t_ovrl[usec]"},
                                                        {"t_pure_us", "t_pure[usec]"},
                                                        {"t_cpu_us", "t_CPU[usec]"},
                                                        {"overlap_percent", "overlap[%]"}};

// Ixxx: the same iteration, measured three ways and reduced to the overlap figures.
template <class Blocking, class Start>
struct overlap_def : pure_def<Blocking, Start> {
    static constexpr mpi::definition_traits traits = [] {
        mpi::definition_traits t = Blocking::traits;
        t.columns = overlap_columns;
        return t;
    }();
    template <class Config>
    static mpi::measurement measure(const mpi::session& s, Config&& config,
                                    const imb::methodology& m, mpi::imb_cpu_work* run_work) {
        mpi::overlap_rule rule = overlap_rule_of(m, run_work);
        // a start whose overlapped loop rotates the root on a rule of its own (Ireduce's)
        if constexpr (requires { Start::overlapped_root_round_robin(m); })
            rule.overlapped_root_round_robin = Start::overlapped_root_round_robin(m);
        return mpi::measure_overlap(s, std::forward<Config>(config), rule);
    }
};

using ibcast_pure_def = pure_def<imb_mpi1::bcast_def, ibcast>;
using iallgather_pure_def = pure_def<imb_mpi1::allgather_def<false>, iallgather<false>>;
using iallgatherv_pure_def = pure_def<imb_mpi1::allgather_def<true>, iallgather<true>>;
using igather_pure_def = pure_def<imb_mpi1::gather_def<false>, igather<false>>;
using igatherv_pure_def = pure_def<imb_mpi1::gather_def<true>, igather<true>>;
using iscatter_pure_def = pure_def<imb_mpi1::scatter_def<false>, iscatter<false>>;
using iscatterv_pure_def = pure_def<imb_mpi1::scatter_def<true>, iscatter<true>>;
using ialltoall_pure_def = pure_def<imb_mpi1::alltoall_def<false>, ialltoall<false>>;
using ialltoallv_pure_def = pure_def<imb_mpi1::alltoall_def<true>, ialltoall<true>>;
using ireduce_pure_def = pure_def<imb_mpi1::reduce_def, ireduce>;
using ireduce_scatter_pure_def = pure_def<imb_mpi1::reduce_scatter_def, ireduce_scatter>;
using iallreduce_pure_def = pure_def<imb_mpi1::allreduce_def, iallreduce>;
using ibarrier_pure_def = pure_def<imb_mpi1::barrier_def, ibarrier>;

using ibcast_def = overlap_def<imb_mpi1::bcast_def, ibcast>;
using iallgather_def = overlap_def<imb_mpi1::allgather_def<false>, iallgather<false>>;
using iallgatherv_def = overlap_def<imb_mpi1::allgather_def<true>, iallgather<true>>;
using igather_def = overlap_def<imb_mpi1::gather_def<false>, igather<false>>;
using igatherv_def = overlap_def<imb_mpi1::gather_def<true>, igather<true>>;
using iscatter_def = overlap_def<imb_mpi1::scatter_def<false>, iscatter<false>>;
using iscatterv_def = overlap_def<imb_mpi1::scatter_def<true>, iscatter<true>>;
using ialltoall_def = overlap_def<imb_mpi1::alltoall_def<false>, ialltoall<false>>;
using ialltoallv_def = overlap_def<imb_mpi1::alltoall_def<true>, ialltoall<true>>;
using ireduce_def = overlap_def<imb_mpi1::reduce_def, ireduce>;
using ireduce_scatter_def = overlap_def<imb_mpi1::reduce_scatter_def, ireduce_scatter>;
using iallreduce_def = overlap_def<imb_mpi1::allreduce_def, iallreduce>;
using ibarrier_def = overlap_def<imb_mpi1::barrier_def, ibarrier>;

}  // namespace parbench::imb_nbc
