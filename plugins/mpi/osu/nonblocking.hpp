// OSU's nonblocking collective latency tests (c/mpi/collective/non_blocking/osu_i*.c, OSU 7.x)
// as definitions for osu/messages.hpp: the blocking test's definition (osu/collectives.hpp:
// buffers, layout, root 0, -c) with OSU's own measurement of one size, composed from the
// runner's phases (mpi/phases.hpp) like IMB-NBC's mpi::measure_overlap — no timing loop here:
//
//   prepare              the blocking test's message buffers, once for both timings
//   time  pure           I<call>; MPI_Wait                     (OSU's first loop: `latency`)
//   time  overall        I<call>; dummy compute; MPI_Wait      (OSU's second loop: `timer`)
//                        the compute lasts this process's own pure time per iteration (OSU's
//                        latency_in_secs, fed to dummy_compute); with -t T it is T pieces, each
//                        followed by one MPI_Test of the request (do_compute_and_probe); the
//                        kernel reads MPI_Wtime around the call, the compute and the wait, as
//                        OSU does, for the Coll. Init, Compute, MPI_Test and MPI_Wait figures
//                        of the timed iterations
//   gather, reduce       overall's record (t_avg_us: OSU's Overall, the mean over the
//                        processes), then the means over the processes of the pure time
//                        (Pure Comm.), its min and max, and of the split times; Compute is the
//                        compute minus its MPI_Test calls and
//                        Overlap(%) = max(0, 100 - (Overall - Compute) / Pure * 100)
//                        (osu_util_mpi.c, calculate_and_print_stats and print_stats_nbc); with
//                        -z the overall loop's times of single iterations (the plan's batches
//                        of one iteration, osu/messages.hpp batching_of), reduced across the
//                        processes for OSU's P<P> Tail Lat(us) (omb_lat_arr[i - options.skip] =
//                        (t_stop - t_start) * 1e6 and omb_get_stats, osu_iallreduce.c:261-264,
//                        :278: each iteration's mean over the processes)
//
// The nonblocking calls themselves are one type-erased `nbc_start` (a switch on the call), so
// the fifteen tests share the kernels; only the -c check differs per test.
#pragma once

#include "osu/collectives.hpp"
#include "osu/datatypes.hpp"
#include "osu/in_place.hpp"
#include "osu/messages.hpp"
#include "osu/options.hpp"
#include "osu/suite.hpp"

#include <parbench/mpi/overlap.hpp>
#include <parbench/mpi/phases.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/suites/imb/mpi1.hpp>

#include <mpi.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace parbench::osu {

enum class nbc_call : std::uint8_t {
    allgather, allgatherv, allreduce, alltoall, alltoallv, alltoallw, barrier, bcast, gather,
    gatherv, reduce, reduce_scatter, reduce_scatter_block, scatter, scatterv
};

// One nonblocking collective of one size, as OSU calls it: X / size(type) elements of -T's
// datatype per process (osu/datatypes.hpp; the v-variants and alltoallw with equal counts and
// displacements k X bytes for alltoallw, k counts for the others), the reductions MPI_SUM on
// them (reduce_scatter: IMB's split of them, as the suite's blocking test;
// reduce_scatter_block: the elements / n each), the rooted ones at root 0 or -k's root of the
// iteration (igather, igatherv, ireduce, iscatter, iscatterv: OSU 7.5's omb_get_root_rank(i, n),
// osu_igather.c:154 and :230; ibcast stays at 0), with -l's MPI_IN_PLACE where the blocking test
// puts it (osu/collectives.hpp in_place_use; osu_iallreduce.c:155, osu_igather.c:173, ...).
struct nbc_start {
    nbc_call call = nbc_call::barrier;
    MPI_Datatype type = MPI_CHAR;
    int count = 0;
    std::vector<int> counts;  // the v-variants, alltoallw, reduce_scatter
    std::vector<int> displs;
    std::vector<MPI_Datatype> types;  // alltoallw: the datatype to and from every process
    root_option root_choice;          // -k (the rooted calls but ibcast)
    in_place_use in_place = in_place_use::none;  // -l
    // -D (the calls that move data without reducing it): each block one element of the derived
    // type of its elements (osu_iallgather.c, as the blocking tests), for the start's life
    std::shared_ptr<const derived_message_type> derived;

    nbc_start(nbc_call which, const mpi::kernel_context& c, const options& o = options{},
              in_place_use place = in_place_use::none)
        : call(which),
          root_choice(o.root),
          in_place(o.in_place ? place : in_place_use::none) {
        const int np = c.size;
        const bool sums = which == nbc_call::allreduce || which == nbc_call::reduce ||
                          which == nbc_call::reduce_scatter ||
                          which == nbc_call::reduce_scatter_block;
        type = mpi_datatype(o.table_datatype, sums);
        const int elements = static_cast<int>(c.bytes / element_bytes(o.table_datatype));
        if (which == nbc_call::bcast) root_choice = {};
        switch (which) {
            case nbc_call::allreduce:
            case nbc_call::reduce: count = elements; break;
            case nbc_call::reduce_scatter_block: count = elements / np; break;
            case nbc_call::reduce_scatter: {
                imb_mpi1::reduce_scatter_split split(elements, np);
                counts = std::move(split.counts);
                break;
            }
            default: {
                count = elements;
                if (o.ddt.given()) {
                    derived = std::make_shared<const derived_message_type>(o.ddt, type, elements);
                    type = derived->get();
                    count = 1;
                }
                imb_mpi1::v_counts v(count, np);
                counts = std::move(v.counts);
                displs = std::move(v.displs);
                if (which == nbc_call::alltoallw) {
                    types.assign(static_cast<std::size_t>(np), type);
                    for (int k = 0; k < np; ++k)
                        displs[static_cast<std::size_t>(k)] = k * static_cast<int>(c.bytes);
                }
                break;
            }
        }
    }

    // The root of iteration i (-k rotate: i % n).
    [[nodiscard]] int root_of(const mpi::kernel_context& c, std::uint64_t i) const noexcept {
        return root_choice.rotate ? static_cast<int>(i % static_cast<std::uint64_t>(c.size))
                                  : static_cast<int>(root_choice.rank);
    }

    [[nodiscard]] MPI_Request begin(const mpi::kernel_context& c, std::uint64_t i,
                                    std::byte* send_buffer, std::byte* recv_buffer) const {
        const int root = root_of(c, i);
        const in_place_sides sides = in_place_sides_of(in_place, c.rank == root);
        return begin_at(c, root, sides.send ? MPI_IN_PLACE : send_buffer,
                        sides.receive ? MPI_IN_PLACE : recv_buffer);
    }

    [[nodiscard]] MPI_Request begin_at(const mpi::kernel_context& c, int root, void* send,
                                       void* recv) const {
        MPI_Request r = MPI_REQUEST_NULL;
        const int* n = counts.data();
        const int* d = displs.data();
        switch (call) {
            case nbc_call::allgather:
                MPI_Iallgather(send, count, type, recv, count, type, c.comm, &r);
                break;
            case nbc_call::allgatherv:
                MPI_Iallgatherv(send, count, type, recv, n, d, type, c.comm, &r);
                break;
            case nbc_call::allreduce:
                MPI_Iallreduce(send, recv, count, type, MPI_SUM, c.comm, &r);
                break;
            case nbc_call::alltoall:
                MPI_Ialltoall(send, count, type, recv, count, type, c.comm, &r);
                break;
            case nbc_call::alltoallv:
                MPI_Ialltoallv(send, n, d, type, recv, n, d, type, c.comm, &r);
                break;
            case nbc_call::alltoallw:
                MPI_Ialltoallw(send, n, d, types.data(), recv, n, d, types.data(), c.comm, &r);
                break;
            case nbc_call::barrier: MPI_Ibarrier(c.comm, &r); break;
            case nbc_call::bcast:
                MPI_Ibcast(c.rank == root ? send : recv, count, type, root, c.comm, &r);
                break;
            case nbc_call::gather:
                MPI_Igather(send, count, type, recv, count, type, root, c.comm, &r);
                break;
            case nbc_call::gatherv:
                MPI_Igatherv(send, count, type, recv, n, d, type, root, c.comm, &r);
                break;
            case nbc_call::reduce:
                MPI_Ireduce(send, recv, count, type, MPI_SUM, root, c.comm, &r);
                break;
            case nbc_call::reduce_scatter:
                MPI_Ireduce_scatter(send, recv, n, type, MPI_SUM, c.comm, &r);
                break;
            case nbc_call::reduce_scatter_block:
                MPI_Ireduce_scatter_block(send, recv, count, type, MPI_SUM, c.comm, &r);
                break;
            case nbc_call::scatter:
                MPI_Iscatter(send, count, type, recv, count, type, root, c.comm, &r);
                break;
            case nbc_call::scatterv:
                MPI_Iscatterv(send, n, d, type, recv, count, type, root, c.comm, &r);
                break;
        }
        return r;
    }

    // The start of mpi/overlap.hpp's kernels: OSU's buffers never rotate.
    template <class View>
    [[nodiscard]] MPI_Request operator()(const mpi::kernel_context& c, std::uint64_t i,
                                         const View& b) const {
        return begin(c, i, b.send(0), b.recv(0));
    }
};

// OSU's dummy compute (osu_util_mpi.c: compute_on_host, do_compute_cpu, do_compute_and_probe):
// passes of x[i] += a[i][j] a[j][i] + y[j] on DIM x DIM floats until the compute has lasted the
// target, summed pass by pass; with T probes, T pieces of target / T, each followed by one
// MPI_Test of the request (whose time, read on MPI_Wtime, is returned). The passes are timed on
// the steady clock, where OSU reads MPI_Wtime: the same real time in an MPI library, and a
// compute that ends under a test's virtual MPI_Wtime (tests/mpi/oracle).
class dummy_compute {
public:
    static constexpr std::size_t dim = 25;  // OSU's DIM

    dummy_compute() {
        a_.fill(2.0f);
        x_.fill(1.0f);
        y_.fill(1.0f);
    }

    double run(double target_s, std::uint64_t probes, MPI_Request& request) {
        if (probes == 0) {
            compute(target_s);
            return 0.0;
        }
        double test_s = 0.0;
        const double piece_s = target_s / static_cast<double>(probes);
        for (std::uint64_t k = 0; k < probes; ++k) {
            compute(piece_s);
            int done = 0;
            const double t0 = MPI_Wtime();
            MPI_Test(&request, &done, MPI_STATUS_IGNORE);
            test_s += MPI_Wtime() - t0;
        }
        return test_s;
    }

private:
    void compute(double target_s) {
        using clock = std::chrono::steady_clock;
        double elapsed = 0.0;
        while (elapsed < target_s) {
            const auto t0 = clock::now();
            for (std::size_t i = 0; i < dim; ++i)
                for (std::size_t j = 0; j < dim; ++j)
                    x_[i] += a_[i * dim + j] * a_[j * dim + i] + y_[j];
            elapsed += std::chrono::duration<double>(clock::now() - t0).count();
        }
    }

    std::array<float, dim * dim> a_{};
    std::array<float, dim> x_{};
    std::array<float, dim> y_{};
};

// One process's split of the overall timing: the last calls' init, compute (with its MPI_Test
// calls, as OSU's tcomp), test and wait seconds, in a ring as long as the timed iterations (at
// most max_kept), so that the figures are the timed iterations' (OSU sums those only) although
// the kernel also runs the warm-up.
class nbc_split {
public:
    static constexpr std::uint64_t max_kept = std::uint64_t{1} << 20;

    explicit nbc_split(std::uint64_t timed)
        : ring_(static_cast<std::size_t>(std::clamp<std::uint64_t>(timed, 1, max_kept))) {}

    void add(const std::array<double, 4>& call) noexcept {
        ring_[static_cast<std::size_t>(calls_ % ring_.size())] = call;
        ++calls_;
    }

    // Seconds per call over the last `timed` calls (those the ring holds of them).
    [[nodiscard]] std::array<double, 4> per_call(std::uint64_t timed) const noexcept {
        const std::uint64_t n = std::min({timed, calls_, static_cast<std::uint64_t>(ring_.size())});
        std::array<double, 4> sum{};
        for (std::uint64_t k = calls_ - n; k < calls_; ++k)
            for (std::size_t f = 0; f < 4; ++f)
                sum[f] += ring_[static_cast<std::size_t>(k % ring_.size())][f];
        for (double& v : sum) v /= static_cast<double>(std::max<std::uint64_t>(n, 1));
        return sum;
    }

private:
    std::vector<std::array<double, 4>> ring_;
    std::uint64_t calls_ = 0;
};

// OSU's second loop's iteration: the call, the dummy compute for `target_s`, the wait. `Start`
// begins the call (nbc_start, or the neighbourhood tests' start): begin(context, send, recv).
template <class Start = nbc_start>
struct nbc_overall_kernel {
    const Start* start;
    dummy_compute* work;
    nbc_split* split;
    double target_s = 0.0;
    std::uint64_t probes = 0;

    template <class View>
    void operator()(const mpi::kernel_context& c, std::uint64_t i, const View& b) const {
        const double t0 = MPI_Wtime();
        MPI_Request request = begin(c, i, b);
        const double t1 = MPI_Wtime();
        const double test_s = work->run(target_s, probes, request);
        const double t2 = MPI_Wtime();
        MPI_Wait(&request, MPI_STATUS_IGNORE);
        const double t3 = MPI_Wtime();
        split->add({t1 - t0, t2 - t1, test_s, t3 - t2});
    }

    // nbc_start's begin takes the iteration (-k rotate's root); the neighbourhood tests' not.
    template <class View>
    [[nodiscard]] MPI_Request begin(const mpi::kernel_context& c, std::uint64_t i,
                                    const View& b) const {
        if constexpr (requires { start->begin(c, i, b.send(0), b.recv(0)); })
            return start->begin(c, i, b.send(0), b.recv(0));
        else
            return start->begin(c, b.send(0), b.recv(0));
    }
};

// OSU's overlap (print_stats_nbc): 100 - (overall - compute) / pure * 100, at least 0; 0 where
// the pure time is 0 (OSU divides by it).
[[nodiscard]] inline double osu_overlap_percent(double overall_us, double compute_us,
                                                double pure_us) noexcept {
    if (!(pure_us > 0.0)) return 0.0;
    return std::max(0.0, 100.0 - (overall_us - compute_us) / pure_us * 100.0);
}

// At the gather root: the figures of print_stats_nbc on each record, from every process's pure
// timing and split (per process: init, compute, test, wait in seconds per call).
void attach_nbc_figures(std::vector<result_record>& records, const mpi::gathered& pure,
                        const std::vector<double>& splits);

// Collective over the active processes: every process's split per call (init, compute, test,
// wait) to the gather root (4 doubles per process, in active-rank order), empty elsewhere.
[[nodiscard]] std::vector<double> gather_splits(const mpi::session& s,
                                                const std::array<double, 4>& mine);

// The barriers after each call of OSU's first (pure) loop: the blocking test's (1; 0 for
// ibarrier, whose blocking test is the barrier itself).
template <class Def>
[[nodiscard]] constexpr int barriers_after_pure() noexcept {
    if constexpr (timed_per_call<Def>)
        return Def::barriers_after_call;
    else
        return 1;
}

// OSU's measurement of one size first pure, then overall (see the top of this file): that of
// the nonblocking collectives below and of osu/partitioned.hpp's partitioned_latency.
// `resource` is prepared once for both loops; once it is ready, `make_loops()` gives them:
//   pure()                            the first loop's kernel
//   overall(work, split, target_s)    the second's: the dummy compute for target_s seconds
//                                     after each start, each call's parts added to split
//   pure_barriers                     the MPI_Barriers after each call of the first loop
//   round_trip                        each call a round trip: the pure time, and the compute
//                                     that lasts it, halved (one way, as OSU's)
// OSU 7.5 times every call of both loops on its own, after one MPI_Barrier before each loop,
// with an untimed MPI_Barrier after each call of the second (osu_iallreduce.c:175-183 and
// :230-247; osu_partitioned_latency.c:219, :328, :347-385). -batched: both loops batched, as
// before 7.5's method.
template <class Pattern, class Resource, class Check, class MakeLoops>
[[nodiscard]] mpi::measurement measure_pure_then_overall(
    const mpi::session& s, const options& o, const mpi::record_labels& labels, std::uint64_t x,
    const message_plan& plan, const Pattern& pattern, const mpi::kernel_context& context,
    Resource resource, const Check& check, const MakeLoops& make_loops) {
    mpi::measurement out;
    {
        auto ready = mpi::prepare(s, std::move(resource), plan.mem_limit_bytes);
        if (ready.state() == mpi::preparation::over_memory_limit)
            out.skipped_need_bytes = ready.need_bytes();
        if (ready.state() == mpi::preparation::allocation_failed) out.allocation_failed = true;
        if (ready.ready()) {
            mpi::no_completion none;
            const auto loops = make_loops();
            auto pure_kernel = loops.pure();
            collective_plan pure_plan = per_call_plan(o, plan, loops.pure_barriers);
            const mpi::rank_timing t_pure = mpi::time_iterations(
                s, pattern, ready, context, pure_kernel, none, pure_plan, x, check);
            dummy_compute work;
            nbc_split split(t_pure.iterations);  // the overall loop's timed count too
            // OSU's latency_in_secs: this process's own pure time per call (one way)
            double target_s = mpi::per_iteration_s(t_pure);
            if (loops.round_trip) target_s /= 2;
            auto overall_kernel = loops.overall(work, split, target_s);
            collective_plan overall_plan = per_call_plan(o, plan, 1);
            const mpi::rank_timing t_overall = mpi::time_iterations(
                s, pattern, ready, context, overall_kernel, none, overall_plan, x, check);
            mpi::gathered overall =
                mpi::gather(s, t_overall, plan.batching.max_batches, plan.travel);
            mpi::gathered pure = mpi::gather(s, t_pure, 0);
            const std::vector<double> splits =
                gather_splits(s, split.per_call(t_overall.iterations));
            out.records = mpi::reduce(pattern, labels, s.layout(), x,
                                      plan.check && mpi::checks_data<Check>, overall);
            if (loops.round_trip)
                for (mpi::rank_timing& t : pure.ranks) t.total_s /= 2;
            attach_nbc_figures(out.records, pure, splits);
            // -z: the overall loop's series of single iterations (osu/messages.hpp's
            // tail_series; osu_iallreduce.c:261-264, osu_partitioned_latency.c:393-397)
            out.reduced = std::move(overall.reduced);
            // the records' defects are the overall loop's
            out.own_check = t_overall.found;
            out.checked_iteration = t_overall.checked_iteration;
        }
    }
    s.world().quiet_barrier();
    return out;
}

// measure_pure_then_overall's loops of a nonblocking collective: `start`; MPI_Wait, then
// nbc_overall_kernel with -t's probes.
template <class Start>
struct nbc_loops {
    Start start;
    int pure_barriers = 1;
    std::uint64_t probes = 0;
    static constexpr bool round_trip = false;

    [[nodiscard]] mpi::wait_kernel<Start> pure() const { return {start}; }
    [[nodiscard]] nbc_overall_kernel<Start> overall(dummy_compute& work, nbc_split& split,
                                                    double target_s) const {
        return {.start = &start, .work = &work, .split = &split, .target_s = target_s,
                .probes = probes};
    }
};

// OSU's measurement of one size of a nonblocking collective, whose call `make_start(context)`
// makes once the buffers are ready: a Start with begin(context, send, recv) and the call
// operator of mpi/overlap.hpp's kernels (nbc_start). The first loop's calls have an
// MPI_Barrier after them but osu_ibarrier's, which follow each other (osu_ibarrier.c:109-116):
// the blocking test's barriers after a call there.
template <class Def, class MakeStart>
[[nodiscard]] mpi::measurement measure_nbc(const mpi::session& s, const options& o,
                                           const mpi::record_labels& labels, std::uint64_t x,
                                           const message_plan& plan, const MakeStart& make_start) {
    const auto pattern = Def::descriptor(o);
    const auto bytes = static_cast<std::size_t>(x);
    const mpi::kernel_context context = s.context(bytes, pattern::pairing_of(pattern));
    return measure_pure_then_overall(
        s, o, labels, x, plan, pattern, context,
        mpi::resource_for(s, mpi::messages{.layout = Def::layout(bytes, s.layout().processes)}),
        check_of<Def>(o),  // -T's element layout, -k's root
        [&] {
            using start_type = std::remove_cvref_t<decltype(make_start(context))>;
            return nbc_loops<start_type>{.start = make_start(context),
                                         .pure_barriers = barriers_after_pure<Def>(),
                                         .probes = o.test_calls};
        });
}

// A nonblocking collective test: the blocking test `Blocking` (osu/collectives.hpp's
// collective_def) measured by measure_nbc, with OSU's banner and table.
template <class Blocking, nbc_call Call, const char* Banner, int OverallWidth = 0>
struct nbc_def : Blocking {
    // -D where the blocking test takes it (OMBOP__COLLECTIVE__NBC_ALLTOALL, __NBC_GATHER,
    // __NBC_SCATTER, __NBC_BCAST have D:, osu_util_options.h:104-117; the reductions' none)
    static constexpr bool takes_ddt = Blocking::takes_ddt;
    // -t, and -c but on ibarrier (OMBOP__COLLECTIVE__NBC_BARRIER, :102-103)
    static constexpr const char* osu_letters =
        Call == nbc_call::barrier ? letters::nbc_barrier : letters::nbc;
    static constexpr block_text text{
        .banner = Banner,
        .datatype = Blocking::text.datatype,
        .figures = {{{.heading = "Overall(us)",
                      .source = "t_avg_us",
                      .name = "overall_us",
                      .width = OverallWidth}}},
        .nonblocking = true};

    [[nodiscard]] static mpi::measurement measure_size(const mpi::session& s, const options& o,
                                                       const mpi::record_labels& labels,
                                                       std::uint64_t x, const message_plan& plan) {
        return measure_nbc<Blocking>(s, o, labels, x, plan,
                                     [&o](const mpi::kernel_context& context) {
                                         return nbc_start(Call, context, o, Blocking::in_place);
                                     });
    }
};

}  // namespace parbench::osu
