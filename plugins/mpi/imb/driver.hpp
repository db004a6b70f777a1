// The IMB driver: IMB's family for mpi::sweep() (mpi/sweep.hpp) runs one benchmark definition
// over IMB's process counts (-npmin doubling, or the pair of a two-process pattern) and message
// sizes, with IMB's warm-up, and hands every record to the host. Every imb-* suite runs its
// definitions through run_benchmark<Def>.
#pragma once

#include <mpi.h>
#include <parbench/plugin/abi.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <parbench/core/buffers.hpp>
#include <parbench/mpi/definition.hpp>
#include <parbench/mpi/file_resource.hpp>
#include <parbench/mpi/persistent.hpp>
#include <parbench/mpi/rma_window.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/mpi/sweep.hpp>
#include <parbench/pattern/pattern.hpp>
#include <parbench/plugin/export.hpp>
#include <parbench/suites/imb/datatypes.hpp>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "imb/options.hpp"

namespace parbench::mpi {
struct imb_cpu_work;  // mpi/imb_cpu_work.hpp
}

namespace parbench::imb {

// What every benchmark of one run shares.
struct run_state {
    std::string_view suite;  // "imb-mpi1", for the records
    const options* opts = nullptr;
    const plugin::host_channel* host = nullptr;
    std::vector<int> order;  // world ranks in -map order
    int world_size = 1;
    int world_rank = 0;
    double mem_limit_bytes = 0.0;
    const memory_space* buffers = nullptr;  // message buffers' memory (nullptr: host)
    std::string io_directory;  // suites with files: the run's own directory (io/run_directory.hpp)
    // imb-mpi1: the datatypes of -data_type, -red_data_type, -contig_type (nullptr: the fixed
    // MPI_BYTE / MPI_FLOAT of the other suites)
    const imb_mpi1::message_datatypes* datatypes = nullptr;
    // IMB 2021's CPU work of the run (mpi/imb_cpu_work.hpp), else nullptr: imb-io's with
    // nonblocking benchmarks, set once for the run (methodology::io_calibrates_once_per_run);
    // imb-nbc's and imb-mpi4's, its rate probed once for the run and its work set per size
    // (methodology::nbc_calibrates_once_per_run).
    mpi::imb_cpu_work* cpu_work = nullptr;
};

template <class Check>
concept check_of_operands = requires(const imb_mpi1::sized_operands& o) { Check{o}; };

// A definition whose kernel takes the datatypes of a message size (imb-mpi1's); its check takes
// them where it looks at the data.
template <class Def>
concept typed_definition =
    requires(const mpi::kernel_context& c, const imb_mpi1::sized_operands& o) {
        Def::make_kernel(c, o);
}
|| requires(const mpi::kernel_context& c, const imb_mpi1::sized_operands& o, const methodology& m) {
    Def::make_kernel(c, o, m);
};

// A definition whose kernel follows a rule of the methodology (the window of Uniband/Biband,
// the source of PingPong): make_kernel(c, operands, methodology).
template <class Def>
concept methodology_definition = requires(const mpi::kernel_context& c,
                                          const imb_mpi1::sized_operands& o, const methodology& m) {
    Def::make_kernel(c, o, m);
};

// The pattern a definition measures under the methodology (Uniband/Biband: messages per
// iteration from the window), else its descriptor.
template <class Def>
[[nodiscard]] constexpr auto descriptor_under(const methodology& m) {
    if constexpr (requires { Def::descriptor_for(m); })
        return Def::descriptor_for(m);
    else
        return Def::descriptor;
}

// The buffers a definition measures on under the methodology (Reduce_scatter: IMB 2021's np·X
// bytes reduced), else its layout.
template <class Def>
[[nodiscard]] mpi::buffer_layout layout_under(std::size_t x, int np, const methodology& m) {
    if constexpr (requires { Def::layout_for(x, np, m); })
        return Def::layout_for(x, np, m);
    else
        return Def::layout(x, np);
}

// The datatypes of one message size, where the run has them and the definition takes them.
template <class Def>
class size_datatypes {
public:
    size_datatypes(const run_state& st, std::size_t x) : method_(st.opts->method) {
        if constexpr (typed_definition<Def>)
            if (st.datatypes != nullptr) owned_.emplace(st.datatypes->at(x));
    }
    [[nodiscard]] std::size_t spread() const noexcept {
        return owned_ ? owned_->operands().spread : 1;
    }
    // Without the run's datatypes: IMB 4.0's fixed MPI_BYTE / MPI_FLOAT operands.
    [[nodiscard]] auto kernel(const mpi::kernel_context& c) const {
        if constexpr (methodology_definition<Def>)
            return Def::make_kernel(
                c, owned_ ? owned_->operands() : imb_mpi1::fixed_operands(c.bytes), method_);
        else if constexpr (typed_definition<Def>)
            return Def::make_kernel(c, owned_ ? owned_->operands()
                                              : imb_mpi1::fixed_operands(c.bytes));
        else
            return Def::make_kernel(c);
    }
    [[nodiscard]] typename Def::verify_check check() const {
        typename Def::verify_check made = [&] {
            if constexpr (check_of_operands<typename Def::verify_check>)
                if (owned_) return typename Def::verify_check{owned_->operands()};
            return typename Def::verify_check{};
        }();
        // A check whose expected data follows a rule of the methodology (Reduce_scatter's
        // blocks) is told which.
        if constexpr (requires { made.follow(method_); }) made.follow(method_);
        return made;
    }

private:
    methodology method_;
    std::optional<imb_mpi1::sized_datatypes> owned_;
};

// Whether a definition's calls can be timed each on its own under some methodology
// (methodology::times_each_call: IMB 2021's collectives with a message size): the others' sync
// policy leaves that method out, and their timings compile no loop for it.
template <class Def>
inline constexpr bool may_time_each_call =
    pattern::collective_descriptor<std::remove_cvref_t<decltype(Def::descriptor)>> &&
    Def::traits.has_bytes;
static_assert(!methodology{}.times_each_call(false, true) &&
                  !methodology{}.times_each_call(true, false),
              "may_time_each_call must follow methodology::times_each_call");

// The sync policy of one benchmark: -start_sync window as given; otherwise each call timed on
// its own with the methodology's barriers where the methodology says so (IMB 2021's
// collectives), else IMB's barriers before a batched loop. o.sync is barrier or window
// (parse_sync). Compiled once per EachCall, not per definition (sync_for).
template <bool EachCall>
[[nodiscard]] policy::sync::choice<true, EachCall> sync_of(const options& o) {
    auto sync = policy::sync::narrowed<true, EachCall>(o.sync);
    if (sync.which == policy::sync::method::window) return sync;
    if constexpr (EachCall) {
        if (o.method.times_each_call(/*collective=*/true, /*has_bytes=*/true)) {
            sync.which = policy::sync::method::each_call;
            sync.after_call = o.method.barriers_after_call();
            sync.dissemination = o.method.imb_barrier;
        }
    }
    return sync;
}
template <class Def>
[[nodiscard]] policy::sync::choice<true, may_time_each_call<Def>> sync_for(const options& o) {
    return sync_of<may_time_each_call<Def>>(o);
}

// How one benchmark was selected.
struct selection {
    bool multiple = false;  // Multi- name or -multi
};

using run_fn = void (*)(const run_state&, const selection&, std::string_view name);

using mpi::table_column;

// One benchmark of a suite's catalogue: what `parbench list` shows, how it runs, and the figure
// columns of its table where they are not its class's.
struct benchmark {
    parbench_benchmark info;
    run_fn run;
    std::span<const table_column> columns = {};
    // Where the methodology orders the columns otherwise (IMB-RMA's Truly_passive_put).
    std::span<const table_column> (*columns_under)(const methodology&) = nullptr;
};

// The process counts a benchmark runs at; empty (with a warning on rank 0) when the run cannot
// host it: a fixed-size pattern runs at exactly `fixed_processes` (two for a pair, one for a
// single process; 0: not fixed), a pairing of halves needs an even count, a one-sided pattern
// with origins and targets at least `min_processes`.
[[nodiscard]] std::vector<int> process_counts_for(const run_state& st, std::string_view name,
                                                  int fixed_processes, bool even_only,
                                                  int min_processes = 1);

// Rank 0's warnings after one process count: sizes skipped for -mem, a failed allocation.
void warn_skipped_sizes(const run_state& st, std::string_view name, int processes,
                        std::uint64_t first_skipped, std::size_t worst_need_bytes);
void warn_allocation_failed(const run_state& st, std::string_view name, int processes);
// Process counts a definition refuses (`why`): a warning on rank 0, or the benchmark skipped
// when no count is left.
void warn_left_out(const run_state& st, std::string_view name, const std::string& why,
                   bool none_left);
// -start_sync window: how many calls started late and were dropped (per size in the JSON metrics).
void warn_dropped_calls(const run_state& st, std::string_view name, int processes,
                        std::uint64_t dropped, std::uint64_t timed);
void warn_storage(const run_state& st, std::string_view name, int processes, std::uint64_t bytes,
                  const mpi::storage_need& storage);

// Where the transfers of a one-sided timing go in the window (mpi::window_plan): `count`
// sections, `stride` bytes apart (0: X apart); `imb2021_layout`: several origins address one
// target as IMB 2021 does (methodology::one_sided_origins_share_target).
struct target_sections {
    std::uint64_t count = 1;
    std::size_t stride = 0;
    bool imb2021_layout = false;
};

// Message buffers of `layout` at IMB 2021's -off_cache slots (methodology::
// messages_at_cache_offsets): each region's slots from imb2021_cache_offsets of IMB's buffer
// length in `lengths` (times `spread`) and the size's count before its calibration, `n_sample`.
// Compiled once (driver.cpp), for every definition's make_resource.
[[nodiscard]] mpi::message_resource imb2021_message_resource(const mpi::session& s,
                                                             mpi::buffer_layout layout,
                                                             mpi::buffer_layout lengths,
                                                             const off_cache& cache,
                                                             std::size_t spread,
                                                             std::uint64_t n_sample);

// The resource a definition measures on at size x: message buffers of its layout under the
// methodology `m` (layout_under; from the
// session's pools, rotated with -off_cache; `spread` times the data for resized datatypes), with
// the persistent requests its request_maker makes on them once per size (IMB-MPI4; a request is
// bound to one address, so those buffers never rotate), the RMA window of its plan with
// `sections` (for Q processes per group, as layout(x, np)), or the file of its plan at `site`.
// `n_sample`: the size's count before its calibration, which bounds IMB 2021's -off_cache
// positions (imb2021_cache_offsets).
template <class Def>
[[nodiscard]] auto make_resource(const mpi::session& s, const off_cache& cache, std::size_t x,
                                 const mpi::kernel_context& context, const methodology& m,
                                 target_sections sections, const mpi::file_site& site = {},
                                 std::size_t spread = 1, std::uint64_t n_sample = 1) {
    if constexpr (requires { Def::file(x, context, site); })
        return mpi::file_resource(Def::file(x, context, site), context, &s.send_pool());
    else if constexpr (requires { Def::window(x, sections.count, s.layout().processes); }) {
        mpi::window_plan plan = [&] {
            if constexpr (requires { Def::window(x, sections.count, 1, true); })
                return Def::window(x, sections.count, s.layout().processes,
                                   sections.imb2021_layout);
            else
                return Def::window(x, sections.count, s.layout().processes);
        }();
        if (sections.stride > 0) {
            plan.stride = sections.stride;
            if (plan.result_bytes > 0) plan.result_bytes = plan.region_bytes();  // a slot each
        }
        return mpi::rma_window(plan, context);
    }
    else if constexpr (requires { Def::request_maker(context, m); })
        return mpi::persistent_requests(
            mpi::message_resource(layout_under<Def>(x, s.layout().processes, m), off_cache{},
                                  s.send_pool(), s.recv_pool()),
            context, Def::request_maker(context, m));
    else {
        mpi::buffer_layout layout = layout_under<Def>(x, s.layout().processes, m);
        layout.send_bytes *= spread;
        layout.recv_bytes *= spread;
        if (cache.enabled && m.messages_at_cache_offsets()) {
            // IMB 2021's s_len and r_len: the buffers of a length of max(X, sizeof(assign_type))
            // (helper_IMB_functions.h:401, 420-470). A definition whose buffers are not IMB's
            // (Exchange's receive slot: two messages, IMB's r_len X) names IMB's lengths.
            const std::size_t len = std::max(x, assign_type_bytes);
            const mpi::buffer_layout lengths = [&] {
                if constexpr (requires { Def::imb2021_buffer_lengths(len, 1); })
                    return Def::imb2021_buffer_lengths(len, s.layout().processes);
                else
                    return layout_under<Def>(len, s.layout().processes, m);
            }();
            return imb2021_message_resource(s, layout, lengths, cache, spread, n_sample);
        }
        return mpi::message_resource(layout, cache, s.send_pool(), s.recv_pool());
    }
}

// The completion a definition names (none for message passing).
template <class Def>
[[nodiscard]] auto make_completion(const mpi::kernel_context& context) {
    if constexpr (requires { Def::make_completion(context); })
        return Def::make_completion(context);
    else if constexpr (requires { typename Def::completion; })
        return typename Def::completion{};
    else
        return mpi::no_completion{};
}

// After one size on files: every process of the run agrees on whether an MPI-IO call failed
// (mpi/file_errors.hpp; an unwritable directory, ENOSPC, a read-only file system), and a failure
// throws an input_error naming the benchmark, the size, the directory of `path` and MPI's reason:
// every process leaves the run together (no abort), one line on rank 0. The records so far are
// already with the host.
void stop_on_file_failure(const mpi::session& s, std::string_view name, std::uint64_t bytes,
                          const std::string& path);

// Disjoint window sections an aggregate timing needs: one per transfer of the largest count the
// volume rule allows (never more than OVERALL_VOL bytes, also with -iter_policy off).
[[nodiscard]] std::uint64_t aggregate_sections(const policy::iterations::imb_volume& iterations,
                                               std::uint64_t x);
// The window sections of one size of a one-sided timing in `aggregate` mode or not: IMB 2021's
// cache offsets under -off_cache (methodology::one_sided_at_cache_offsets) from its buffer
// length `lengths` x max(X, 4) (transfer_def::imb2021_lengths), else the aggregate timing's
// disjoint sections (methodology::aggregate_transfers_to_disjoint_sections, and the guide with
// -off_cache), else one location.
[[nodiscard]] target_sections one_sided_sections(const options& o,
                                                 const policy::iterations::imb_volume& iterations,
                                                 std::uint64_t x, bool aggregate,
                                                 std::uint64_t lengths = 1);

// What a definition's family does outside its timing, the same for every definition (compiled
// once, in driver.cpp; family<Def> below passes what it knows of the definition):
//
// The repetition rule of one size of pass `pass_index`: the run's, under the methodology's rules
// for a `rooted` pattern, on `files` or not, at `processes`; starts the pass's repetition chain
// and block budget at this size where the methodology has them (c.repetitions[P], c.budgets[P]).
[[nodiscard]] policy::iterations::imb_volume size_iterations(
    const options& o, bool rooted, bool files, int processes, std::uint64_t x,
    policy::iterations::imb_repetition_chain& chain, policy::iterations::imb_block_budget& budget);
// IMB 2021's -msg_pause after a size that started at `start` (MPI_Wtime): a barrier, then as long
// a sleep as the size took here.
void pause_after_size(double start);
// The session of a count, with the methodology's root rule.
[[nodiscard]] mpi::session open_session(const run_state& run, const selection& selected, int q);
// The labels of one size's records.
[[nodiscard]] mpi::record_labels labels_of(const run_state& run, const selection& selected,
                                           std::string_view name, bool has_bytes,
                                           std::string_view mode);
// Where one size's files go (make_resource's site): see family::measure_as. `block_file`: the
// pass's file kept across its sizes (IMB-IO under IMB 2021), or nullptr.
[[nodiscard]] mpi::file_site file_site_of(const run_state& run, const selection& selected,
                                          const mpi::session& session,
                                          const policy::iterations::imb_volume& iterations,
                                          std::uint64_t x, bool aggregate, bool rooted,
                                          mpi::kept_file* block_file,
                                          std::uint64_t largest_length);
// Hands one record to the host (family::publish); counts the calls window sync dropped.
void publish_record(const run_state& run, bool timed_out, std::uint64_t& dropped_calls,
                    std::uint64_t& timed_calls, const result_record& r);
// Rank 0's warnings after one count (family::close).
void close_count(const run_state& run, std::string_view name, int processes, bool timed_out,
                 std::uint64_t dropped_calls, std::uint64_t timed_calls,
                 const mpi::size_notes& notes);

// One size: mpi::measure(), or the definition's own composition of the phases where it combines
// several timings into one record (IMB-RMA's Truly_passive_put; IMB-NBC's overlap, which takes
// the methodology's rules).
template <class Def, class Config>
[[nodiscard]] mpi::measurement measure_size(const mpi::session& s, Config&& config,
                                            const methodology& m,
                                            mpi::imb_cpu_work* cpu_work = nullptr) {
    // IMB-IO's I-flavours and IMB-NBC's/IMB-MPI4's overlap benchmarks also take the run's CPU
    // work (IMB 2021: its rate probed once per run).
    if constexpr (requires { Def::measure(s, std::forward<Config>(config), m, cpu_work); })
        return Def::measure(s, std::forward<Config>(config), m, cpu_work);
    else if constexpr (requires { Def::measure(s, std::forward<Config>(config), m); })
        return Def::measure(s, std::forward<Config>(config), m);
    else if constexpr (requires { Def::measure(s, std::forward<Config>(config)); })
        return Def::measure(s, std::forward<Config>(config));
    else
        return mpi::measure(s, std::forward<Config>(config));
}

// IMB's family for mpi::sweep(): IMB's process counts (-npmin doubling, or the pair of a
// two-process pattern), its lengths, one pass per mode (every size in aggregate mode, then every
// size in non-aggregate mode for IMB-EXT/RMA/IO, non-aggregate first for IMB-RMA under IMB 2021;
// one pass without a mode for IMB-MPI1), IMB's
// warm-up once per count, and rank 0's warnings after each count.
template <class Def>
struct family {
    const run_state& run;
    const selection& selected;
    std::string_view name;

    static constexpr mpi::definition_traits traits = Def::traits;
    // Passes are labelled with their mode only where the benchmark runs in both (IMB prints no
    // MODE line for Window).
    static constexpr std::size_t passes = traits.modes == mpi::run_modes::both ? 2 : 1;

    struct count {
        mpi::session session;
        int processes = 0;
        std::uint64_t dropped_calls = 0;  // -start_sync window: calls started late, over all sizes
        std::uint64_t timed_calls = 0;
        // IMB 2021's repetition chain of each pass (a block: this count, one mode), used under
        // the dynamic policy (methodology::chains_repetitions_across_sizes).
        std::array<policy::iterations::imb_repetition_chain, passes> repetitions{};
        // IMB 2021's -time budget of each pass (methodology::budgets_time_per_block), and whether
        // a size ran out of it, or was over -mem under it: that size's rows are time-out rows
        // (out-of-mem. rows) and the benchmark ends there (every process agrees:
        // mpi::end_of_size).
        std::array<policy::iterations::imb_block_budget, passes> budgets{};
        bool timed_out = false;
        // IMB-IO under IMB 2021: each pass's file (a block's: this count, one mode), made at
        // the pass's first size and kept across its sizes (methodology::io_file_per_block).
        std::array<mpi::kept_file, passes> io_files{};
    };

    [[nodiscard]] std::vector<int> process_counts() const {
        const auto& descriptor = Def::descriptor;
        std::vector<int> counts = process_counts_for(
            run, name,
            pattern::fixed_group_size(descriptor) ? pattern::fixed_group_processes(descriptor) : 0,
            pattern::pairing_of(descriptor).kind == pattern::pairing_kind::halves,
            pattern::min_processes(descriptor));
        // A definition the MPI library cannot run at some counts (Def::refusal(q): why, or
        // empty) leaves them out, said once on rank 0.
        if constexpr (requires { Def::refusal(2); }) {
            std::string why;
            std::erase_if(counts, [&](int q) {
                std::string reason = Def::refusal(q);
                if (reason.empty()) return false;
                if (why.empty()) why = std::move(reason);
                return true;
            });
            if (!why.empty()) warn_left_out(run, name, why, counts.empty());
        }
        return counts;
    }

    [[nodiscard]] std::vector<std::uint64_t> sizes() const {
        // IMB 2021: lengths are multiples of the size of the benchmark's datatype (IMB-EXT's:
        // of MPI_FLOAT, whatever the benchmark; methodology::ext_length_unit), and IMB-EXT's
        // -msglog sequence starts at 4 at most (methodology::ext_first_length_cap).
        std::uint64_t unit = traits.unit;
        std::uint64_t first_cap = 0;
        if (run.opts->ext_lengths) {
            unit = std::max(unit, run.opts->method.ext_length_unit());
            first_cap = run.opts->method.ext_first_length_cap();
        }
        if constexpr (typed_definition<Def>)
            if (run.datatypes != nullptr) unit = run.datatypes->unit(traits.reduction);
        return traits.fixed_bytes > 0 ? std::vector<std::uint64_t>{traits.fixed_bytes}
               : traits.has_bytes     ? lengths_for(*run.opts, unit, first_cap)
                                      : std::vector<std::uint64_t>{0};
    }

    // The largest length of the run, as IMB 2021 sizes its files by it (IMB_init_file.c:203-208:
    // the largest -msglen length, or 2^max_log where there is none or it is 0).
    [[nodiscard]] std::uint64_t largest_length() const {
        std::uint64_t largest = 0;
        for (const std::uint64_t x : sizes()) largest = std::max(largest, x);
        if (largest > 0) return largest;
        return std::uint64_t{1} << std::clamp(run.opts->msglog.max_log, 0, 62);
    }

    [[nodiscard]] count open(int q) const {
        count c{.session = open_session(run, selected, q), .processes = q};
        c.repetitions.fill(policy::iterations::imb_repetition_chain(
            run.opts->iterations.msgs_per_sample, !run.opts->msglen.empty()));
        if (run.opts->method.budgets_time_per_block())
            c.budgets.fill(policy::iterations::imb_block_budget(block_time_limit_s(*run.opts)));
        return c;
    }

    void progress(const count& c, std::uint64_t x) const {
        run.host->progress(name, x, c.processes);
    }

    void warm_up(const count& c, std::uint64_t /*x*/) const {
        const options& o = *run.opts;
        if (!traits.warm_up || !o.warm_up) return;  // -warm_up off: none
        const auto pairs = pattern::pairing_of(Def::descriptor);
        const std::size_t small = traits.has_bytes ? 4 : 0;
        const mpi::kernel_context warm = c.session.context(small, pairs);
        const size_datatypes<Def> warm_types(run, small);
        // No -off_cache rotation: the warm-up is about connections, not caches.
        mpi::warm_up(c.session,
                     make_resource<Def>(c.session, off_cache{}, small, warm, o.method, {}, {},
                                        warm_types.spread()),
                     warm_types.kernel(warm), make_completion<Def>(warm),
                     std::min(mpi::n_warmup, o.iterations.msgs_per_sample), small, pairs);
    }

    template <std::size_t P>
    [[nodiscard]] mpi::measurement measure(count& c, std::uint64_t x,
                                           mpi::sweep_pass<P> /*pass*/) const {
        const options& o = *run.opts;
        // A benchmark with both modes: pass 0 is AGGREGATE, pass 1 NON-AGGREGATE, or the other
        // way round where the suite and methodology say so (IMB-RMA under IMB 2021,
        // options::non_aggregate_first). One pass: the definition's mode, without a label.
        const bool aggregate_pass =
            passes == 2 ? (P == 0) != o.non_aggregate_first
                        : traits.modes != mpi::run_modes::non_aggregate;
        const std::string_view mode = passes == 1      ? ""
                                      : aggregate_pass ? "aggregate"
                                                       : "non_aggregate";
        if constexpr (passes == 2) {
            if (!runs_mode(o, aggregate_pass)) return {};  // -aggregate_mode: the other only
        }
        // The repetition rule of this size (size_iterations: the methodology's rules).
        constexpr bool files = requires(const mpi::kernel_context& k, const mpi::file_site& f) {
            Def::file(std::size_t{}, k, f);
        };
        const policy::iterations::imb_volume iterations =
            size_iterations(o, descriptor_under<Def>(o.method).rooted, files, c.processes, x,
                            c.repetitions[P], c.budgets[P]);
        // IMB-IO under IMB 2021: the pass's file, kept across its sizes
        // (methodology::io_file_per_block).
        mpi::kept_file* const kept = o.method.io_file_per_block() ? &c.io_files[P] : nullptr;
        const double start = MPI_Wtime();
        mpi::measurement m = [&] {
            // IMB 2021's RMA transfers to every target: the non-aggregate count of transfers,
            // completed once per sample (imb::methodology::completes_all_targets_once_per_sample).
            if constexpr (requires { Def::completes_once_per_sample_in_imb2021; }) {
                if (Def::completes_once_per_sample_in_imb2021 &&
                    o.method.completes_all_targets_once_per_sample()) {
                    policy::iterations::imb_volume per_sample = iterations;
                    per_sample.msgs_per_sample = per_sample.msgs_nonaggr;
                    return measure_as<policy::aggregation::aggregate>(c, x, mode, per_sample,
                                                                      kept);
                }
            }
            // IMB-IO's Open_Close, which does no file access in IMB's terms, repeats
            // msgs_nonaggr times under IMB 2021 (methodology::io_open_close_counts_msgs_nonaggr).
            if constexpr (requires { Def::repeats_msgs_nonaggr_in_imb2021; }) {
                if (o.method.io_open_close_counts_msgs_nonaggr())
                    return measure_as<policy::aggregation::non_aggregate>(c, x, mode, iterations,
                                                                          kept);
            }
            // IMB-IO's benchmarks with one mode (reads, nonblocking flavours) run in aggregate
            // mode and say so under IMB 2021 (methodology::io_single_mode_is_aggregate).
            if constexpr (passes == 1 && requires { Def::single_mode_follows_methodology; }) {
                if (o.method.io_single_mode_is_aggregate())
                    return measure_as<policy::aggregation::aggregate>(c, x, "aggregate",
                                                                      iterations, kept);
            }
            if constexpr (passes == 2) {
                if (aggregate_pass)
                    return measure_as<policy::aggregation::aggregate>(c, x, mode, iterations,
                                                                      kept);
                return measure_as<policy::aggregation::non_aggregate>(c, x, mode, iterations,
                                                                      kept);
            } else if constexpr (traits.modes == mpi::run_modes::non_aggregate) {
                return measure_as<policy::aggregation::non_aggregate>(c, x, mode, iterations,
                                                                      kept);
            } else {
                return measure_as<policy::aggregation::aggregate>(c, x, mode, iterations,
                                                                  kept);
            }
        }();
        c.timed_out = m.timed_out;
        if (o.msg_pause && !m.timed_out) pause_after_size(start);  // IMB 2021's -msg_pause
        return m;
    }

    // One size under an aggregation policy and an IMB repetition rule; `block_file`: the
    // pass's file kept across its sizes (IMB-IO under IMB 2021), or nullptr.
    template <class Aggregation>
    [[nodiscard]] mpi::measurement measure_as(const count& c, std::uint64_t x,
                                              std::string_view mode,
                                              const policy::iterations::imb_volume& iterations,
                                              mpi::kept_file* block_file = nullptr) const {
        const options& o = *run.opts;
        const mpi::session& session = c.session;
        const auto bytes = static_cast<std::size_t>(x);
        const mpi::kernel_context context =
            session.context(bytes, pattern::pairing_of(Def::descriptor));
        const size_datatypes<Def> types(run, bytes);
        // Where the transfers go in a window (one_sided_sections).
        const target_sections sections = [&] {
            if constexpr (requires { Def::imb2021_lengths; })
                return one_sided_sections(o, iterations, x, Aggregation::is_aggregate,
                                          Def::imb2021_lengths);
            else
                return one_sided_sections(o, iterations, x, Aggregation::is_aggregate);
        }();
        // Files: where they go and how large (file_site_of); other resources take no site.
        mpi::file_site site;
        if constexpr (requires(const mpi::file_site& f) { Def::file(bytes, context, f); })
            site = file_site_of(run, selected, session, iterations, x, Aggregation::is_aggregate,
                                descriptor_under<Def>(o.method).rooted, block_file,
                                largest_length());
        auto resource =
            make_resource<Def>(session, o.cache, bytes, context, o.method, sections, site,
                               types.spread(),
                               iterations.n_sample(x, Aggregation::is_aggregate));
        std::string path;  // a file's, for the message of a failed MPI-IO call
        if constexpr (requires { resource.plan().path; }) path = resource.plan().path;
        const mpi::record_labels labels = labels_of(run, selected, name, traits.has_bytes, mode);
        using size_plan = mpi::timing_plan<policy::iterations::confidence,
                                           decltype(sync_for<Def>(o)), Aggregation>;
        mpi::measurement m = measure_size<Def>(
            session,
            mpi::measure_config{
                .pattern = descriptor_under<Def>(o.method),
                .labels = labels,
                .bytes = x,
                .resource = std::move(resource),
                .kernel = types.kernel(context),
                .completion = make_completion<Def>(context),
                .plan = size_plan{.iterations = {.base = iterations,
                                                 .target = o.confidence,
                                                 .stop_when_futile = o.confidence_futile_stop},
                                  .sync = sync_for<Def>(o),
                                  .mem_limit_bytes = run.mem_limit_bytes,
                                  .check = o.check,
                                  .aggregate_repeats_budget_s =
                                      o.method.aggregate_repeats_budget_s()},
                .check = types.check()},
            o.method, run.cpu_work);
        // Files: the measurement's were closed and deleted by its resource; every process
        // agrees on whether an MPI-IO call failed, and a failure ends the run.
        if constexpr (requires { Def::file(x, context, site); })
            stop_on_file_failure(session, name, x, path);
        // A size past IMB 2021's -time budget, or over -mem under it: its rows say where it
        // would have been (and, over -mem, what it needed: IMB's "out-of-mem." row).
        if (m.timed_out) {
            m.records = mpi::time_out_records(session, descriptor_under<Def>(o.method), labels, x);
            if (m.skipped_need_bytes > 0)
                for (result_record& r : m.records) r.over_memory_need_bytes = m.skipped_need_bytes;
        }
        if (m.skipped_storage) warn_storage(run, name, c.processes, x, *m.skipped_storage);
        return m;
    }

    void publish(count& c, const result_record& r) const {
        publish_record(run, c.timed_out, c.dropped_calls, c.timed_calls, r);
    }

    // A size ran out of IMB 2021's -time budget: the benchmark ends there (its remaining sizes,
    // its other mode, its larger process counts; original_benchmark.h:140-141).
    [[nodiscard]] bool ended(const count& c) const { return c.timed_out; }

    void close(count& c, const mpi::size_notes& notes) const {
        // IMB-IO under IMB 2021: each pass's file goes with its block. (A write benchmark's
        // two passes use one path: the second pass's first size removed the first's file as a
        // stale one, as IMB_init_file does at a block's start, IMB_init_file.c:195, 298-328; the
        // path is unlinked once.)
        mpi::remove_kept_files(c.io_files);
        close_count(run, name, c.processes, c.timed_out, c.dropped_calls, c.timed_calls, notes);
    }
};

template <class Def>
void run_benchmark(const run_state& st, const selection& sel, std::string_view name) {
    static_assert(mpi::check_definition<Def>() && mpi::self_contained_definition<Def>);
    mpi::sweep(family<Def>{.run = st, .selected = sel, .name = name});
}

// The catalogue entry of a definition: the suite's name, description and flags for it; its
// class, columns and run from the definition.
template <class Def>
    requires(mpi::check_definition<Def>())
[[nodiscard]] constexpr benchmark entry(const char* name, const char* description,
                                        std::uint32_t flags) {
    std::span<const table_column> (*columns_under)(const methodology&) = nullptr;
    if constexpr (requires(const methodology& m) { Def::columns_under(m); })
        columns_under = &Def::columns_under;
    return {mpi::catalogue_row<Def>(name, description, flags), &run_benchmark<Def>,
            Def::traits.columns, columns_under};
}

}  // namespace parbench::imb
