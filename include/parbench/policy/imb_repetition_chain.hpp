// IMB 2021.11's repetition count under `-iter_policy dynamic` (and `auto` for a benchmark
// without a root), across the sizes of one block: one process count, one mode
// (src_cpp/helpers/helper_IMB_functions.h:589-699; the block is what `iter` counts, reset when
// the process count or the mode changes, src_cpp/helpers/original_benchmark.h:163-175).
//
// For each size IMB takes the volume rule's count `selected` and the time cap
//   t_sample = (int)(float)(1 + SECS_PER_SAMPLE / t)        (no cap when t <= 1e-8 s; :655-659)
// from the time t of one iteration (its probe runs; parbench's estimate), and then
//  * with IMB's own length sequence (-msglog): n = min(selected, n_prev, t_sample), n_prev being
//    MSGSPERSAMPLE at the block's first size and the previous size's n after it (:595-596,
//    :672-673, :699), so a block's counts never rise;
//  * with a length list (-msglen, -msgsize): t_sample is first adjusted against every earlier
//    size of the block, in the list's order — at most the count of an earlier smaller length, at
//    least the count of an earlier length that is not smaller (:662-670) — then
//    n = min(selected, t_sample).
// The IMB 4.0 rule (policy::iterations::imb_volume without a chain) is min(selected,
// floor(SECS_PER_SAMPLE / t)) per size.
//
// One object serves one block, on every process alike (the estimate is agreed with MPI_MAX). A
// size may be decided more than once (IMB-NBC's t_pure and t_ovrl timings): IMB decides once per
// size and runs every timing of it with that count, so the first decision is kept.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace parbench::policy::iterations {

// IMB 2021's time cap of one size: 1 + secs / t, through float and int as IMB computes it;
// `selected` (no cap) when t is at most 1e-8 s or the quotient does not fit in an int.
[[nodiscard]] inline std::uint64_t imb2021_time_cap(double secs, double t_s,
                                                    std::uint64_t selected) noexcept {
    const auto val = static_cast<float>(1.0 + secs / t_s);
    if (!(t_s > 1e-8) || !(val <= static_cast<float>(0x7fffffff))) return selected;
    return static_cast<std::uint64_t>(static_cast<int>(val));
}

// IMB 2021's second probe run of a size (src_cpp/helpers/helper_IMB_functions.h:621-633): after
// one repetition that took `first_s` (the maximum over the processes), rep_test =
// `msgs_per_sample` (the compiled MSGSPERSAMPLE) where first_s < 1 / msgs_per_sample, else
// (int)(1 / first_s + 0.5) where first_s < 1 s, else 1; the benchmark then runs again with
// min(selected, rep_test) repetitions where that is more than one. Returns those repetitions,
// 0 where IMB runs no second probe.
[[nodiscard]] inline std::uint64_t imb2021_probe_repetitions(std::uint64_t selected,
                                                             double first_s,
                                                             std::uint64_t msgs_per_sample) noexcept {
    std::uint64_t rep_test = 1;
    if (first_s < 1.0 / static_cast<double>(std::max<std::uint64_t>(msgs_per_sample, 1)))
        rep_test = msgs_per_sample;
    else if (first_s < 1.0)
        rep_test = static_cast<std::uint64_t>(static_cast<int>(1.0 / first_s + 0.5));
    const std::uint64_t n = std::min(selected, rep_test);
    return n > 1 ? n : 0;
}

class imb_repetition_chain {
public:
    imb_repetition_chain() = default;
    // `msgs_per_sample`: IMB's MSGSPERSAMPLE, the first size's n_prev; `length_list`: the
    // lengths come from -msglen/-msgsize.
    imb_repetition_chain(std::uint64_t msgs_per_sample, bool length_list) noexcept
        : previous_(msgs_per_sample), length_list_(length_list) {}

    // The next size of the block (before its decision).
    void start_size(std::uint64_t bytes) noexcept {
        bytes_ = bytes;
        decided_.reset();
        probe_.reset();
    }
    // The current size's second probe run (imb2021_probe_repetitions); as for the count, the
    // first answer of a size is kept: IMB probes once per size, and every timing of it (IMB-IO's
    // t_pure and t_ovrl, one Benchmark call in IMB) runs that probe.
    [[nodiscard]] std::uint64_t probe_rest(std::uint64_t selected, double first_s,
                                           std::uint64_t msgs_per_sample) {
        if (!probe_) probe_ = imb2021_probe_repetitions(selected, first_s, msgs_per_sample);
        return *probe_;
    }

    // The count of the current size from the volume rule's `selected` and the time of one
    // iteration `t_s` under a -time of `secs`; the first decision of a size is kept.
    [[nodiscard]] std::uint64_t decide(std::uint64_t selected, double t_s, double secs) {
        if (decided_) return *decided_;
        std::uint64_t t_sample = imb2021_time_cap(secs, t_s, selected);
        std::uint64_t n = 0;
        if (length_list_) {
            for (const auto& [bytes, count] : earlier_)
                t_sample = bytes < bytes_ ? std::min(t_sample, count) : std::max(t_sample, count);
            n = std::min(selected, t_sample);
            earlier_.emplace_back(bytes_, n);
        } else {
            n = std::min({selected, previous_, t_sample});
        }
        n = std::max<std::uint64_t>(n, 1);
        previous_ = n;
        decided_ = n;
        return n;
    }

private:
    std::uint64_t previous_ = 1000;  // n_sample_prev
    bool length_list_ = false;
    std::uint64_t bytes_ = 0;        // the current size
    std::optional<std::uint64_t> decided_;
    std::optional<std::uint64_t> probe_;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> earlier_;  // (bytes, n), list order
};

}  // namespace parbench::policy::iterations
