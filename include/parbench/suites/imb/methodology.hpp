// The IMB methodology of a run: IMB 2021.11's methods (the default of the suites that have them)
// or the IMB 4.0 guide's, as parbench measured before issue 22. Every rule that differs between
// the two is answered here, in one place; the imb family (plugins/mpi/imb/driver.hpp) and the
// definitions that depend on a rule (suites/imb/mpi1.hpp) ask this type and never the
// methodology's name. docs/methodology.md has the table of the differences with their source
// lines. No MPI here.
#pragma once

#include <parbench/core/error.hpp>
#include <parbench/core/text.hpp>
#include <parbench/pattern/io_action.hpp>
#include <parbench/policy/cpu_load.hpp>
#include <parbench/report/overlap.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace parbench::imb {

enum class methodology_name { imb2021, imb40 };

// sizeof(assign_type), 4 in every IMB 2021 component (`float` in IMB-MPI1, -EXT, -RMA, -NBC:
// IMB_settings.h:142-149; `int` in IMB-IO: IMB_settings_io.h:142): the least length of IMB's
// buffers (their -off_cache offsets, imb2021_cache_offsets), the unit an IMB-IO portion is split
// in (methodology::io_portion_split) and of the room a private file gets (imb_io's
// imb2021_block_file_bytes).
inline constexpr std::size_t assign_type_bytes = 4;

[[nodiscard]] constexpr std::string_view to_string(methodology_name m) noexcept {
    return m == methodology_name::imb40 ? "4.0" : "2021";
}

// IMB 2021's overlap[%] (IMB_output.c:319, IMB-NBC and IMB-MPI4): the hidden time over the
// *longer* of t_pure and t_CPU, 100 · max(0, min(1, (t_pure + t_CPU − t_ovrl) / max(t_pure,
// t_CPU))); 0 when both are 0 (nothing to hide, never a division by zero). The IMB 4.0 guide
// divides by the shorter (parbench::overlap_percent, report/overlap.hpp).
[[nodiscard]] inline double overlap_percent_of_longer(double t_ovrl, double t_pure,
                                                      double t_cpu) noexcept {
    const double longer = std::max(t_pure, t_cpu);
    if (!(longer > 0.0) || !std::isfinite(t_ovrl) || !std::isfinite(t_pure + t_cpu)) return 0.0;
    return 100.0 * std::clamp((t_pure + t_cpu - t_ovrl) / longer, 0.0, 1.0);
}

struct methodology {
    methodology_name name = methodology_name::imb2021;
    // IMB 2021's switches (MPI1_suite.cpp:173, 305-323); under 4.0 the guide's fixed rules apply
    // and the options are refused (plugins/mpi/imb/options.hpp).
    bool sync = true;          // -sync on: a barrier after every timed collective call
    bool root_shift = false;   // -root_shift off: the root stays at rank 0
    bool imb_barrier = false;  // -imb_barrier on: IMB's dissemination barrier for every barrier
    int window_size = 256;     // -window_size: Uniband/Biband messages per window
    // -aggregate_ci always: every aggregate sample timed min_ci_samples times, as under 4.0
    // (aggregate_repeats_budget_s); parbench's own option, affordable by default.
    bool aggregate_ci_always = false;
    // What `affordable` allows a size's aggregate repeats under 2021: 5 ms (IMB-EXT, IMB-RMA), or
    // none (IMB-IO: a repeated write epoch finds a file the first epoch has changed, and the
    // repeats made the default run longer than IMB-IO's; suite_defaults sets it).
    double affordable_repeats_s = 0.005;

    [[nodiscard]] constexpr bool is_2021() const noexcept {
        return name == methodology_name::imb2021;
    }
    // What the header and the JSON context call it.
    [[nodiscard]] constexpr std::string_view label() const noexcept {
        return is_2021() ? "IMB 2021.11" : "IMB 4.0";
    }

    // Bytes in one "Mbyte" of the Mbytes/sec column: 10^6 (IMB 2021 IMB_output.c, MEGA) or 2^20.
    [[nodiscard]] constexpr double mbyte_bytes() const noexcept {
        return is_2021() ? 1e6 : 1048576.0;
    }
    // Mbytes/sec of `bytes` moved in `t_us` microseconds (the throughput factor already applied).
    [[nodiscard]] constexpr double mbytes_per_s(double bytes, double t_us) const noexcept {
        return t_us > 0.0 ? bytes / (t_us * 1e-6) / mbyte_bytes() : 0.0;
    }

    // Whether a benchmark's calls are timed one by one (t1, call, t2 summed; barriers after each
    // under -sync on: IMB 2021's collectives with data, IMB_bcast.c:138-152) rather than as one
    // batched loop (IMB 4.0; IMB 2021's Barrier, IMB_barrier.c:114-119, and point-to-point).
    [[nodiscard]] constexpr bool times_each_call(bool collective, bool has_bytes) const noexcept {
        return is_2021() && collective && has_bytes;
    }
    // Barriers after each call timed on its own.
    [[nodiscard]] constexpr int barriers_after_call() const noexcept { return sync ? 1 : 0; }

    // Rooted collectives: the root of call i is i % np (IMB 4.0, IMB 2021 -root_shift on) or 0.
    [[nodiscard]] constexpr bool rotates_root() const noexcept { return !is_2021() || root_shift; }

    // PingPong/PingPing (the names without a suffix) receive from the partner's rank (IMB 2021,
    // MPI1_benchmark.cpp:64-70 SELECT_SOURCE) or from MPI_ANY_SOURCE (IMB 4.0).
    [[nodiscard]] constexpr bool explicit_source() const noexcept { return is_2021(); }

    // Uniband/Biband: messages per window and the bytes of the acknowledgement that closes it
    // (IMB 2021 IMB_bandwidth.c:136-160: -window_size, default 256, a 1-byte MPI_CHAR ack;
    // IMB 4.0: 64 and an empty message).
    [[nodiscard]] constexpr int window() const noexcept { return is_2021() ? window_size : 64; }
    [[nodiscard]] constexpr int ack_bytes() const noexcept { return is_2021() ? 1 : 0; }

    // IMB-RMA's transfers to every target (One_put_all, One_get_all, Put_all_local,
    // Get_all_local, All_put_all, All_get_all): IMB 2021 issues every transfer of a sample and
    // completes them with one MPI_Win_flush_all / MPI_Win_flush_local_all (IMB_rma_put.c:169-183,
    // 276-291; IMB_rma_get.c:175-190, 300-315), with the non-aggregate repetition count (their
    // NON_AGGREGATE flag, RMA_benchmark.cpp:135-211, selects msgs_nonaggr at
    // IMB_mem_manager.c:544) and no MODE line; IMB 4.0 completes every iteration.
    [[nodiscard]] constexpr bool completes_all_targets_once_per_sample() const noexcept {
        return is_2021();
    }

    // How often an aggregate sample (one epoch of M transfers, one completion: IMB-EXT's and
    // IMB-RMA's AGGREGATE blocks, IMB-IO's aggregate modes) is timed. IMB 2021 times it once per
    // size (IMB_ones_unidir.c, IMB_rma_put.c, IMB_write.c: one timed loop of M transfers and one
    // completion; IMB 4.0 the same); parbench times it min_ci_samples times for its row's
    // confidence interval, which made the default imb-ext run take 3.0 x IMB-EXT 2021's wall time
    // and imb-rma 1.75 x IMB-RMA's. Under 2021 the epochs after the first share this budget per
    // size (policy::aggregation::epochs_within): all six where an epoch is short (1 ms at
    // most), one where it is longer, as IMB; IMB-IO's budget is none, its every epoch timed once
    // (affordable_repeats_s). Under 4.0 and -aggregate_ci always, always six.
    [[nodiscard]] constexpr double aggregate_repeats_budget_s() const noexcept {
        return is_2021() && !aggregate_ci_always ? affordable_repeats_s
                                                 : std::numeric_limits<double>::infinity();
    }

    // The repetitions of a sample under -iter_policy off: IMB 2021 gives every mode
    // msgspersample, non-aggregate samples and the RMA transfers to every target included
    // (`ITERATIONS->n_sample = x_sample = ITERATIONS->msgspersample;`,
    // src_cpp/helpers/helper_IMB_functions.h:407-408, after x_sample was chosen by the mode at
    // :393-398); the 4.0 rule keeps MSGS_NONAGGR for the non-aggregate ones.
    [[nodiscard]] constexpr bool off_policy_counts_msgs_per_sample() const noexcept {
        return is_2021();
    }

    // The warm-up under -iter_policy off: IMB 2021 skips the dynamic calibration and runs the
    // benchmark once with the whole count (msgspersample), untimed, before the timed run
    // (src_cpp/helpers/helper_IMB_functions.h:690-694, the `else` of :590), without rewinding an
    // IMB-IO file; the warm-up is that run (imb_volume::imb2021_untimed_run). The 4.0 rule:
    // parbench's warm-up of max(n / 20, 3).
    [[nodiscard]] constexpr bool off_policy_runs_count_untimed() const noexcept {
        return is_2021();
    }

    // The repetitions of a non-aggregate sample under the dynamic policy (`dynamic`, or `auto`
    // for a benchmark without a root): IMB 2021 starts every mode's chain of sizes at
    // `ITERATIONS->n_sample_prev = ITERATIONS->msgspersample` and takes
    // `min(selected_n_sample, min(n_sample_prev, t_sample))`
    // (src_cpp/helpers/helper_IMB_functions.h:595-596, 672-673), so msgspersample caps
    // msgs_nonaggr (`-iter 10` gives 10, not 100). That branch is taken only where the lengths
    // are IMB's sequence: with -msglen or -msgsize (`c_info->n_lens > 0`, :662-670) no cap
    // applies. The 4.0 rule keeps MSGS_NONAGGR.
    [[nodiscard]] constexpr bool dynamic_policy_caps_non_aggregate() const noexcept {
        return is_2021();
    }

    // The count of every size under the dynamic policy: IMB 2021's time cap (int)(1 + secs / t)
    // and its chain across the sizes of one block (one process count, one mode): never more
    // than the previous size's count with IMB's length sequence, adjusted against every earlier
    // length of a -msglen/-msgsize list (src_cpp/helpers/helper_IMB_functions.h:595-596,
    // 655-673, 699; policy/imb_repetition_chain.hpp). The 4.0 rule decides each size on its
    // own: min(selected, floor(secs / t)).
    [[nodiscard]] constexpr bool chains_repetitions_across_sizes() const noexcept {
        return is_2021();
    }

    // The count under -iter_policy multiple_np, and auto for a benchmark with a root (Bcast,
    // Reduce, Gather, Scatter and their forms): IMB 2021's hyperbola in X on the run's largest
    // length, max(tmp - tmp mod np, np) with tmp = (int)(msgspersample * 2^max_log /
    // (np * max(X, 4) + 2^max_log) + 0.5), no volume rule and no -time cap
    // (src_cpp/helpers/helper_IMB_functions.h:409-421; the dynamic code skipped, :590;
    // imb_volume::imb2021_multiple_np_count). The 4.0 rule: the volume rule and the -time cap,
    // rounded down to a multiple of np (at least np).
    [[nodiscard]] constexpr bool multiple_np_follows_hyperbola() const noexcept {
        return is_2021();
    }

    // -time is also a wall-clock budget per block (one process count, one mode) of
    // max(max(n_lens, max_log - min_log) - 1, 1) * secs: a size whose probe ends past it is not
    // timed, prints "time-out." and ends its benchmark (helper_IMB_functions.h:755-789,
    // original_benchmark.h:140-141, 163-175, 192-203; IMB_output.c:360-386;
    // policy/imb_block_budget.hpp). The 4.0 rule: -time caps each size's repetitions only.
    [[nodiscard]] constexpr bool budgets_time_per_block() const noexcept { return is_2021(); }

    // Where the transfers of an aggregate one-sided timing (IMB-EXT, IMB-RMA, and the RMA
    // transfers to every target) land in the target window: M disjoint sections (the IMB 4.0
    // guide, "M-fold ... disjoint") or, under IMB 2021, all at displacement
    // `i % r_cache_iter * r_offs`, which is 0 for every i without -off_cache (IMB_init.c:312-313;
    // IMB_ones_unidir.c:545-547, Bidir's through the same kernels, IMB_ones_bidir.c:136, 208;
    // IMB_ones_accu.c:230-232; IMB_rma_put.c:112-114, 176-178; IMB_rma_get.c:114-116, 183-185;
    // IMB_rma_atomic.c:100). With -off_cache: one_sided_at_cache_offsets under 2021, the
    // disjoint sections under 4.0.
    [[nodiscard]] constexpr bool aggregate_transfers_to_disjoint_sections() const noexcept {
        return !is_2021();
    }
    // -off_cache on IMB-EXT and IMB-RMA: IMB 2021 moves both ends of transfer i of every mode
    // (aggregate and non-aggregate) by its cache offsets: the origin buffer by
    // `i % s_cache_iter * s_offs`, the target displacement by `i % r_cache_iter * r_offs`
    // (IMB_ones_unidir.c:456-458, 545-547; IMB_rma_put.c:102-114, 176-178, 347, 411; the Gets
    // address the window by s_*, IMB_ones_unidir.c:292-294; IMB_rma_get.c:104-116), the offsets
    // imb2021_cache_offsets' (helper_IMB_functions.h:493-512). Under the guide the aggregate
    // timing's disjoint sections, the non-aggregate one at displacement 0, as without it.
    [[nodiscard]] constexpr bool one_sided_at_cache_offsets() const noexcept { return is_2021(); }
    // Where 2^MAX is below a benchmark's unit (a float reduction at -msglog ..:0 or ..:1), IMB
    // 2021's length loop clips its first length to MAXMSG = 0 and runs 0 bytes also under
    // -zero_size off (src_cpp/helpers/helper_IMB_functions.h:306-322, 756); the 4.0 rule as
    // parbench had it runs nothing there.
    [[nodiscard]] constexpr bool runs_zero_length_below_unit() const noexcept { return is_2021(); }
    // -off_cache on message buffers (IMB-MPI1, IMB-NBC): IMB 2021 addresses message i at
    // i % s_cache_iter * s_offs of the send buffer and i % r_cache_iter * r_offs of the receive
    // buffer (IMB_pingpong.c:145-172, IMB_allreduce.c:134-135, ...), imb2021_cache_offsets' from
    // its s_len and r_len at max(X, 4) (helper_IMB_functions.h:420-470, 493-523). The 4.0 rule:
    // the catalogue's (A.4), each message at least two cache lines after the end of the last one
    // in a region of 2 * max(cache, X), wrapping (core/buffers.hpp, message_rotation).
    [[nodiscard]] constexpr bool messages_at_cache_offsets() const noexcept { return is_2021(); }
    // Where several origins address one target (IMB-RMA's All_put_all, All_get_all,
    // Exchange_put, Exchange_get): IMB 2021 addresses every origin's transfer i at the same
    // displacement i % r_cache_iter * r_offs (IMB_rma_put.c:176-178, IMB_rma_get.c:183-185), and
    // Exchange_*'s two neighbours side by side, the one towards the left at it and the other X
    // further, its offsets taken from 2X (IMB_rma_put.c:345-352, IMB_rma_get.c:369-377,
    // SENDBUF_SIZE_2I / RECVBUF_SIZE_2I, src_cpp/RMA/RMA_benchmark.cpp:219-232). The 4.0 rule as
    // parbench has it: a region of the window per origin (mpi/rma_window.hpp).
    [[nodiscard]] constexpr bool one_sided_origins_share_target() const noexcept {
        return is_2021();
    }

    // IMB-EXT's Window puts its byte into the calling process's own window (IMB 2021,
    // `MPI_Put(..., c_info->rank, ...)`, IMB_window.c:108-109); the 4.0 rule as parbench had it
    // puts into the right neighbour's.
    [[nodiscard]] constexpr bool window_puts_to_self() const noexcept { return is_2021(); }

    // The order of the two modes of IMB-RMA's benchmarks that have both (Unidir_put, Unidir_get,
    // Bidir_put, Bidir_get, Put_local, Get_local, Accumulate, Get_accumulate, Fetch_and_op,
    // Compare_and_swap): IMB 2021 runs NON-AGGREGATE first, its RUN_MODES[0] being AGGREGATE = 0
    // under RMA and 1 elsewhere (src_cpp/helpers/helper_IMB_functions.h:176-182), and sweeps the
    // modes in that order for each process count (src_cpp/scope.h:130-136). IMB-EXT and IMB-IO
    // keep AGGREGATE first, as the IMB 4.0 guide has it for all three.
    [[nodiscard]] constexpr bool rma_runs_non_aggregate_first() const noexcept {
        return is_2021();
    }

    // Reduce_scatter (IMB-MPI1), Ireduce_scatter (IMB-NBC) and Reduce_scatter_persist
    // (IMB-MPI4), and their _pure forms: IMB 2021 gives every process X / size(type) elements,
    // `c_info->reccnt[i] = size / s_size` for all i (src_c/IMB_reduce_scatter.c:148-150,
    // 208-210, 294-295, 359-361, 428-430; the split at :126-146 is compiled only by the old
    // src_c/Makefile's -DIMB2018, which no 2021 executable is built with), so np·X bytes are
    // reduced (SENDBUF_SIZE_NP_I, RECVBUF_SIZE_I: src_cpp/MPI1/MPI1_benchmark.cpp:198-199) and
    // process k receives elements [k·E, (k+1)·E), E = X / size(type). The IMB 4.0 guide splits
    // X: L = r·np + s elements, process k receiving r + 1 of them if k < s, else r.
    [[nodiscard]] constexpr bool reduce_scatter_whole_x_each() const noexcept { return is_2021(); }

    // Truly_passive_put's columns: t_pure, then t_ovrl (IMB 2021, IMB_output.c:423) or t_ovrl
    // first (the IMB 4.0 guide's table, catalogue A.7).
    [[nodiscard]] constexpr bool pure_before_overlapped() const noexcept { return is_2021(); }
    // Truly_passive_put's iteration ends with a barrier of origin and target in both timings:
    // the origin's put, MPI_Win_flush, MPI_Barrier; the target's work (none in t_pure), then
    // MPI_Barrier (IMB 2021 IMB_put_origin and IMB_put_target, IMB_rma_put.c:388-415). The IMB
    // 4.0 guide: the put and its flush; the target computes as long as one took.
    [[nodiscard]] constexpr bool passive_put_barrier_per_iteration() const noexcept {
        return is_2021();
    }
    // The order n of the n x n single-precision matrix-vector pass of IMB's CPU work, wherever
    // it runs (IMB-NBC's and IMB-MPI4's overlap, IMB-IO's I-flavours, Truly_passive_put's
    // target): IMB 2021 has one IMB_cpu_exploit for all of them, `#define SIZE 10`
    // (IMB_cpu_exploit.c:88); under the guide parbench's 100 (policy::cpu_load::matrix_order),
    // which only IMB-NBC, IMB-MPI4 and IMB-IO read there (Truly_passive_put spins on the clock).
    [[nodiscard]] constexpr std::size_t cpu_exploit_order() const noexcept {
        return is_2021() ? policy::cpu_load::imb2021_matrix_order : policy::cpu_load::matrix_order;
    }
    // Truly_passive_put's target work in t_ovrl: IMB 2021's CPU work (mpi/imb_cpu_work.hpp), the
    // target's own probe and IMB_cpu_exploit(t_pure, 1) with the origin's t_pure
    // (IMB_rma_put.c:466-474): max(1, (int)(t_pure x its passes a second)) passes of the 10x10
    // pass, run before each barrier (IMB_put_target, :388-399). The IMB 4.0 guide: the target
    // computes for about t_pure, which parbench does by spinning on the clock for that time.
    [[nodiscard]] constexpr bool passive_put_work_like_imb() const noexcept { return is_2021(); }

    // IMB-EXT's lengths are multiples of sizeof(MPI_FLOAT) for every benchmark (IMB 2021: the
    // unit is the size of red_data_type under EXT, helper_IMB_functions.h:743-744, applied at
    // :308 and :322; lengths 1 and 2 become 4); the IMB 4.0 guide keeps 1-byte lengths.
    [[nodiscard]] constexpr std::uint64_t ext_length_unit() const noexcept {
        return is_2021() ? 4 : 1;
    }
    // IMB-EXT's first non-zero length of -msglog's sequence: IMB 2021 caps it at
    // sizeof(assign_type) = 4 under EXT (helper_IMB_functions.h:308-311; EXT/Makefile.EXT.mk:36
    // defines EXT, RMA/Makefile.RMA.mk:35 only RMA: not IMB-RMA), then doubles it up to 2^MAX
    // (:313), so -msglog 10:12 runs 4, 8, ..., 4096 (each at most MAXMSG, 2^MAX rounded down to
    // the unit, :319-322, 756: -msglog 0:1 runs 0 alone). A -msglen or -msgsize list is taken as given
    // (n_lens > 0: msglen[iter], :298-299). 0: no cap, the sequence from 2^MIN (the guide).
    [[nodiscard]] constexpr std::uint64_t ext_first_length_cap() const noexcept {
        return is_2021() ? 4 : 0;
    }

    // IMB-NBC's t_CPU: the CPU load timed around its call inside t_ovrl's loop (IMB 2021:
    // `t_comp -= MPI_Wtime(); IMB_cpu_exploit(t_pure, 0); t_comp += MPI_Wtime();`,
    // IMB_reduce.c:206-208, the same in every IMB-NBC kernel) or by a timing of the work alone
    // (IMB 4.0 guide, catalogue A.6.11).
    [[nodiscard]] constexpr bool times_cpu_inside_overlap() const noexcept { return is_2021(); }
    // How the CPU work of IMB-NBC's overlap benchmarks (and IMB-MPI4's persistent forms, the
    // same code) is set: IMB 2021's IMB_cpu_exploit, its rate probed once per run by each
    // process on its own (only while MFlops < 0, IMB_cpu_exploit.c:98-118), the work of each
    // size max(1, (int)(t_pure x passes a second)) passes from the process's own t_pure
    // (IMB_cpu_exploit(t_pure, 1) after the t_pure loop, IMB_reduce.c:188-191, :314-317;
    // IMB_cpu_exploit.c:120-122), run once untimed, then in each overlapped iteration
    // (IMB_reduce.c:207, :337); or the guide as parbench has it: calibrated collectively per size
    // to the largest t_pure, the same work on every process (mpi::calibrate).
    [[nodiscard]] constexpr bool nbc_calibrates_once_per_run() const noexcept { return is_2021(); }
    // IMB-NBC's Ireduce: IMB 2021's overlapped loop passes `i % num_procs` as the root whatever
    // -root_shift (IMB_reduce.c:197-204, root at :202; its `root` variable is advanced at :219
    // and never read), while t_pure's loop takes the root rule (root 0 under -root_shift off,
    // IMB_ireduce_pure, :262-280). Igather, Igatherv, Iscatter, Iscatterv and Ibcast pass their
    // rule's root in both loops (IMB_gather.c:220, :317; IMB_gatherv.c:224, :327;
    // IMB_scatter.c:220, :313; IMB_scatterv.c:226, :324; IMB_bcast.c:232, :332), and IMB-MPI4's
    // Reduce_persist makes both requests with root 0 (`i % num_procs` at i = 0,
    // IMB_reduce.c:322-330). The guide: one root rule for both timings.
    [[nodiscard]] constexpr bool ireduce_overlapped_root_round_robin() const noexcept {
        return is_2021();
    }
    // --- IMB-IO (IMB 2021.11: src_cpp/IO/IO_suite.cpp, src_c/IMB_write.c, IMB_read.c,
    // IMB_cpu_exploit.c; IMB 4.0: the guide, catalogue A.3.3, A.6.10) ---------------------------
    // Defaults where the user gave no option: -npmin 1 (IO_suite.cpp:145), -msglog 0:22 (:291),
    // -iter 1000,40,100 (:205; the volume in MiB, :399) under IMB 2021; IMB_settings_io.h's
    // NPmin 2, 0:24, 50, 16 MiB, 10 under the guide.
    [[nodiscard]] constexpr int io_npmin() const noexcept { return is_2021() ? 1 : 2; }
    [[nodiscard]] constexpr int io_max_msglog() const noexcept { return is_2021() ? 22 : 24; }
    [[nodiscard]] constexpr std::uint64_t io_msgs_per_sample() const noexcept {
        return is_2021() ? 1000 : 50;
    }
    [[nodiscard]] constexpr std::uint64_t io_overall_vol_bytes() const noexcept {
        return (is_2021() ? std::uint64_t{40} : std::uint64_t{16}) << 20;
    }
    [[nodiscard]] constexpr std::uint64_t io_msgs_nonaggr() const noexcept {
        return is_2021() ? 100 : 10;
    }
    // The CPU load of one iteration of a nonblocking IMB-IO benchmark: TARGET_CPU_SECS, 0.01 s
    // in IMB 2021 (IMB_settings_io.h:127-131), 0.1 s in the guide.
    [[nodiscard]] constexpr double io_cpu_load_s() const noexcept { return is_2021() ? 0.01 : 0.1; }
    // How a portion is split among the processes of a common file or of private files
    // (pattern::io_rank_block): in units of sizeof(assign_type) = 4 bytes and by the rank in the
    // file's communicator in IMB 2021 (IMB_init_transfer.c:109, IMB_get_rank_portion at
    // IMB_init.c:1030-1075), so at Q = 2 a portion of up to 4 bytes is rank 0's alone on a common
    // file and every private file takes rank 0's block; X/Q bytes each in the guide (A.3.3).
    [[nodiscard]] constexpr pattern::io_split io_portion_split() const noexcept {
        return is_2021() ? pattern::io_split{.unit = assign_type_bytes, .by_file_rank = true}
                         : pattern::io_split{};
    }
    // The nonblocking flavours (S_IWrite_indv ... C_IRead_shared) in the default set (IMB 2021:
    // their DEFAULT flag, IO_benchmark.cpp:81-671), in IMB 2021's order (each blocking benchmark
    // followed by its I-flavour, the writes, then the reads, then Open_Close); under the guide
    // they run by name only.
    [[nodiscard]] constexpr bool io_nonblocking_by_default() const noexcept { return is_2021(); }
    // Benchmarks with one mode (the reads and the nonblocking flavours, N_MODES_1 in
    // IO_benchmark.cpp) run in IMB 2021's mode 0, AGGREGATE (helper_IMB_functions.h:175-181):
    // msgspersample repetitions, a `MODE: AGGREGATE` line, and for the nonblocking writes the
    // assured completion once per sample (IMB_write.c:119, 168, 217 call IMB_iwrite_ij with
    // i_sample 1, j_sample n). The guide runs the nonblocking flavours in non-aggregate mode and
    // prints no MODE line for either.
    [[nodiscard]] constexpr bool io_single_mode_is_aggregate() const noexcept { return is_2021(); }
    // t_CPU of a nonblocking IMB-IO benchmark: IMB 2021's tCPU, `tCPU = 1000000. * (t2-t1)`
    // around ONE run of the calibrated work on the wall clock (IMB_cpu_exploit.c:121-134), a
    // global of each process that IMB_output.c:337 prints as every I-flavour row's t_CPU, world
    // rank 0's (the process that prints); overlap[%] from it by the shorter time
    // (IMB_output.c:338). So t_CPU reads 8.2 or 11.9 ms for a 10 ms target on a loaded machine
    // and is the same in every row of the run (io_calibrates_once_per_run). The guide: a timing
    // of the work alone, per size.
    [[nodiscard]] constexpr bool io_cpu_time_from_calibration() const noexcept {
        return is_2021();
    }
    // How often the CPU work of IMB-IO's I-flavours is calibrated: once per run, before the first
    // benchmark (IMB 2021: IMB_cpu_exploit(TARGET_CPU_SECS, 1) at the first benchmark's first
    // size of a run with nonblocking benchmarks, original_benchmark.h:180-188, its rate probe
    // only while MFlops < 0, IMB_cpu_exploit.c:98; the work then fixed for every benchmark and
    // size, :136-141), each process on its own (no agreement: IMB_cpu_exploit calls no MPI
    // but MPI_Wtime); the guide as parbench had it: collectively, once per size
    // (mpi::calibrate).
    [[nodiscard]] constexpr bool io_calibrates_once_per_run() const noexcept { return is_2021(); }
    // Which process's times an I-flavour row shows: IMB 2021 takes t_pure and t_ovrl each as
    // the largest over the processes (IMB_output.c:335-336: timing[MAX].times[PURE] and
    // [OVRLP], for MPIIO), t_CPU rank 0's tCPU; the guide (as IMB-NBC, IMB_output.c:313-318) all
    // three from the process with the largest t_ovrl.
    [[nodiscard]] constexpr bool io_times_each_their_maximum() const noexcept {
        return is_2021();
    }
    // The probe of each size of an IMB-IO benchmark under the dynamic policy: IMB 2021's
    // calibration runs the benchmark once with one repetition, then, where that took t < 1 s,
    // once more with min(n, rep_test) repetitions, rep_test = MSGSPERSAMPLE where t <
    // 1 / MSGSPERSAMPLE, else (int)(1 / t + 0.5) (src_cpp/helpers/helper_IMB_functions.h:
    // 602-653; MSGSPERSAMPLE is IMB-IO's compiled 50, IMB_settings_io.h:120, not -iter's): 1 +
    // min(n, 50) transfers; its estimate is the second run's time. The returned cap is that
    // MSGSPERSAMPLE (0: parbench's warm-up of max(n / 20, 3) in chunks, as under 4.0).
    [[nodiscard]] constexpr std::uint64_t io_probe_cap() const noexcept {
        return is_2021() ? 50 : 0;
    }

    // Where the timed writes of an aggregate IMB-IO sample start: IMB 2021 times one sample of
    // n writes from offset 0 of the file (opened for the size, IMB_init_transfer.c:183; rewound
    // after each calibration run, helper_IMB_functions.h:613-618, 643-648; the writes,
    // IMB_write.c:297-328), so parbench starts each of its timed epochs there. The rule as
    // parbench had it (4.0): the file pointers run on from the warm-up through the epochs, past
    // the file's preallocated room of 2n portions.
    [[nodiscard]] constexpr bool io_epochs_from_file_start() const noexcept { return is_2021(); }

    // The file IMB-IO's writes find, in both modes: IMB 2021 makes it once per block (process
    // count and mode: IMB_init_file at original_benchmark.h:163-175), sparse, with
    // MPI_File_set_size to max(L, OVERALL_VOL), or 50 L where OVERALL_VOL / L > 50 (L the largest
    // length, 50 IMB-IO's compiled MSGSPERSAMPLE; a file per process: ceil of that / Q, plus 200
    // bytes where Q does not divide L: IMB_init_file.c:203-236, IMB_settings_io.h:120), and keeps
    // it across the block's sizes, opened and closed for each (IMB_init_transfer.c:183, 273-274):
    // never preallocated. The rule as parbench had it (4.0): a fresh file per size, preallocated
    // for 2n portions.
    [[nodiscard]] constexpr bool io_file_per_block() const noexcept { return is_2021(); }

    // The file IMB-IO's reads find: IMB 2021 writes the block's file once, `total` bytes from
    // offset 0 (the size as for writes, io_file_per_block; IMB_init_file.c:203-261), and its n
    // reads of X from offset 0 (the file opened for the size, or rewound after the calibration,
    // helper_IMB_functions.h:613-618; explicit offsets j X, IMB_read.c:257) run past it where
    // n X > total (-msglog below 0:22, or -msgsize): those read nothing (MPI-IO returns 0 bytes
    // at the end of a file). parbench reproduces that, so the same benchmark gives the same
    // number: each size's file holds IMB's total bytes, no more. -check is the exception (it
    // needs data wherever it reads; every tile is filled). The rule as parbench had it (4.0): a
    // fresh file per size with 2n portions, every read finds data.
    [[nodiscard]] constexpr bool io_reads_find_block_file() const noexcept { return is_2021(); }

    // IMB-IO's three lines before the first table of a run that has nonblocking benchmarks:
    // "# For nonblocking benchmarks:", "# Function CPU_Exploit obtains an undisturbed",
    // "# performance of %7.2f MFlops" (original_benchmark.h:180-188: do_nonblocking_ is set
    // while the benchmarks are made, helper_IMB_functions.h:231-235, and the lines come at the
    // first benchmark's first size, whichever it is). The 4.0 layout has none.
    [[nodiscard]] constexpr bool io_prints_cpu_exploit() const noexcept { return is_2021(); }

    // IMB-IO's Open_Close repeats msgs_nonaggr times (the third -iter value): IMB 2021 takes
    // MSGS_NONAGGR for a benchmark without file access (access NO,
    // src_cpp/helpers/helper_IMB_functions.h:393-398) and sets n_sample to it for a Sync
    // benchmark (:494-496; Open_Close's flags, src_cpp/IO/IO_benchmark.cpp). The rule as parbench
    // had it (4.0): msgspersample, as for any benchmark with one mode.
    [[nodiscard]] constexpr bool io_open_close_counts_msgs_nonaggr() const noexcept {
        return is_2021();
    }

    // overlap[%] from the three times of the process with the largest t_ovrl.
    [[nodiscard]] double overlap_percent(double t_ovrl, double t_pure,
                                         double t_cpu) const noexcept {
        return is_2021() ? overlap_percent_of_longer(t_ovrl, t_pure, t_cpu)
                         : parbench::overlap_percent(t_ovrl, t_pure, t_cpu);
    }
};

// IMB 2021's -off_cache offsets of a buffer of `len` bytes (IMB_init_buffers_iter,
// src_cpp/helpers/helper_IMB_functions.h:493-512): the stride
// offs = ((len + line - 1) / line + 1) * line (whole cache lines and one more), and the count
// min(n_sample, (int)((2 * cache_size * CACHE_UNIT + offs - 1) / offs)) of the positions a
// transfer cycles through, i % count * offs; cache_size the float of -off_cache in MB, CACHE_UNIT
// 2^20 (IMB_mem_info.h:53), n_sample the size's count before its calibration (:393-420), `len`
// IMB's s_len or r_len (max(X, 4) for a transfer of X, :380-383, 420-470). Float arithmetic as
// IMB's; at least one position.
struct cache_offsets {
    std::uint64_t count = 1;
    std::size_t stride = 0;
};
[[nodiscard]] inline cache_offsets imb2021_cache_offsets(double cache_mib, std::size_t line,
                                                         std::size_t len,
                                                         std::uint64_t n_sample) noexcept {
    line = std::max<std::size_t>(line, 1);
    const std::size_t offs = ((len + line - 1) / line + 1) * line;
    const float cache_size = static_cast<float>(cache_mib);
    const float fits = (2.0f * cache_size * 1048576.0f + static_cast<float>(offs) - 1.0f) /
                       static_cast<float>(offs);
    const auto positions =
        static_cast<std::uint64_t>(std::clamp(fits, 1.0f, static_cast<float>(INT32_MAX)));
    return {std::max<std::uint64_t>(1, std::min(n_sample, positions)), offs};
}

// "-methodology 2021|4.0" (also "2021.11").
[[nodiscard]] inline methodology_name parse_methodology(std::string_view text) {
    const std::string_view t = parbench::trim(text);
    if (t == "2021" || t == "2021.11") return methodology_name::imb2021;
    if (t == "4.0" || t == "4") return methodology_name::imb40;
    throw input_error("-methodology " + std::string(text) +
                      ": expected 2021 (IMB 2021.11's methods) or 4.0 (the IMB 4.0 guide's)");
}

}  // namespace parbench::imb
