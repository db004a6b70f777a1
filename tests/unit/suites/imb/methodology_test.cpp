// suites/imb/methodology.hpp: the rules of IMB 2021.11 and of the IMB 4.0 guide, each against
// the IMB sources' values (IMB_output.c MEGA, IMB_bcast.c's root and barriers, MPI1_suite.cpp's
// defaults, IMB_bandwidth.c's window and acknowledgement); the Mbytes/sec column's unit in the
// console; each-call sync and its barriers.
#include <fmt/format.h>

#include <catch2/catch.hpp>

#include <cmath>
#include <parbench/policy/sync.hpp>
#include <parbench/report/columns.hpp>
#include <parbench/suites/imb/methodology.hpp>

using Catch::Matchers::Contains;
using parbench::imb::methodology;
using parbench::imb::methodology_name;
using parbench::imb::parse_methodology;

namespace {

constexpr methodology imb2021{};
constexpr methodology imb40{.name = methodology_name::imb40};

struct barrier_counting_comm {
    int barriers = 0;
    int disseminations = 0;
    void barrier() { ++barriers; }
    void dissemination_barrier() { ++disseminations; }
};

}  // namespace

TEST_CASE("Mbytes/sec: 10^6 bytes under IMB 2021, 2^20 under IMB 4.0", "[methodology]") {
    // Hand-computed: 2048 B in 20.32 us is 2048 / 20.32 = 100.787 MB/s, / 1.048576 = 96.118.
    CHECK(fmt::format("{:.2f}", imb2021.mbytes_per_s(2048, 20.32)) == "100.79");
    CHECK(fmt::format("{:.2f}", imb40.mbytes_per_s(2048, 20.32)) == "96.12");
    CHECK(imb2021.mbyte_bytes() == 1e6);
    CHECK(imb40.mbyte_bytes() == 1048576.0);
    CHECK(imb2021.mbytes_per_s(2048, 0.0) == 0.0);
}

TEST_CASE("the console's Mbytes/sec reads the methodology's figure", "[methodology]") {
    parbench::result_record r;
    r.throughput_mib_s = 2048 / 20.32 / 1.048576;
    const parbench::column mbytes{"mbytes_per_s", "Mbytes/sec"};
    // IMB 4.0 (no 10^6 figure in the record): the MiB/s figure, as before.
    CHECK(parbench::report::column_cell(r, mbytes, 11) == "      96.12");
    // IMB 2021: the record's typed 10^6-byte rate (result_record::message_rates).
    r.message_rates = parbench::message_rate_figures{.mbytes_per_s = 2048 / 20.32};
    CHECK(parbench::report::column_cell(r, mbytes, 11) == "     100.79");
    r.throughput_mib_s.reset();
    r.message_rates.reset();
    CHECK(parbench::report::column_cell(r, mbytes, 11) == "          -");
}

TEST_CASE("IMB 2021's rules and IMB 4.0's", "[methodology]") {
    // IMB 2021: collectives with data timed call by call with a barrier after each (-sync on),
    // root 0 (-root_shift off), PingPong from the partner, window 256 and a 1-byte ack.
    STATIC_REQUIRE(imb2021.is_2021());
    CHECK(imb2021.times_each_call(true, true));
    CHECK_FALSE(imb2021.times_each_call(true, false));  // Barrier: one timed loop
    CHECK_FALSE(imb2021.times_each_call(false, true));  // point to point
    CHECK(imb2021.barriers_after_call() == 1);
    CHECK_FALSE(imb2021.rotates_root());
    CHECK(imb2021.explicit_source());
    CHECK(imb2021.window() == 256);
    CHECK(imb2021.ack_bytes() == 1);
    CHECK(imb2021.label() == "IMB 2021.11");
    // Its switches.
    constexpr methodology switched{.sync = false, .root_shift = true, .window_size = 8};
    CHECK(switched.barriers_after_call() == 0);
    CHECK(switched.rotates_root());
    CHECK(switched.window() == 8);
    // IMB 4.0: a batched loop, root i % np, MPI_ANY_SOURCE, window 64 and an empty ack; the
    // 2021 switches do not reach it.
    constexpr methodology old{
        .name = methodology_name::imb40, .root_shift = false, .window_size = 8};
    CHECK_FALSE(old.times_each_call(true, true));
    CHECK(old.rotates_root());
    CHECK_FALSE(old.explicit_source());
    CHECK(old.window() == 64);
    CHECK(old.ack_bytes() == 0);
    CHECK(old.label() == "IMB 4.0");
}

TEST_CASE("an aggregate sample's repeats: 5 ms under 2021 (none for IMB-IO), unbounded under 4.0",
          "[methodology]") {
    CHECK(imb2021.aggregate_repeats_budget_s() == 0.005);
    constexpr methodology io{.affordable_repeats_s = 0.0};
    CHECK(io.aggregate_repeats_budget_s() == 0.0);
    constexpr methodology io_always{.aggregate_ci_always = true, .affordable_repeats_s = 0.0};
    CHECK(std::isinf(io_always.aggregate_repeats_budget_s()));
    constexpr methodology always{.aggregate_ci_always = true};
    CHECK(std::isinf(always.aggregate_repeats_budget_s()));
    constexpr methodology old{.name = methodology_name::imb40};
    CHECK(std::isinf(old.aggregate_repeats_budget_s()));
}

TEST_CASE("-methodology parses 2021 and 4.0", "[methodology]") {
    CHECK(parse_methodology("2021") == methodology_name::imb2021);
    CHECK(parse_methodology(" 2021.11 ") == methodology_name::imb2021);
    CHECK(parse_methodology("4.0") == methodology_name::imb40);
    for (const char* bad : {"", "2019", "4.1", "latest"})
        CHECK_THROWS_WITH(parse_methodology(bad), Contains("expected 2021"));
}

TEST_CASE("each-call sync: N_BARR barriers before the loop, MPI's or IMB's", "[methodology]") {
    using namespace parbench::policy::sync;
    chosen each{.which = method::each_call};
    STATIC_REQUIRE(parbench::policy::each_call_sync<chosen>);
    CHECK(each.each_call());
    CHECK_FALSE(each.per_call());
    barrier_counting_comm mpi;
    each.before_timing(mpi);
    CHECK((mpi.barriers == 2 && mpi.disseminations == 0));
    each.dissemination = true;
    barrier_counting_comm own;
    each.before_timing(own);
    CHECK((own.barriers == 0 && own.disseminations == 2));
    CHECK(to_string(method::each_call) == "each_call");
}

TEST_CASE("IMB-NBC's overlap: t_CPU inside the overlapped loop and the longer time under 2021",
          "[methodology]") {
    // Hand-worked: t_pure 10, t_CPU 30, t_ovrl 35 us hide 10 + 30 - 35 = 5 us. IMB 2021 divides
    // by max(t_pure, t_CPU) = 30 (IMB_output.c:319): 16.67 %; the 4.0 guide by min = 10: 50 %.
    CHECK(imb2021.times_cpu_inside_overlap());
    CHECK_FALSE(imb40.times_cpu_inside_overlap());
    CHECK(fmt::format("{:.2f}", imb2021.overlap_percent(35.0, 10.0, 30.0)) == "16.67");
    CHECK(fmt::format("{:.2f}", imb40.overlap_percent(35.0, 10.0, 30.0)) == "50.00");
    // t_ovrl = max(t_pure, t_CPU) = 30: 10 us hidden, all of the shorter (4.0: 100 %) but a
    // third of the longer (2021: 33.33 %); IMB 2021 reads 100 % only at t_ovrl = min = 10;
    // t_ovrl = sum: nothing hidden in both; clamped outside [0, 100].
    CHECK(fmt::format("{:.2f}", imb2021.overlap_percent(30.0, 10.0, 30.0)) == "33.33");
    CHECK(imb40.overlap_percent(30.0, 10.0, 30.0) == 100.0);
    CHECK(imb2021.overlap_percent(10.0, 10.0, 30.0) == 100.0);
    CHECK(imb2021.overlap_percent(5.0, 10.0, 30.0) == 100.0);
    CHECK(imb2021.overlap_percent(40.0, 10.0, 30.0) == 0.0);
    CHECK(imb2021.overlap_percent(50.0, 10.0, 30.0) == 0.0);
    // No work: 2021 still divides by t_pure (0 hidden -> 0 %); nothing at all: 0 %, no NaN.
    CHECK(imb2021.overlap_percent(10.0, 10.0, 0.0) == 0.0);
    CHECK(imb2021.overlap_percent(0.0, 0.0, 0.0) == 0.0);
    CHECK(imb40.overlap_percent(10.0, 10.0, 0.0) == 0.0);
}

TEST_CASE("IMB-RMA, IMB-EXT and Truly_passive_put under each methodology", "[methodology]") {
    // One flush per sample for the transfers to every target (IMB_rma_put.c:169-183).
    CHECK(imb2021.completes_all_targets_once_per_sample());
    CHECK_FALSE(imb40.completes_all_targets_once_per_sample());
    // -iter_policy off: msgspersample in every mode (helper_IMB_functions.h:407-408).
    CHECK(imb2021.off_policy_counts_msgs_per_sample());
    CHECK_FALSE(imb40.off_policy_counts_msgs_per_sample());
    // -iter_policy dynamic: msgspersample caps the non-aggregate count under 2021 only
    // (helper_IMB_functions.h:595-596, 672-673).
    CHECK(imb2021.dynamic_policy_caps_non_aggregate());
    CHECK_FALSE(imb40.dynamic_policy_caps_non_aggregate());
    // IMB-EXT's lengths in multiples of sizeof(MPI_FLOAT) (helper_IMB_functions.h:743-744).
    CHECK(imb2021.ext_length_unit() == 4);
    CHECK(imb40.ext_length_unit() == 1);
    // ... and -msglog's first length capped at sizeof(assign_type) (helper_IMB_functions.h:
    // 309-311): none under the guide.
    CHECK(imb2021.ext_first_length_cap() == 4);
    CHECK(imb40.ext_first_length_cap() == 0);
    // IMB-RMA's two modes: NON-AGGREGATE first under 2021 (helper_IMB_functions.h:176-182).
    CHECK(imb2021.rma_runs_non_aggregate_first());
    CHECK_FALSE(imb40.rma_runs_non_aggregate_first());
    // Truly_passive_put: t_pure before t_ovrl (IMB_output.c:423).
    CHECK(imb2021.pure_before_overlapped());
    CHECK_FALSE(imb40.pure_before_overlapped());
    // Reduce_scatter: X / size(type) to every process (IMB_reduce_scatter.c:148-150), or X split.
    CHECK(imb2021.reduce_scatter_whole_x_each());
    CHECK_FALSE(imb40.reduce_scatter_whole_x_each());
    // IMB-IO: one file per block, kept across its sizes (IMB_init_file.c:203-236), and
    // Open_Close's msgs_nonaggr (helper_IMB_functions.h:393-398).
    CHECK(imb2021.io_file_per_block());
    CHECK_FALSE(imb40.io_file_per_block());
    CHECK(imb2021.io_open_close_counts_msgs_nonaggr());
    CHECK_FALSE(imb40.io_open_close_counts_msgs_nonaggr());
}

TEST_CASE("IMB-IO's CPU work, its calibration and the probe under each methodology",
          "[methodology]") {
    const parbench::imb::methodology imb2021{};
    const parbench::imb::methodology imb40{.name = parbench::imb::methodology_name::imb40};
    // IMB 2021: calibrated once per run, the probe capped by IMB-IO's compiled MSGSPERSAMPLE 50
    // (IMB_settings_io.h:120).
    CHECK(imb2021.io_calibrates_once_per_run());
    CHECK(imb2021.io_probe_cap() == 50);
    // 4.0: as parbench had it (per size, parbench's warm-up).
    CHECK_FALSE(imb40.io_calibrates_once_per_run());
    CHECK(imb40.io_probe_cap() == 0);
    // IMB 2021 takes t_pure and t_ovrl each as the largest (IMB_output.c:335-336).
    CHECK(imb2021.io_times_each_their_maximum());
    CHECK_FALSE(imb40.io_times_each_their_maximum());
}

TEST_CASE("IMB-NBC's CPU work under each methodology", "[methodology]") {
    const parbench::imb::methodology imb2021{};
    const parbench::imb::methodology imb40{.name = parbench::imb::methodology_name::imb40};
    // IMB 2021: its rate probed once per run, the work per size from t_pure (IMB_reduce.c:191).
    CHECK(imb2021.nbc_calibrates_once_per_run());
    // 4.0: parbench's pass calibrated collectively per size.
    CHECK_FALSE(imb40.nbc_calibrates_once_per_run());
    // Ireduce's overlapped loop: root i % np under 2021 whatever -root_shift (IMB_reduce.c:202).
    CHECK(imb2021.ireduce_overlapped_root_round_robin());
    CHECK_FALSE(imb40.ireduce_overlapped_root_round_robin());
}

TEST_CASE("IMB 2021's -off_cache offsets of a one-sided transfer", "[methodology]") {
    CHECK(imb2021.one_sided_at_cache_offsets());
    CHECK_FALSE(imb40.one_sided_at_cache_offsets());
    // Several origins at one displacement (IMB_rma_put.c:176-178), and message buffers at
    // IMB's cache offsets (IMB_pingpong.c:145), under 2021 only.
    CHECK(imb2021.one_sided_origins_share_target());
    CHECK_FALSE(imb40.one_sided_origins_share_target());
    CHECK(imb2021.messages_at_cache_offsets());
    CHECK_FALSE(imb40.messages_at_cache_offsets());
    using parbench::imb::imb2021_cache_offsets;
    // Hand-worked from helper_IMB_functions.h:500-506: offs = ((len + line - 1) / line + 1)
    // line, count = min(n_sample, (int)((2 cache 2^20 + offs - 1) / offs)) in float.
    // 8 B, line 64: offs = 2 lines = 128; 0.00015 MB: (314.57 + 127) / 128 = 3.45 -> 3 < 4.
    auto at = imb2021_cache_offsets(0.00015, 64, 8, 4);
    CHECK((at.count == 3 && at.stride == 128));
    // IMB's -off_cache -1 (8 MB, IMB_mem_info.h:54) at 1 KiB: offs 1088, 15421 positions, n 1000.
    at = imb2021_cache_offsets(8.0, 64, 1024, 1000);
    CHECK((at.count == 1000 && at.stride == 1088));
    // ... at 4 MiB: offs 4194368, (16777216 + 4194367) / 4194368 = 4.99994 -> 4 below n = 10.
    at = imb2021_cache_offsets(8.0, 64, 4194304, 10);
    CHECK((at.count == 4 && at.stride == 4194368));
    // Line 128: 8 B take offs 256; 0.0001 MB: (209.7 + 255) / 256 = 1.8 -> one position.
    at = imb2021_cache_offsets(0.0001, 128, 8, 1000);
    CHECK((at.count == 1 && at.stride == 256));
    // Whole lines of any size, none rounded to 4 bytes: 8 B at line 6: (2 + 1) 6 = 18.
    at = imb2021_cache_offsets(0.00003, 6, 8, 10);
    CHECK((at.count == 4 && at.stride == 18));
}

TEST_CASE("IMB's one CPU work: the order of its pass under each methodology", "[methodology]") {
    const parbench::imb::methodology imb2021{};
    const parbench::imb::methodology imb40{.name = parbench::imb::methodology_name::imb40};
    // IMB 2021 has one IMB_cpu_exploit for IMB-NBC, IMB-MPI4, IMB-IO and Truly_passive_put's
    // target: `#define SIZE 10` (IMB_cpu_exploit.c:88), a 10x10 pass of 2 x 10 x 10 flops.
    CHECK(imb2021.cpu_exploit_order() == 10);
    CHECK(parbench::policy::cpu_load::flops_per_pass_of(imb2021.cpu_exploit_order()) == 200.0);
    // 4.0: parbench's 100x100 pass (IMB-NBC's and IMB-IO's; Truly_passive_put spins instead).
    CHECK(imb40.cpu_exploit_order() == 100);
    CHECK(imb2021.passive_put_work_like_imb());
    CHECK_FALSE(imb40.passive_put_work_like_imb());
}
