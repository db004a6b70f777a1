// OSU's blocking collective latency tests (osu_allgather ... osu_scatterv) as definitions for
// osu/messages.hpp, on every process of the run, and the broadcast-with-acknowledgement method
// of catalogue E (F97) as bcast_ack.
//
// The collective calls are IMB-MPI1's definitions (parbench/suites/imb/mpi1.hpp: the same calls,
// buffer layouts and -check), with OSU's root: process 0 (or -k's) where IMB rotates it (i % n).
// The IMB kernel sees every iteration as iteration 0, which only picks the root; OSU's buffers
// do not rotate (no -off_cache here). Elements are -T's datatype (osu/datatypes.hpp: MPI_CHAR,
// reductions MPI_SUM on MPI_INT by default), X / size(type) of them.
// The table is OSU's: Avg Latency(us), the mean over the processes of each one's time per
// call (with -f also the min, max and iterations).
//
// alltoallw and reduce_scatter_block (OSU 7.5) are OSU's own definitions below, in the same
// interface as IMB's.
//
// bcast_ack: at each size, first a zero-byte ping-pong between process 0 and the last process
// gives the one-way acknowledgement time; then each iteration is MPI_Bcast from 0 followed by a
// zero-byte acknowledgement from the last process to the root, and the latency is the root's
// time per iteration (the slowest: it waits for the acknowledgement) minus the acknowledgement
// time (OSU 2.0's method). The record's times are those of the broadcast alone; the time with
// the acknowledgement and the acknowledgement's are its metrics bcast_with_ack_us and ack_us.
#pragma once

#include "osu/datatypes.hpp"
#include "osu/in_place.hpp"
#include "osu/messages.hpp"
#include "osu/options.hpp"
#include "osu/suite.hpp"

#include <parbench/core/statistics.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/pattern/collective.hpp>
#include <parbench/suites/imb/mpi1.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

namespace parbench::osu {

// A check that looks at the data of the operands it is given (IMB-MPI1's, as imb/driver.hpp).
template <class Check>
concept check_of_operands = requires(const imb_mpi1::sized_operands& o) { Check{o}; };

// An IMB-MPI1 collective definition with OSU's fixed root 0, or with RootOption -k's root
// (gather, gatherv, reduce, scatter, scatterv: the tests OSU 7.5 takes -k on), on the elements
// of -T's datatype (osu/datatypes.hpp) and with -l's MPI_IN_PLACE where OSU 7.5 takes it.
template <class Imb, const char* Banner, const char* Datatype = nullptr, bool RootOption = false>
struct collective_def : mpi::definition_defaults {
    static constexpr bool all_processes = true;
    // -d: every process's buffers in the accelerator's memory (allocate_memory_coll,
    // osu_util_mpi.c:2359-2400, with options.accel: osu_allreduce.c:87-107, osu_bcast.c:86-91)
    static constexpr device_placement device_buffers = device_placement::every;
    static constexpr policy::iterations::fixed_count counts = collective_counts;
    static constexpr std::uint64_t max_bytes = default_collective_max_bytes;
    // OSU 7.5 times each call with an MPI_Barrier after it; osu_barrier times the barrier alone
    // (osu_barrier.c lines 97-99).
    static constexpr int barriers_after_call = std::is_same_v<Imb, imb_mpi1::barrier_def> ? 0 : 1;
    // IMB's message unit and sizes, none of its other traits.
    static constexpr mpi::definition_traits traits{.has_bytes = Imb::traits.has_bytes,
                                                  .unit = Imb::traits.unit};
    // OSU 7.5's options of the test (osu_util_options.h): -T on every collective with data,
    // -l where in_place_of says, -k on the rooted tests that take it.
    static constexpr bool takes_datatype = Imb::traits.has_bytes;
    static constexpr bool sums_elements = Imb::traits.reduction;  // -T's default MPI_INT
    static constexpr in_place_use in_place = in_place_of<Imb>;
    static constexpr bool takes_in_place = in_place != in_place_use::none;
    static constexpr bool takes_root = RootOption;
    // -D on the blocking collectives that move data without reducing it (OSU 7.5's
    // OMBOP__COLLECTIVE__ALLTOALL, __GATHER, __SCATTER, __BCAST have D:, osu_util_options.h:72-84;
    // the reductions' strings have none): each process's block is one element of the derived
    // type of its X / size(T) elements (osu_alltoall.c:142-146, :169), counts 1 and the
    // v-displacements k of its extent (osu_alltoallv.c)
    static constexpr bool takes_ddt = Imb::traits.has_bytes && !Imb::traits.reduction;
    // -c on every collective with data (the barrier's string has no c::, :90-91)
    static constexpr const char* osu_letters =
        Imb::traits.has_bytes ? letters::collective : letters::barrier;
    static constexpr block_text text{
        .banner = Banner,
        // osu_barrier prints no datatype line (nor does osu_ibarrier, which takes this text)
        .datatype = Datatype != nullptr                              ? Datatype
                    : std::is_same_v<Imb, imb_mpi1::barrier_def> ? nullptr
                                                                 : "MPI_CHAR",
        .figures = {{{.heading = "Avg Latency(us)", .source = "t_avg_us"}}},
        .latency = true};

    static constexpr pattern::collective descriptor(const options& /*o*/) { return {}; }
    static mpi::buffer_layout layout(std::size_t x, int np) { return Imb::layout(x, np); }

    // IMB's kernel takes the root of iteration i as i % n (kernel_context::root): the iteration
    // it is given picks the root. Rotation passes i, a fixed root N passes N, root 0 passes 0.
    struct root_pick {
        bool rotate = false;
        std::uint64_t fixed = 0;
        [[nodiscard]] std::uint64_t iteration(std::uint64_t i) const noexcept {
            return rotate ? i : fixed;
        }
    };
    [[nodiscard]] static root_pick root_of(const options& o) noexcept {
        if constexpr (RootOption) return {.rotate = o.root.rotate, .fixed = o.root.rank};
        return {};
    }
    // The operands of a size: -T's datatype, X / size(type) elements.
    [[nodiscard]] static imb_mpi1::sized_operands operands(const options& o, std::size_t x) {
        return operands_of(o.table_datatype, x);
    }
    struct kernel {
        typename Imb::kernel inner;
        root_pick root;
        bool in_place = false;  // -l
        std::shared_ptr<const derived_message_type> derived;  // -D's type, for the kernel's life
        template <class Buffers>
        void operator()(const mpi::kernel_context& c, std::uint64_t i, const Buffers& b) {
            const std::uint64_t picked = root.iteration(i);
            if (!in_place) return inner(c, picked, b);
            const in_place_sides sides =
                in_place_sides_of(collective_def::in_place, c.rank == c.root(picked));
            inner(c, picked,
                  in_place_buffers<Buffers>{
                      .b = b, .send_in_place = sides.send, .receive_in_place = sides.receive});
        }
    };
    static kernel make_kernel(const mpi::kernel_context& c, const options& o) {
        if constexpr (requires { Imb::make_kernel(c, operands(o, c.bytes)); }) {
            imb_mpi1::sized_operands ops = operands(o, c.bytes);
            std::shared_ptr<const derived_message_type> derived;
            if (takes_ddt && o.ddt.given()) {
                derived = std::make_shared<const derived_message_type>(o.ddt, ops.data.type,
                                                                       ops.data.count);
                ops.data.type = derived->get();
                ops.data.count = 1;
            }
            return {Imb::make_kernel(c, ops), root_of(o), takes_in_place && o.in_place,
                    std::move(derived)};
        } else {
            return {Imb::make_kernel(c), root_of(o), false, nullptr};
        }
    }
    struct verify_check : Imb::verify_check {
        root_pick root;
        [[nodiscard]] auto verify(const mpi::kernel_context& c, std::uint64_t last,
                                  std::span<const std::byte> recv) const {
            return Imb::verify_check::verify(c, root.iteration(last), recv);
        }
    };
    // The check of -T's datatype (the element layout it fills and reads; counts come from the
    // context's bytes).
    static verify_check make_check(const options& o) {
        if constexpr (check_of_operands<typename Imb::verify_check>)
            return {typename Imb::verify_check{operands(o, 0)}, root_of(o)};
        else
            return {typename Imb::verify_check{}, root_of(o)};
    }
    // -k fixed:N names a process of the run (osu_util_mpi.c:967-969 ends OSU's run otherwise).
    static std::string refusal_with(const options& o, int world_size)
        requires RootOption
    {
        if (o.root.rotate || o.root.rank < static_cast<std::uint64_t>(world_size)) return {};
        return "-k fixed:" + std::to_string(o.root.rank) + ": the root must be a process of the " +
               "run, 0 to " + std::to_string(world_size - 1);
    }
};

// osu_alltoallw (OSU 7.5): MPI_Alltoallw moving what osu_alltoall moves — X / size(type)
// elements of -T's datatype to and from every process, at byte displacements k X, with one
// datatype per process (osu_alltoallw.c:165-190). Its buffers, pattern and -c are IMB's
// Alltoall's.
struct alltoallw_def : mpi::definition_defaults {
    static constexpr device_placement device_buffers = device_placement::every;
    using alltoall = imb_mpi1::alltoall_def<false>;
    static constexpr pattern::collective descriptor = alltoall::descriptor;
    static mpi::buffer_layout layout(std::size_t x, int np) { return alltoall::layout(x, np); }
    struct kernel {
        imb_mpi1::v_counts v;  // counts X / size(type), displacements k X in bytes
        std::vector<MPI_Datatype> types;
        template <class Buffers>
        void operator()(const mpi::kernel_context& c, std::uint64_t i, const Buffers& b) const {
            MPI_Alltoallw(b.send(i), v.counts.data(), v.displs.data(), types.data(), b.recv(i),
                          v.counts.data(), v.displs.data(), types.data(), c.comm);
        }
    };
    static kernel make_kernel(const mpi::kernel_context& c, const imb_mpi1::sized_operands& o) {
        imb_mpi1::v_counts v(o.data.count, c.size);
        for (int k = 0; k < c.size; ++k)
            v.displs[static_cast<std::size_t>(k)] = k * static_cast<int>(c.bytes);
        return {std::move(v),
                std::vector<MPI_Datatype>(static_cast<std::size_t>(c.size), o.data.type)};
    }
    using verify_check = alltoall::verify_check;
};
template <>
inline constexpr in_place_use in_place_of<alltoallw_def> = in_place_use::send;

// osu_reduce_scatter_block (OSU 7.5): X bytes are the whole vector, X / size(type) elements of
// -T's datatype summed; each process receives its block of (X / size(type)) / n elements
// (MPI_Reduce_scatter_block's count, `portion`, osu_reduce_scatter_block.c:147); the remainder
// is not reduced, and where the elements are fewer than n the block is empty and OSU still times
// the call. The receive buffer holds X, as -l's MPI_IN_PLACE reads the whole vector from it.
struct reduce_scatter_block_def : mpi::definition_defaults {
    static constexpr device_placement device_buffers = device_placement::every;
    static constexpr mpi::definition_traits traits{.unit = sizeof(float), .reduction = true};
    static constexpr pattern::collective descriptor = imb_mpi1::plain_collective;
    static mpi::buffer_layout layout(std::size_t x, int /*np*/) { return {x, x}; }
    struct kernel {
        imb_mpi1::reduction_call r;
        template <class Buffers>
        void operator()(const mpi::kernel_context& c, std::uint64_t i, const Buffers& b) const {
            MPI_Reduce_scatter_block(b.send(i), b.recv(i), r.data.count, r.data.type, r.op,
                                     c.comm);
        }
    };
    static kernel make_kernel(const mpi::kernel_context& c, const imb_mpi1::sized_operands& o) {
        imb_mpi1::reduction_call r = imb_mpi1::reduction_call::of(o);
        r.data.count /= c.size;
        return {r};
    }
    struct verify_check : imb_mpi1::values_of_rank {
        [[nodiscard]] mpi::check::findings verify(const mpi::kernel_context& c,
                                                  std::uint64_t /*last*/,
                                                  std::span<const std::byte> recv) const {
            const std::uint64_t n =
                c.bytes / reduction.layout.size / static_cast<std::uint64_t>(c.size);
            return defects(recv, n * reduction.layout.size, c.size,
                           static_cast<std::uint64_t>(c.rank) * n);
        }
    };
};
template <>
inline constexpr in_place_use in_place_of<reduce_scatter_block_def> = in_place_use::send;

// bcast_ack's two kernels: the acknowledgement's ping-pong, and the broadcast with it.
inline constexpr int tag_ack = 102;

struct ack_ping_pong_kernel {
    template <class Buffers>
    void operator()(const mpi::kernel_context& c, std::uint64_t /*i*/, const Buffers& /*b*/) const {
        const int last = c.size - 1;
        if (c.rank == 0) {
            MPI_Send(nullptr, 0, MPI_CHAR, last, tag_ack, c.comm);
            MPI_Recv(nullptr, 0, MPI_CHAR, last, tag_ack, c.comm, MPI_STATUS_IGNORE);
        } else if (c.rank == last) {
            MPI_Recv(nullptr, 0, MPI_CHAR, 0, tag_ack, c.comm, MPI_STATUS_IGNORE);
            MPI_Send(nullptr, 0, MPI_CHAR, 0, tag_ack, c.comm);
        }
    }
};

struct bcast_with_ack_kernel {
    template <class Buffers>
    void operator()(const mpi::kernel_context& c, std::uint64_t i, const Buffers& b) const {
        const int last = c.size - 1;
        MPI_Bcast(c.rank == 0 ? b.send(i) : b.recv(i), static_cast<int>(c.bytes), MPI_CHAR, 0,
                  c.comm);
        if (c.rank == 0)
            MPI_Recv(nullptr, 0, MPI_CHAR, last, tag_ack, c.comm, MPI_STATUS_IGNORE);
        else if (c.rank == last)
            MPI_Send(nullptr, 0, MPI_CHAR, 0, tag_ack, c.comm);
    }
};

inline constexpr char bcast_ack_banner[] = "OSU MPI Broadcast Latency Test (acknowledged)";

struct bcast_ack_def : collective_def<imb_mpi1::bcast_def, bcast_ack_banner> {
    // OSU 2.0's loop: the broadcasts and acknowledgements timed as one batch, MPI_CHAR only.
    static constexpr int barriers_after_call = only_batched;
    static constexpr bool takes_datatype = false;
    static constexpr bool takes_ddt = false;
    static constexpr device_placement device_buffers = device_placement::none;  // not OSU 7.5's
    static constexpr const char* osu_letters = nullptr;  // every letter, as before 7.5's strings
    static constexpr block_text text{
        .banner = bcast_ack_banner,
        // the root waits for the acknowledgement: its time is the slowest
        .figures = {{{.heading = "Avg Latency(us)", .source = "t_max_us"}}},
        .latency = true};

    static bcast_with_ack_kernel make_kernel(const mpi::kernel_context& /*c*/,
                                             const options& /*o*/) {
        return {};
    }

    // The one-way acknowledgement time of the root (process 0) and the last process: half the
    // slowest process's round trip of a zero-byte ping-pong.
    [[nodiscard]] static double ack_time_us(const mpi::session& s, const mpi::record_labels& labels,
                                            const message_plan& plan) {
        const pattern::collective ping_pong{.time_divisor = 2.0};
        const mpi::measurement m =
            mpi::measure(s, mpi::measure_config{.pattern = ping_pong,
                                                .labels = labels,
                                                .resource = mpi::messages{.layout = {0, 0}},
                                                .kernel = ack_ping_pong_kernel{},
                                                .plan = plan});
        double ack_us = m.records.empty() ? 0.0 : m.records.front().t_max_us;
        // every process subtracts the same figure (only world rank 0 holds the records)
        MPI_Bcast(&ack_us, 1, MPI_DOUBLE, 0, s.world().get());
        return ack_us;
    }

    [[nodiscard]] static mpi::measurement measure_size(const mpi::session& s, const options& o,
                                                       const mpi::record_labels& labels,
                                                       std::uint64_t x, const message_plan& plan) {
        const double ack_us = ack_time_us(s, labels, plan);
        mpi::measurement m = measure_message_size<bcast_ack_def>(s, o, labels, x, plan);
        // The record's times become the broadcast's: each minus the acknowledgement.
        const auto minus_ack = [ack_us](double t) { return std::max(0.0, t - ack_us); };
        for (auto& r : m.records) {
            r.metrics["ack_us"] = ack_us;
            r.metrics["bcast_with_ack_us"] = r.t_max_us;
            r.t_min_us = minus_ack(r.t_min_us);
            r.t_max_us = minus_ack(r.t_max_us);
            r.t_avg_us = minus_ack(r.t_avg_us);
            for (double& t : r.samples_us) t = minus_ack(t);
            r.distribution_us = summarize(r.samples_us);
        }
        // -z's series (the root's, which waits for the acknowledgement), in seconds per call
        if (m.reduced)
            for (double& t : m.reduced->first_s) t = minus_ack(t * 1e6) * 1e-6;
        return m;
    }
};

}  // namespace parbench::osu
