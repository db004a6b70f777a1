// OSU 7.5's partitioned_latency (c/mpi/pt2pt/standard/osu_partitioned_latency.c) as a definition
// for osu/messages.hpp: latency on MPI-4 partitioned requests made once per size (MPI_Psend_init,
// MPI_Precv_init; -q partitions of X/q MPI_CHARs, or of (X/size)/q elements of -T's datatype):
// MPI_Start, MPI_Pready of every partition, MPI_Wait on the send, then MPI_Start and MPI_Wait on
// the receive; measured as OSU's nonblocking tests are, first pure, then with OSU's dummy compute
// after each start (lines 221-321, 336-497; osu/nonblocking.hpp's measure_pure_then_overall),
// every round trip timed on its own (per_call_plan), every figure of one round trip halved. Its
// catalogue entry and sizes (those below -q skipped, as OSU skips them) are in
// plugins/mpi/suites/osu_latency_variants.cpp; bench/osu_families_overhead measures its pure loop.
#pragma once

#include "osu/messages.hpp"
#include "osu/nonblocking.hpp"
#include "osu/point_to_point.hpp"

#include <parbench/mpi/check.hpp>
#include <parbench/mpi/persistent.hpp>
#include <parbench/mpi/phases.hpp>
#include <parbench/mpi/runner.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace parbench::osu {

// The bytes one round trip delivers: partitions x ((X / element) / partitions) elements of -T's
// datatype (the remainder of X is never sent, osu_partitioned_latency.c lines 161-168).
[[nodiscard]] inline std::uint64_t delivered_bytes(std::uint64_t x, std::uint64_t partitions,
                                            std::uint64_t element = 1) {
    return partitions * ((x / element) / partitions) * element;
}

// -c: the bytes delivered carry the partner's rank.
struct partition_check {
    std::uint64_t partitions = default_partitions;
    std::uint64_t element = 1;  // bytes of one element of -T's datatype
    void fill_send(const mpi::kernel_context& c, std::span<std::byte> slot) const noexcept {
        mpi::check::fill_bytes(slot, c.rank);
    }
    [[nodiscard]] mpi::check::findings verify(const mpi::kernel_context& c,
                                              std::uint64_t /*last*/,
                                              std::span<const std::byte> recv) const {
        if (c.peer == MPI_PROC_NULL) return {};
        const auto n = std::min<std::size_t>(
            recv.size(),
            static_cast<std::size_t>(delivered_bytes(c.bytes, partitions, element)));
        return mpi::check::find_byte_defects(recv.first(n), c.peer, 0, 0,
                                             static_cast<std::size_t>(element));
    }
};

// requests[0]: the MPI_Psend_init, requests[1]: the MPI_Precv_init, made in OSU's order (process
// 0 the send first, process 1 the receive first; tag 1, MPI_INFO_NULL; lines 203-217).
struct partitioned_requests {
    int partitions = 8;
    message_elements elements;  // -T's
    void operator()(const mpi::kernel_context& c, const mpi::message_buffers<mpi::fixed_slots>& b,
                    std::vector<MPI_Request>& requests) const {
        if (c.peer == MPI_PROC_NULL) return;
#if MPI_VERSION >= 4
        const MPI_Count per = static_cast<MPI_Count>(elements.count(c.bytes)) / partitions;
        const MPI_Datatype type = elements.type;
        requests.assign(2, MPI_REQUEST_NULL);
        const auto make_send = [&] {
            MPI_Psend_init(b.send(0), partitions, per, type, c.peer, 1, c.comm, MPI_INFO_NULL,
                           &requests[0]);
        };
        const auto make_recv = [&] {
            MPI_Precv_init(b.recv(0), partitions, per, type, c.peer, 1, c.comm, MPI_INFO_NULL,
                           &requests[1]);
        };
        if (c.initiator) {
            make_send();
            make_recv();
        } else {
            make_recv();
            make_send();
        }
#else
        (void)b;
        (void)requests;  // MPI-3 (Open MPI 4.1): refused before it runs (refusal_with)
#endif
    }
};

// MPI_Start on the send, then MPI_Pready of every partition (lines 241-244).
inline void start_ready(MPI_Request* send, int partitions) {
    MPI_Start(send);
#if MPI_VERSION >= 4
    for (int k = 0; k < partitions; ++k) MPI_Pready(k, *send);
#else
    (void)partitions;
#endif
}

// OSU's first loop: one round trip, no compute.
struct partitioned_pure_kernel {
    int partitions = 8;
    template <class View>
    void operator()(const mpi::kernel_context& c, std::uint64_t /*i*/, const View& v) const {
        if (c.peer == MPI_PROC_NULL) return;
        MPI_Request* send = &v.requests[0];
        MPI_Request* recv = &v.requests[1];
        if (c.initiator) {
            start_ready(send, partitions);
            MPI_Wait(send, MPI_STATUS_IGNORE);
            MPI_Start(recv);
            MPI_Wait(recv, MPI_STATUS_IGNORE);
        } else {
            MPI_Start(recv);
            MPI_Wait(recv, MPI_STATUS_IGNORE);
            start_ready(send, partitions);
            MPI_Wait(send, MPI_STATUS_IGNORE);
        }
    }
};

// OSU's second loop (lines 345-384, 417-456): each start followed by the dummy compute for the
// pure one-way time, then the wait; the clock read around each part, every part halved.
struct partitioned_overall_kernel {
    int partitions = 8;
    dummy_compute* work = nullptr;
    nbc_split* split = nullptr;
    double target_s = 0.0;

    template <class View>
    void operator()(const mpi::kernel_context& c, std::uint64_t /*i*/, const View& v) const {
        if (c.peer == MPI_PROC_NULL) return;
        MPI_Request* send = &v.requests[0];
        MPI_Request* recv = &v.requests[1];
        MPI_Request* first = c.initiator ? send : recv;
        MPI_Request* second = c.initiator ? recv : send;
        const double t0 = MPI_Wtime();
        if (c.initiator)
            start_ready(send, partitions);
        else
            MPI_Start(recv);
        const double t1 = MPI_Wtime();
        double test_s = work->run(target_s, 0, *first);
        const double t2 = MPI_Wtime();
        MPI_Wait(first, MPI_STATUS_IGNORE);
        const double t3 = MPI_Wtime();
        if (c.initiator)
            MPI_Start(recv);
        else
            start_ready(send, partitions);
        const double t4 = MPI_Wtime();
        test_s += work->run(target_s, 0, *second);
        const double t5 = MPI_Wtime();
        MPI_Wait(second, MPI_STATUS_IGNORE);
        const double t6 = MPI_Wtime();
        split->add({((t1 - t0) + (t4 - t3)) / 2, ((t2 - t1) + (t5 - t4)) / 2, test_s / 2,
                    ((t3 - t2) + (t6 - t5)) / 2});
    }
};

// measure_pure_then_overall's loops (osu/nonblocking.hpp): OSU's first loop's round trips
// follow each other (lines 234-255, 275-296), no MPI_Barrier between them.
struct partitioned_loops {
    int partitions = 8;
    static constexpr int pure_barriers = 0;
    static constexpr bool round_trip = true;

    [[nodiscard]] partitioned_pure_kernel pure() const { return {.partitions = partitions}; }
    [[nodiscard]] partitioned_overall_kernel overall(dummy_compute& work, nbc_split& split,
                                                     double target_s) const {
        return {.partitions = partitions, .work = &work, .split = &split, .target_s = target_s};
    }
};

struct partitioned_latency : latency_def<false>, takes_message_datatype,
                             takes_latency_buffers {
    // OSU 7.5 reads -D here and then makes each partition ⌊n/q⌋ elements of a type of n
    // elements (osu_partitioned_latency.c:166, 179-183, 204-217), q·⌊n/q⌋ times the message:
    // past the end of its buffers. parbench refuses -D here.
    static constexpr bool takes_ddt = false;
    static constexpr const char* osu_letters = letters::part_lat;  // -q
    // -d: the session's pools, placed as latency's (allocate_memory_pt2pt(&s_buf, &r_buf,
    // myid), osu_partitioned_latency.c:133, :172) — latency_def's pair
    static constexpr block_text text{
        .banner = "OSU MPI Partitioned Latency Test",
        .figures = {{{.heading = "Overall(us)", .source = "t_avg_us", .name = "overall_us"}}},
        .nonblocking = true};
    using verify_check = partition_check;

    static std::string refusal_with(const options& o, int /*world_size*/) {
        if (MPI_VERSION < 4)  // Open MPI 4.1 is MPI-3.1: no partitioned communication
            return "partitioned_latency needs MPI-4's partitioned communication "
                   "(MPI_Psend_init); this MPI library implements MPI " +
                   std::to_string(MPI_VERSION) + "." + std::to_string(MPI_SUBVERSION);
        // one element per partition at least, of -T's smallest datatype (MPI_CHAR by default)
        std::uint64_t element = o.datatypes.empty() ? 1 : element_bytes(o.datatypes.front());
        for (const datatype d : o.datatypes) element = std::min(element, element_bytes(d));
        for (const std::uint64_t x : message_sizes(o, max_bytes, 1, smallest_bytes))
            if (x / element >= o.partitions) return {};
        return "-m " + (o.min_bytes ? std::to_string(*o.min_bytes) + ":" : std::string()) +
               std::to_string(o.max_bytes.value_or(max_bytes)) +
               ": partitioned_latency has no message size of at least -q " +
               std::to_string(o.partitions) + " elements (one per partition at least, as OSU)";
    }
    static std::vector<std::string> header_lines(const options& o) {
        return {"# Partitions: " + std::to_string(o.partitions) + "\t"};  // OSU 7.5's "%i\t"
    }

    [[nodiscard]] static mpi::measurement measure_size(const mpi::session& s, const options& o,
                                                       const mpi::record_labels& labels,
                                                       std::uint64_t x, const message_plan& plan) {
        const pattern::exchange p = descriptor(o);
        const auto bytes = static_cast<std::size_t>(x);
        const int partitions = static_cast<int>(o.partitions);
        const mpi::kernel_context context = s.context(bytes, pattern::pairing_of(p));
        mpi::measurement out = measure_pure_then_overall(
            s, o, labels, x, plan, p, context,
            mpi::persistent_requests(
                mpi::message_resource(layout(bytes, 2), {}, s.send_pool(), s.recv_pool()),
                context, partitioned_requests{.partitions = partitions,
                                              .elements = message_elements::of(o, bytes)}),
            partition_check{.partitions = o.partitions,
                            .element = element_bytes(o.table_datatype)},
            [partitions] { return partitioned_loops{.partitions = partitions}; });
        for (result_record& r : out.records)
            r.metrics["partitions"] = static_cast<double>(partitions);
        return out;
    }
};

}  // namespace parbench::osu
