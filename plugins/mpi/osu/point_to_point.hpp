// OSU's point-to-point tests as definitions for osu/messages.hpp (OSU micro-benchmarks 7.x,
// osu_latency.c, osu_bw.c, osu_bibw.c, osu_multi_lat.c, osu_mbw_mr.c; catalogue E, F94-F96):
//
//   latency    blocking MPI_Send/MPI_Recv ping-pong of processes 0 and 1; one-way latency,
//              half the round trip
//   multi_lat  the same ping-pong in every pair r <-> r + n/2 at once; OSU's average over the
//              processes
//   bw         the sender posts a window of -W MPI_Isend, waits for all, then receives a reply
//              of one MPI_CHAR; the receiver posts -W MPI_Irecv, waits, then replies. MB/s =
//              W x / t
//   bibw       both sides post -W MPI_Irecv and -W MPI_Isend and wait for all; MB/s = 2 W x / t
//   mbw_mr     bw in every pair r <-> r + n/2 at once, two barriers before each window; MB/s =
//              pairs W x / t and messages/s = pairs W / t, t the senders' mean time per window
//              (osu_mbw_mr.c:656-666; osu/messages.hpp)
//
// The window tests are timed as OSU 7.5 times them, window by window (osu_bw.c:224-262): the
// clock read before the window's first request and after its reply, the windows' times summed
// (t_total += t_end - t_start), nothing between two windows (bw, bibw and their persistent
// forms) or mbw_mr's barriers; t is that sum over the iterations. osu/messages.hpp's per-call
// plan (barriers_after_call below); -batched: parbench's batched loop.
//
// Messages are X / size(type) elements of -T's datatype (MPI_CHAR by default), as OSU 7.5's
// programs send them (osu_latency.c:125-147, osu_bw.c:148-168: num_elements = size /
// mpi_type_size, a size without a whole element skipped); the bw reply stays one MPI_CHAR.
// Every message of a window uses the same buffer, as OSU's (7.5's -b single); with -b multiple
// message w of a window uses slot w of a send and a receive buffer of W slots (osu_bw.c:56-58,
// 232-244; osu_bibw.c, osu_mbw_mr.c alike). latency and multi_lat take -b as OSU's do; their
// buffers are made per size either way (what osu_latency.c:144 does for -b multiple). The
// kernels only issue the MPI calls of one iteration; the runner times them.
#pragma once

#include "osu/datatypes.hpp"
#include "osu/options.hpp"
#include "osu/suite.hpp"

#include <parbench/mpi/check.hpp>
#include <parbench/mpi/message_buffers.hpp>
#include <parbench/mpi/timed_loop.hpp>
#include <parbench/pattern/exchange.hpp>

#include <mpi.h>

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace parbench::osu {

inline constexpr int tag_message = 100;  // OSU's tags
inline constexpr int tag_reply = 101;
inline constexpr int reply_bytes = 1;  // OSU 7.5's osu_bw reply: one MPI_CHAR (osu_bw.c:249, 325)

// Every rank sends bytes that name it; a receiver expects its partner's, and lists the wrong
// elements of -T's datatype (check::find_byte_defects; messages.hpp check_of sets typed_by).
struct bytes_of_partner {
    bool both_receive = true;  // false: only the side that does not initiate receives data
    std::size_t typed_by = 1;  // bytes of one element of -T's datatype
    void fill_send(const mpi::kernel_context& c, std::span<std::byte> slot) const noexcept {
        mpi::check::fill_bytes(slot, c.rank);
    }
    [[nodiscard]] mpi::check::findings verify(const mpi::kernel_context& c,
                                              std::uint64_t /*last*/,
                                              std::span<const std::byte> recv) const {
        if (c.peer == MPI_PROC_NULL || (!both_receive && c.initiator)) return {};
        return mpi::check::find_byte_defects(recv, c.peer, 0, 0, typed_by);
    }
};

// The elements of one message: X / size(type) of -T's datatype of the table being measured, or
// under -D one element of the derived datatype of them, made for the size X (OSU 7.5's
// omb_ddt_assign and omb_ddt_get_size, osu_latency.c:152-156) and shared by the copies of the
// kernel that send it.
struct message_elements {
    MPI_Datatype type = MPI_CHAR;
    std::size_t size = 1;  // bytes of one element
    std::shared_ptr<const derived_message_type> derived;
    [[nodiscard]] int count(std::size_t bytes) const noexcept {
        return derived ? 1 : static_cast<int>(bytes / size);
    }
    [[nodiscard]] static message_elements of(const options& o, std::size_t bytes) {
        message_elements e{.type = mpi_datatype(o.table_datatype, false),
                           .size = element_bytes(o.table_datatype),
                           .derived = nullptr};
        if (o.ddt.given()) {
            e.derived = std::make_shared<const derived_message_type>(
                o.ddt, e.type, static_cast<int>(bytes / e.size));
            e.type = e.derived->get();
        }
        return e;
    }
};

// One ping-pong per iteration between this process and its partner (none: idle).
struct ping_pong_kernel {
    message_elements elements;

    template <class Buffers>
    void operator()(const mpi::kernel_context& c, std::uint64_t i, const Buffers& b) const {
        const int n = elements.count(c.bytes);
        const MPI_Datatype type = elements.type;
        if (c.peer == MPI_PROC_NULL) return;
        if (c.initiator) {
            MPI_Send(b.send(i), n, type, c.peer, tag_message, c.comm);
            MPI_Recv(b.recv(i), n, type, c.peer, tag_message, c.comm, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(b.recv(i), n, type, c.peer, tag_message, c.comm, MPI_STATUS_IGNORE);
            MPI_Send(b.send(i), n, type, c.peer, tag_message, c.comm);
        }
    }
};

// One window per iteration: -W nonblocking messages from the initiator (both sides with
// `both`), then the reply that closes a one-way window. bibw waits for its sends and its
// receives apart, as OSU 7.5's: process 0 the sends first (osu_bibw.c:260-264), process 1 the
// receives first (:352-363).
struct window_kernel {
    bool both = false;
    int window = 64;
    bool multiple = false;  // -b multiple: message w in slot w
    message_elements elements;
    std::vector<MPI_Request> requests;
    std::array<char, reply_bytes> reply{};

    template <class Buffers>
    void operator()(const mpi::kernel_context& c, std::uint64_t i, const Buffers& b) {
        if (c.peer == MPI_PROC_NULL) return;
        const int n = elements.count(c.bytes);
        const MPI_Datatype type = elements.type;
        const auto slot = [&](int w) {
            return multiple ? static_cast<std::size_t>(w) * c.bytes : std::size_t{0};
        };
        int posted = 0;
        if (both || !c.initiator)
            for (int w = 0; w < window; ++w)
                MPI_Irecv(b.recv(i) + slot(w), n, type, c.peer, tag_message, c.comm,
                          &requests[static_cast<std::size_t>(posted++)]);
        if (both || c.initiator)
            for (int w = 0; w < window; ++w)
                MPI_Isend(b.send(i) + slot(w), n, type, c.peer, tag_message, c.comm,
                          &requests[static_cast<std::size_t>(posted++)]);
        if (both) {
            MPI_Request* const receives = requests.data();
            MPI_Request* const sends = receives + window;
            MPI_Waitall(window, c.initiator ? sends : receives, MPI_STATUSES_IGNORE);
            MPI_Waitall(window, c.initiator ? receives : sends, MPI_STATUSES_IGNORE);
            return;
        }
        MPI_Waitall(posted, requests.data(), MPI_STATUSES_IGNORE);
        if (c.initiator)
            MPI_Recv(reply.data(), reply_bytes, MPI_CHAR, c.peer, tag_reply, c.comm,
                     MPI_STATUS_IGNORE);
        else
            MPI_Send(reply.data(), reply_bytes, MPI_CHAR, c.peer, tag_reply, c.comm);
    }
};

// -T on the point-to-point tests that take it here (OMBOP__PT2PT__LAT, __BW,
// osu_util_options.h:62-67; OMBOP__MBW_MR, :137): latency, multi_lat, bw, bibw, mbw_mr and the
// persistent three, latency_mt and latency_mp (suites/osu_latency_variants.cpp), bw_fan_in and
// bw_fan_out (suites/osu_startup.cpp). Without -T their records name no datatype, as before -T
// reached them (osu/suite.hpp). OSU's partitioned_latency reads -T too; parbench refuses it
// there (docs/osu.md).
// They take -D too (the same option strings), each message one element of the derived type.
struct takes_message_datatype {
    static constexpr bool takes_datatype = true;
    static constexpr bool names_default_datatype = false;
    static constexpr bool takes_ddt = true;
};

// What the point-to-point definitions share: byte messages, OSU's pt2pt MAX (4 MiB), and -d's
// device buffers (their message buffers are the session's pools; the bw reply stays a host
// byte, where OSU's is one MPI_CHAR of the message buffers).
struct point_to_point_def : mpi::definition_defaults {
    static constexpr std::uint64_t max_bytes = default_max_bytes;
    static constexpr device_placement device_buffers = device_placement::pair;
    static mpi::buffer_layout layout(std::size_t x, int /*np*/) { return {x, x}; }
};

template <bool AllPairs>
struct latency_def : point_to_point_def {
    static constexpr bool all_processes = AllPairs;
    static constexpr device_placement device_buffers =
        AllPairs ? device_placement::halves : device_placement::pair;
    // multi_lat: a process without a partner would wait for a message nobody sends (OSU 7.5's
    // osu_multi_lat pairs r with r + n/2 and r - n/2 alike, so its last process hangs).
    static constexpr bool even_processes = AllPairs;
    static constexpr const char* osu_letters = letters::lat;
    // OSU's point-to-point latency tests start at 0 bytes (osu_util.c: PT2PT and LAT).
    static constexpr std::uint64_t smallest_bytes = 0;
    static constexpr policy::iterations::fixed_count counts = latency_counts;
    static constexpr block_text text{
        .banner = AllPairs ? "OSU MPI Multi Latency Test" : "OSU MPI Latency Test",
        .names_accelerator = !AllPairs,  // osu_multi_lat.c's BENCHMARK has no %s
        // OSU: process 0's time (osu_latency.c:277-278); multi_lat: the average over the
        // processes
        .figures = {{{.heading = avg_latency_figure.heading,
                      .source = AllPairs ? "t_avg_us" : process0_time_metric}}},
        .latency = true};
    static constexpr pattern::exchange descriptor(const options& /*o*/) {
        return {.klass = AllPairs ? benchmark_class::parallel_transfer
                                  : benchmark_class::single_transfer,
                .who = AllPairs ? pattern::participants::chain : pattern::participants::pair,
                .nmsg = 1,
                .time_divisor = 2.0,  // one way: half the round trip
                .pairs = AllPairs ? pattern::halves : pattern::first_pair,
                .throughput = pattern::throughput_rule::none};
    }
    static ping_pong_kernel make_kernel(const mpi::kernel_context& c, const options& o) {
        return {.elements = message_elements::of(o, c.bytes)};
    }
    using verify_check = bytes_of_partner;
};

enum class window_test { bw, bibw, mbw_mr };

template <window_test T>
struct window_def : point_to_point_def, takes_message_datatype {
    static constexpr bool both = T == window_test::bibw;
    static constexpr bool windowed = true;  // -W requests in flight (osu/suite.hpp)
    static constexpr bool all_processes = T == window_test::mbw_mr;
    static constexpr const char* osu_letters =
        T == window_test::mbw_mr ? letters::mbw_mr : letters::bw;
    static constexpr device_placement device_buffers =
        all_processes ? device_placement::halves : device_placement::pair;
    static constexpr policy::iterations::fixed_count counts = bandwidth_counts;
    // OSU 7.5 times each window on its own and sums the windows' times: process 0 reads
    // MPI_Wtime before the window's first MPI_Isend and after the reply's MPI_Recv (osu_bw.c:
    // 224-227, 258-262: t_total += calculate_total(t_start, t_end, ...), which is t_end -
    // t_start on host buffers, :439-451), bibw after both MPI_Waitall (osu_bibw.c:224-227,
    // 273-277), the persistent forms around MPI_Startall ... the reply (osu_bw_persistent.c:
    // 249-275, osu_bibw_persistent.c:261-290); the next window starts at once, no barrier
    // between windows. So each window is one call of the per-call plan with no barrier after it.
    static constexpr int barriers_after_call = 0;
    static constexpr block_text text{
        .banner = T == window_test::bw     ? "OSU MPI Bandwidth Test"
                  : T == window_test::bibw ? "OSU MPI Bi-Directional Bandwidth Test"
                                           : "OSU MPI Multiple Bandwidth / Message Rate Test",
        .names_accelerator = T != window_test::mbw_mr,  // osu_mbw_mr.c's BENCHMARK has no %s
        .pairs_line = T == window_test::mbw_mr,
        .figures = {{{.heading = T == window_test::mbw_mr ? "MB/s" : "Bandwidth (MB/s)",
                      .source = "bandwidth_mb_s",
                      .name = "bandwidth_mb_s",
                      .unit = "MB/s",
                      .rate = true},
                     {.heading = "Messages/s",
                      .source = "messages_per_s",
                      .name = "messages_per_s",
                      .unit = "messages/s",
                      .rate = true}}},
        .figure_count = T == window_test::mbw_mr ? 2 : 1};
    static constexpr pattern::exchange descriptor(const options& o) {
        const int window = static_cast<int>(o.window_size);
        return {.klass = all_processes ? benchmark_class::parallel_transfer
                                       : benchmark_class::single_transfer,
                .who = all_processes ? pattern::participants::chain : pattern::participants::pair,
                .nmsg = both ? 2 * window : window,
                .pairs = {.kind = all_processes ? pattern::pairing_kind::halves
                                                : pattern::pairing_kind::first_pair,
                          .both_initiate = both},
                .throughput = all_processes ? pattern::throughput_rule::per_pair
                                            : pattern::throughput_rule::per_iteration,
                .message_rate = all_processes};
    }
    // -b (OMBOP__PT2PT__BW and OMBOP__MBW_MR, osu_util_options.h:66, 137): W slots of X bytes
    static constexpr bool takes_buffers = true;
    static mpi::buffer_layout layout(std::size_t x, int np, const options& o) {
        if (!o.multiple_buffers) return layout(x, np);
        const std::size_t slots = x * static_cast<std::size_t>(o.window_size);
        return {slots, slots};
    }
    using point_to_point_def::layout;
    static window_kernel make_kernel(const mpi::kernel_context& c, const options& o) {
        window_kernel k;
        k.both = both;
        k.window = static_cast<int>(o.window_size);
        k.multiple = o.multiple_buffers;
        k.elements = message_elements::of(o, c.bytes);
        k.requests.resize(2 * static_cast<std::size_t>(o.window_size), MPI_REQUEST_NULL);
        return k;
    }
    struct verify_check : bytes_of_partner {
        verify_check() : bytes_of_partner{.both_receive = both} {}
    };
};

// -b on the tests of OSU 7.5's latency option strings (OMBOP__PT2PT__LAT and __PART_LAT,
// osu_util_options.h:62-63): latency, multi_lat, latency_persistent, partitioned_latency. OSU
// makes its buffers per size with multiple (osu_latency.c:115, 144; osu_latency_persistent.c:117,
// 146; osu_partitioned_latency.c:132, 171), as parbench makes them anyway; osu_multi_lat.c never
// reads it. The accelerator build has no b: there (:64-65): refused under -d. latency_mt and
// latency_mp take none (OMBOP__PT2PT__LAT_MT, __LAT_MP, :68-71).
struct takes_latency_buffers {
    static constexpr bool takes_buffers = true;
    static constexpr bool takes_buffers_with_accelerator = false;
};
struct latency : latency_def<false>, takes_message_datatype, takes_latency_buffers {};
struct multi_lat : latency_def<true>, takes_message_datatype, takes_latency_buffers {};
using bw = window_def<window_test::bw>;
using bibw = window_def<window_test::bibw>;
// -V (OMBOP__MBW_MR, osu_util_options.h:137): OSU's windows in turn (osu/messages.hpp)
struct mbw_mr : window_def<window_test::mbw_mr> {
    static constexpr bool varies_window = true;
    // OSU 7.5 puts two MPI_Barrier of every process before each window, one per iteration and
    // one per validation pass (osu_mbw_mr.c:509 and 514 on the senders, 509 and 582 on the
    // receivers; one pass without -c, osu_util.c:1172-1174), and times the window on its own
    // (t_start after the second barrier, :515-517; t_end after the reply, :545-547): two
    // barriers between two timed windows, as osu/messages.hpp's per-call plan puts them.
    static constexpr int barriers_after_call = 2;
};

}  // namespace parbench::osu
