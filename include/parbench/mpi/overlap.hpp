// The overlap measurement of IMB-NBC (catalogue A.6.11), composed from the runner's phases
// (mpi/phases.hpp) — no timing loop of its own:
//
//   prepare            the resource, once for the three timings
//   time  t_pure       start; MPI_Wait                            (wait_kernel)
//   calibrate          collective: the CPU load of every process set to the same work, as long
//                      as the largest t_pure (mpi/cpu_load.hpp)
//   time  t_ovrl       start; the CPU load; MPI_Wait              (overlapped_kernel)
//   time  t_CPU        the CPU load alone                         (work_kernel)
//   gather, reduce     t_ovrl's record (t_min/t_max/t_avg over ranks and its distribution), then
//                      attach_overlap: t_ovrl, t_pure and t_CPU of the process with the largest
//                      t_ovrl, and overlap[%] from them (report/overlap.hpp)
//
// That is the IMB 4.0 guide's composition. An overlap_rule chooses IMB 2021's instead: t_CPU is
// the CPU load timed around its call inside t_ovrl's loop (IMB_reduce.c:206-208; no loop of its
// own), overlap[%] its own formula, and the CPU load IMB's (mpi/imb_cpu_work.hpp: a 10x10 pass
// whose rate each process probed once for the run, the work of the size from its own t_pure,
// IMB_reduce.c:191) where the guide's is calibrated collectively (imb::methodology chooses).
//
// A "start" is a functor that begins one nonblocking operation of iteration i and returns its
// request: start(context, i, buffers) -> MPI_Request. The three kernels wrap it.
#pragma once

#include <parbench/mpi/cpu_load.hpp>
#include <parbench/mpi/imb_cpu_work.hpp>
#include <parbench/mpi/phases.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/policy/cpu_load.hpp>
#include <parbench/report/overlap.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace parbench::mpi {

// t_pure's iteration: the operation and its completion, nothing between.
template <class Start>
struct wait_kernel {
    Start start;
    template <class View>
    void operator()(const kernel_context& c, std::uint64_t i, const View& v) const {
        MPI_Request request = start(c, i, v);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
};

// t_ovrl's iteration: the operation started, the work done, then the wait.
template <class Start, class Work>
struct overlapped_kernel {
    Start start;
    Work* work;
    template <class View>
    void operator()(const kernel_context& c, std::uint64_t i, const View& v) const {
        MPI_Request request = start(c, i, v);
        work->run();
        MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
};

// t_ovrl's iteration when t_CPU is measured inside it (IMB 2021): the work's own time is kept
// per iteration index, so that the timed iterations overwrite what the untimed warm-up wrote.
// `work_s` holds one entry per index the timing can reach (n_sample).
template <class Start, class Work>
struct overlapped_timing_work_kernel {
    Start start;
    Work* work;
    std::vector<double>* work_s;
    template <class View>
    void operator()(const kernel_context& c, std::uint64_t i, const View& v) const {
        MPI_Request request = start(c, i, v);
        const double begin = MPI_Wtime();
        work->run();
        const double spent = MPI_Wtime() - begin;
        if (i < work_s->size()) (*work_s)[i] = spent;
        MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
};

// What differs between IMB versions in an overlap measurement (imb::methodology decides).
struct overlap_rule {
    // t_CPU measured around the work inside t_ovrl's loop (IMB 2021) rather than by a timing of
    // the work alone (IMB 4.0 guide).
    bool cpu_inside_overlapped_loop = false;
    // overlap[%] from (t_ovrl, t_pure, t_CPU): report/overlap.hpp's (the guide's, divided by
    // the shorter time) unless given.
    double (*percent)(double t_ovrl, double t_pure, double t_cpu) = nullptr;
    // t_pure and t_ovrl each the largest over the processes (IMB-IO 2021: IMB_output.c:335-336,
    // timing[MAX] of each), t_CPU the slowest t_ovrl's process's, rather than all three from
    // the process with the largest t_ovrl (IMB-NBC, IMB_output.c:313-318; the guide).
    bool times_each_their_maximum = false;
    // IMB 2021's CPU work of the run (its rate probed once): each size's work set by
    // initialize(this process's t_pure), IMB_cpu_exploit(t_pure, 1), instead of calibrate().
    imb_cpu_work* run_work = nullptr;
    // t_ovrl's calls take root i % np whatever the session's root rule, t_pure's keep it (IMB
    // 2021's Ireduce, IMB_reduce.c:202; imb::methodology::ireduce_overlapped_root_round_robin).
    bool overlapped_root_round_robin = false;
};

// t_CPU's iteration: the work alone.
template <class Work>
struct work_kernel {
    Work* work;
    template <class View>
    void operator()(const kernel_context& /*c*/, std::uint64_t /*i*/, const View& /*v*/) const {
        work->run();
    }
};

// One process's time per iteration of a timing, in seconds.
[[nodiscard]] inline double per_iteration_s(const rank_timing& t) noexcept {
    return t.total_s / static_cast<double>(std::max<std::uint64_t>(1, t.iterations));
}

// At world rank 0, after reduce(): for each record, the process of its group (every process
// when the record's group is -1) with the largest t_ovrl gives all three times (IMB: "all timing
// values are taken from the process with the biggest t_ovrl"; t_pure the largest of the group's
// instead where rule.times_each_their_maximum), in µs per iteration of the
// pattern (divided by its time_divisor). With -check, the defects of the t_pure timing are added
// to those of t_ovrl. The CPU load's work and rate go into the metrics.
inline void attach_overlap(std::vector<result_record>& records, const gathered& ovrl,
                           const gathered& pure, const gathered& cpu, double time_divisor,
                           const cpu_load_calibration& load, const overlap_rule& rule = {}) {
    if (!ovrl.root) return;
    const double to_us = 1e6 / (time_divisor > 0.0 ? time_divisor : 1.0);
    for (result_record& r : records) {
        std::size_t slowest = ovrl.ranks.size();
        std::uint64_t pure_defects = 0;
        double pure_max_s = 0.0;
        for (std::size_t k = 0; k < ovrl.ranks.size(); ++k) {
            if (r.block.group >= 0 && ovrl.ranks[k].group != r.block.group) continue;
            if (k < pure.ranks.size()) {
                pure_defects += pure.ranks[k].defects;
                pure_max_s = std::max(pure_max_s, per_iteration_s(pure.ranks[k]));
            }
            if (slowest == ovrl.ranks.size() ||
                per_iteration_s(ovrl.ranks[k]) > per_iteration_s(ovrl.ranks[slowest]))
                slowest = k;
        }
        if (slowest == ovrl.ranks.size() || slowest >= pure.ranks.size() ||
            slowest >= cpu.ranks.size())
            continue;
        r.overlap = make_overlap_figures(per_iteration_s(ovrl.ranks[slowest]) * to_us,
                                         (rule.times_each_their_maximum
                                              ? pure_max_s
                                              : per_iteration_s(pure.ranks[slowest])) *
                                             to_us,
                                         per_iteration_s(cpu.ranks[slowest]) * to_us);
        if (rule.percent != nullptr)
            r.overlap->overlap_percent =
                rule.percent(r.overlap->t_ovrl_us, r.overlap->t_pure_us, r.overlap->t_cpu_us);
        if (r.defects) *r.defects += pure_defects;
        r.metrics["cpu_load_passes"] = static_cast<double>(load.passes);
        r.metrics["cpu_load_rate_mflops"] = load.rate_mflops;
    }
}

// IMB 2021's CPU work is each process's own (mpi/imb_cpu_work.hpp: its own probe and, in
// IMB-NBC and IMB-MPI4, its own t_pure; IMB_cpu_exploit.c:98-122), so the passes differ between
// the processes while a record's cpu_load_passes is world rank 0's: the fewest and the most over
// the record's processes go beside it, as metrics cpu_load_passes_min and cpu_load_passes_max.
// A record of one group (-multi 1: r.block.group >= 0) takes its group's fewest and most, and
// its cpu_load_passes becomes its group's first process's; a combined record (-1) those over
// every active process. Collective over the active processes (one agreement, between timings:
// never inside one); `mine` this process's passes; the records are world rank 0's (empty
// elsewhere).
inline void attach_work_spread(const session& s, std::vector<result_record>& records,
                               std::uint64_t mine) {
    // Per group g, then once over all of them at g = groups: the largest of (p, -p, the first
    // process's p) over its processes, each slot of a process outside it the lowest value.
    const int groups = std::max(1, s.layout().groups);
    constexpr long long nobody = std::numeric_limits<long long>::min();
    std::vector<long long> spread(3 * static_cast<std::size_t>(groups + 1), nobody);
    const auto own = [&](int g, bool first) {
        const auto at = 3 * static_cast<std::size_t>(g);
        spread[at] = static_cast<long long>(mine);
        spread[at + 1] = -static_cast<long long>(mine);
        if (first) spread[at + 2] = static_cast<long long>(mine);
    };
    own(groups, false);
    if (s.active() && s.group_index() >= 0 && s.group_index() < groups)
        own(s.group_index(), s.group().rank() == 0);
    s.agree(spread.data(), static_cast<int>(spread.size()), MPI_LONG_LONG, MPI_MAX);
    for (result_record& r : records) {
        const bool one_group = r.block.group >= 0 && r.block.group < groups;
        const auto at = 3 * static_cast<std::size_t>(one_group ? r.block.group : groups);
        r.metrics["cpu_load_passes_min"] = static_cast<double>(-spread[at + 1]);
        r.metrics["cpu_load_passes_max"] = static_cast<double>(spread[at]);
        if (one_group && spread[at + 2] != nobody)
            r.metrics["cpu_load_passes"] = static_cast<double>(spread[at + 2]);
    }
}

// The whole overlap measurement of one size. Collective over the session's world, like
// measure(): every process calls it with the same configuration; the records are on world rank 0.
// The configuration's kernel is t_pure's wait_kernel; its start is reused for t_ovrl. No
// completion: a nonblocking collective completes in its own MPI_Wait.
template <pattern::descriptor Pattern, class Start, class Resource, class Completion, class Plan,
          class Check>
    requires is_timing_plan<Plan> && (!completes<Completion>)
[[nodiscard]] measurement measure_overlap(
    const session& s,
    measure_config<Pattern, wait_kernel<Start>, Resource, Completion, Plan, Check> config,
    const overlap_rule& rule = {}) {
    using R = decltype(resource_for(s, std::move(config.resource)));
    Plan& plan = config.plan;
    measurement out;
    bool timed_out = false;
    {
        prepared<R> ready = prepare(s, resource_for(s, std::move(config.resource)),
                                    plan.mem_limit_bytes);
        if (ready.state() == preparation::over_memory_limit) out.skipped_need_bytes = ready.need_bytes();
        if (ready.state() == preparation::allocation_failed) out.allocation_failed = true;
        if (ready.ready()) {
            const std::uint64_t bytes = config.bytes;
            const kernel_context context =
                s.context(static_cast<std::size_t>(bytes), pattern::pairing_of(config.pattern));
            const rank_timing t_pure = time_iterations(s, config.pattern, ready, context,
                                                       config.kernel, config.completion, plan,
                                                       bytes, config.check);
            // A size past IMB 2021's block budget is not timed further (mpi::end_of_size).
            timed_out = t_pure.timed_out;
            if (!timed_out) {
                policy::matvec_load own_load;
                cpu_load_calibration calibration;
                if (rule.run_work != nullptr) {
                    // IMB 2021: no agreement, each process its own t_pure's work at the run's
                    // rate, run once here, untimed (IMB_reduce.c:191).
                    rule.run_work->initialize(per_iteration_s(t_pure));
                    const policy::imb_calibration& c = rule.run_work->mine;
                    calibration = {.passes = c.passes,
                                   .target_s = per_iteration_s(t_pure),
                                   .seconds_per_pass =
                                       c.passes_per_second > 0
                                           ? 1.0 / static_cast<double>(c.passes_per_second)
                                           : 0.0,
                                   .rate_mflops = c.mflops()};
                } else {
                    calibration = calibrate(s.active_comm().get(), own_load,
                                            per_iteration_s(t_pure));
                }
                policy::matvec_load& load =
                    rule.run_work != nullptr ? rule.run_work->load : own_load;
                rank_timing t_ovrl;
                rank_timing t_cpu;
                kernel_context overlapped_context = context;
                if (rule.overlapped_root_round_robin) overlapped_context.rotate_root = true;
                if (rule.cpu_inside_overlapped_loop) {
                    // One entry per iteration index the timing reaches; the timed loop's figures
                    // replace the warm-up's.
                    std::vector<double> work_s(static_cast<std::size_t>(std::max(
                                                   plan.iterations.n_sample(bytes, true),
                                                   plan.iterations.n_sample(bytes, false))),
                                               0.0);
                    overlapped_timing_work_kernel<Start, policy::matvec_load> overlapped{
                        config.kernel.start, &load, &work_s};
                    t_ovrl = time_iterations(s, config.pattern, ready, overlapped_context,
                                             overlapped, config.completion, plan, bytes,
                                             config.check);
                    t_cpu.group = t_ovrl.group;
                    t_cpu.iterations = std::min<std::uint64_t>(t_ovrl.iterations, work_s.size());
                    for (std::uint64_t i = 0; i < t_cpu.iterations; ++i) t_cpu.total_s += work_s[i];
                } else {
                    overlapped_kernel<Start, policy::matvec_load> overlapped{config.kernel.start,
                                                                             &load};
                    t_ovrl = time_iterations(s, config.pattern, ready, overlapped_context,
                                             overlapped, config.completion, plan, bytes,
                                             config.check);
                    work_kernel<policy::matvec_load> work_alone{&load};
                    t_cpu = time_iterations(s, config.pattern, ready, context, work_alone,
                                            config.completion, plan, bytes);
                }
                const gathered ovrl = gather(s, t_ovrl, plan.batching.max_batches);
                const gathered pure_figures = gather(s, t_pure, 0);
                const gathered cpu_figures = gather(s, t_cpu, 0);
                out.records = reduce(config.pattern, config.labels, s.layout(), bytes,
                                     plan.check && checks_data<Check>, ovrl);
                attach_overlap(out.records, ovrl, pure_figures, cpu_figures,
                               config.pattern.time_divisor, calibration, rule);
                if (rule.run_work != nullptr)
                    attach_work_spread(s, out.records, rule.run_work->mine.passes);
            }
        }
    }  // the resource is torn down here, before the idle processes are released
    out.timed_out = end_of_size(s, plan.iterations, timed_out || out.skipped_need_bytes > 0);
    return out;
}

}  // namespace parbench::mpi
