// The IMB-RMA benchmarks (MPI-3 one-sided, passive target; catalogue A.3.5) as definitions: the
// lock (or lock_all) taken outside timing and released after it, targets waiting inside MPI, a
// flush variant as the assured completion. Benchmarks that IMB runs in aggregate mode get both
// blocks; the others complete every iteration (MSGS_NONAGGR repetitions, no MODE label).
#pragma once

#include <parbench/mpi/imb_cpu_work.hpp>
#include <parbench/mpi/phases.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/suites/imb/methodology.hpp>
#include <parbench/suites/imb/one_sided.hpp>

#include <chrono>
#include <span>
#include <type_traits>
#include <utility>

namespace parbench::imb_rma {

using namespace imb_one_sided;
using mpi::window_epoch;
using pattern::throughput_rule;

// Shapes: epoch, completion and modes of each group of benchmarks.
template <class Completion, window_epoch Epoch = window_epoch::lock,
          mpi::run_modes Modes = mpi::run_modes::both>
struct passive : mpi::definition_defaults {
    static constexpr window_epoch epoch = Epoch;
    using completion = Completion;
    static constexpr mpi::definition_traits traits{.modes = Modes};
    static constexpr regions window_regions = regions::shared;
};

// Single transfer: rank 0 to rank 1 (Bidir: each to the other); X/t.
template <class Completion, bool Both = false, mpi::run_modes Modes = mpi::run_modes::both>
struct single : passive<Completion, window_epoch::lock, Modes> {
    static constexpr pattern::one_sided descriptor{
        .pairs = {.kind = pattern::pairing_kind::first_pair, .both_initiate = Both}};
};

// Multiple transfer: rank 0 to every other process in one iteration; N*X/t.
template <class Completion>
struct one_to_all : passive<Completion, window_epoch::lock_all, mpi::run_modes::non_aggregate> {
    static constexpr pattern::one_sided descriptor{.klass = benchmark_class::multiple_transfer,
                                                   .who = pattern::participants::origin_targets,
                                                   .pairs = pattern::origin_to_all,
                                                   .throughput = throughput_rule::per_target};
    // IMB 2021 completes a sample's transfers with one flush (imb::methodology).
    static constexpr bool completes_once_per_sample_in_imb2021 = true;
};

// Parallel transfer: several origins into each window, one region each (IMB 2021's layout under
// 2021: one_sided.hpp's regions); bare timings.
template <pattern::pairing Pairs, class Completion>
struct many_to_many : passive<Completion, window_epoch::lock_all, mpi::run_modes::non_aggregate> {
    static constexpr pattern::one_sided descriptor{.klass = benchmark_class::parallel_transfer,
                                                   .who = pattern::participants::origin_targets,
                                                   .pairs = Pairs,
                                                   .throughput = throughput_rule::none};
    static constexpr regions window_regions =
        Pairs.kind == pattern::pairing_kind::chain ? regions::per_neighbour : regions::per_origin;
    // All_put_all, All_get_all: IMB 2021 completes a sample's transfers with one
    // MPI_Win_flush_all; Exchange_* flush each neighbour every iteration in both.
    static constexpr bool completes_once_per_sample_in_imb2021 =
        std::is_same_v<Completion, mpi::rma::flush_all>;
};

template <class Completion>
struct single_floats : single<Completion> {
    static constexpr mpi::definition_traits traits{.unit = sizeof(float),
                                                  .modes = mpi::run_modes::both};
};
template <std::uint64_t Bytes>
struct single_element : single<mpi::rma::flush> {
    static constexpr mpi::definition_traits traits{.fixed_bytes = Bytes,
                                                  .modes = mpi::run_modes::both};
};

using unidir_put_def = transfer_def<put, single<mpi::rma::flush>>;
using unidir_get_def = transfer_def<get, single<mpi::rma::flush>>;
using bidir_put_def = transfer_def<put, single<mpi::rma::flush, true>>;
using bidir_get_def = transfer_def<get, single<mpi::rma::flush, true>>;
using put_local_def = transfer_def<put, single<mpi::rma::flush_local>>;
using get_local_def = transfer_def<get, single<mpi::rma::flush_local>>;
using one_put_all_def = transfer_def<put, one_to_all<mpi::rma::flush_all>>;
using one_get_all_def = transfer_def<get, one_to_all<mpi::rma::flush_all>>;
using put_all_local_def = transfer_def<put, one_to_all<mpi::rma::flush_local_all>>;
using get_all_local_def = transfer_def<get, one_to_all<mpi::rma::flush_local_all>>;
using all_put_all_def = transfer_def<put, many_to_many<pattern::rotated_all, mpi::rma::flush_all>>;
using all_get_all_def = transfer_def<get, many_to_many<pattern::rotated_all, mpi::rma::flush_all>>;
using exchange_put_def = transfer_def<put, many_to_many<pattern::periodic_chain, mpi::rma::flush>>;
using exchange_get_def = transfer_def<get, many_to_many<pattern::periodic_chain, mpi::rma::flush>>;
using accumulate_def = transfer_def<accumulate, single_floats<mpi::rma::flush>>;
using get_accumulate_def = transfer_def<get_accumulate, single_floats<mpi::rma::flush>>;
using fetch_and_op_def = transfer_def<fetch_and_op, single_element<sizeof(float)>>;
using compare_and_swap_def = transfer_def<compare_and_swap, single_element<sizeof(int)>>;

// Busy work outside MPI for a given time (the target of Truly_passive_put's second timing).
inline void compute_for(double seconds) noexcept {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < until) {
    }
}

// Truly_passive_put: Unidir_put timed twice, composed from the runner's phases. t_pure: the
// target waits inside MPI while the origin's puts complete; t_ovrl: the target computes outside
// MPI, each iteration as long as one put took in the first timing, before it enters MPI. Equal
// figures mean the puts progress without the target (truly passive). Under IMB 2021 every
// iteration of both timings ends with a barrier of the pair (then_barrier below).
inline constexpr mpi::table_column truly_passive_columns[] = {{"t_ovrl_us", "t_ovrl[usec]"},
                                                             {"t_pure_us", "t_pure[usec]"}};
// IMB 2021 prints t_pure before t_ovrl (IMB_output.c:423, `size, n_sample, t_pure, t_ovrlp`).
inline constexpr mpi::table_column truly_passive_columns_2021[] = {
    {"t_pure_us", "t_pure[usec]"}, {"t_ovrl_us", "t_ovrl[usec]"}};
struct truly_passive_put_def
    : transfer_def<put, single<mpi::rma::flush, false, mpi::run_modes::non_aggregate>> {
    static constexpr pattern::one_sided descriptor{.throughput = throughput_rule::none};
    // t_pure and t_ovrl instead of one time and a throughput.
    static constexpr mpi::definition_traits traits{.modes = mpi::run_modes::non_aggregate,
                                                  .columns = truly_passive_columns};
    // The column order of the methodology (imb::methodology::pure_before_overlapped).
    static std::span<const mpi::table_column> columns_under(const imb::methodology& m) {
        if (m.pure_before_overlapped()) return truly_passive_columns_2021;
        return truly_passive_columns;
    }

    // IMB 2021's iteration (imb::methodology::passive_put_barrier_per_iteration): the
    // completion (the origin's flush), then a barrier of the pair on both processes.
    template <class Completion>
    struct then_barrier {
        Completion& inner;
        void open(const kernel_context& c, const window_view& v) { inner.open(c, v); }
        void close(const kernel_context& c, const window_view& v) {
            inner.close(c, v);
            MPI_Barrier(c.comm);
        }
    };

    // The target's iteration in t_ovrl: IMB 2021's work where the run has it
    // (methodology::passive_put_work_like_imb), else the clock spun for compute_s.
    struct target_computing {
        kernel put;
        double compute_s = 0.0;
        mpi::imb_cpu_work* work = nullptr;
        void operator()(const kernel_context& c, std::uint64_t i, const window_view& v) const {
            if (c.initiator)
                put(c, i, v);
            else if (work != nullptr)
                work->load.run();
            else
                compute_for(compute_s);
        }
    };

    // `run_work`: the run's IMB CPU work, which imb::suite::run makes for imb-rma under
    // methodology::passive_put_work_like_imb alone; nullptr: the target spins on the clock.
    template <class Pattern, class R, class Kernel, class Completion, class Plan, class Check>
    static mpi::measurement measure(
        const mpi::session& s, mpi::measure_config<Pattern, Kernel, R, Completion, Plan, Check> config,
        const imb::methodology& m, mpi::imb_cpu_work* run_work = nullptr) {
        const Pattern& pattern = config.pattern;
        const mpi::record_labels& labels = config.labels;
        const std::uint64_t bytes = config.bytes;
        Kernel& reference = config.kernel;
        Completion& completion = config.completion;
        Plan& plan = config.plan;
        const Check& check = config.check;
        mpi::measurement out;
        bool timed_out = false;
        {
            mpi::prepared<R> ready = mpi::prepare(s, std::move(config.resource), plan.mem_limit_bytes);
            out.skipped_need_bytes =
                ready.state() == mpi::preparation::over_memory_limit ? ready.need_bytes() : 0;
            out.allocation_failed = ready.state() == mpi::preparation::allocation_failed;
            if (ready.ready()) {
                const kernel_context context =
                    s.context(static_cast<std::size_t>(bytes), pattern::pairing_of(pattern));
                const bool checked = plan.check && mpi::checks_data<Check>;
                then_barrier<Completion> barrier_after{completion};
                const bool barriers = m.passive_put_barrier_per_iteration();
                const auto timed = [&](auto& k) {
                    const mpi::rank_timing mine =
                        barriers ? mpi::time_iterations(s, pattern, ready, context, k,
                                                        barrier_after, plan, bytes, check)
                                 : mpi::time_iterations(s, pattern, ready, context, k,
                                                        completion, plan, bytes, check);
                    // Past IMB 2021's block budget (agreed): nothing timed, nothing to reduce.
                    timed_out = mine.timed_out;
                    if (timed_out) return std::pair{std::vector<result_record>{}, 0.0};
                    double per_put_s =
                        mine.total_s / static_cast<double>(std::max<std::uint64_t>(1, mine.iterations));
                    MPI_Allreduce(MPI_IN_PLACE, &per_put_s, 1, MPI_DOUBLE, MPI_MAX,
                                  s.active_comm().get());
                    return std::pair{mpi::reduce(pattern, labels, s.layout(), bytes, checked,
                                                 mpi::gather(s, mine, plan.batching.max_batches)),
                                     per_put_s};
                };
                const auto [pure, per_put_s] = timed(reference);
                if (!timed_out) {
                    // IMB_cpu_exploit(t_pure, 1) on the target (IMB_rma_put.c:470): its passes
                    // for the agreed time of one put, run once
                    mpi::imb_cpu_work* const work = run_work;
                    const bool computes = work != nullptr && !context.initiator;
                    if (computes) work->initialize(per_put_s);
                    target_computing computing{reference, per_put_s, work};
                    std::vector<result_record> overlapped = timed(computing).first;
                    // The target's passes and rate, for the record (process 0 is the origin)
                    double target_work[2] = {
                        computes ? static_cast<double>(work->mine.passes) : 0.0,
                        computes ? static_cast<double>(work->mine.passes_per_second) : 0.0};
                    if (work != nullptr)
                        MPI_Allreduce(MPI_IN_PLACE, target_work, 2, MPI_DOUBLE, MPI_MAX,
                                      s.active_comm().get());
                    for (std::size_t k = 0; k < overlapped.size(); ++k) {
                        overlapped[k].metrics["t_pure_us"] = pure[k].t_max_us;
                        overlapped[k].metrics["t_ovrl_us"] = overlapped[k].t_max_us;
                        if (work != nullptr) {
                            overlapped[k].metrics["cpu_load_passes"] = target_work[0];
                            overlapped[k].metrics["cpu_passes_per_second"] = target_work[1];
                        }
                    }
                    out.records = std::move(overlapped);
                }
            }
        }
        out.timed_out =
            mpi::end_of_size(s, plan.iterations, timed_out || out.skipped_need_bytes > 0);
        return out;
    }
};

}  // namespace parbench::imb_rma
