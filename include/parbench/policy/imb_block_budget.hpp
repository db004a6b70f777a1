// IMB 2021.11's -time as a wall-clock budget per block (one process count, one mode), beside its
// cap on each size's repetitions (policy/imb_repetition_chain.hpp).
//
// IMB starts a clock on every process when the process count or the mode changes
// (helper_sync_globals_2: `sample_time = MPI_Wtime()`, src_cpp/helpers/helper_IMB_functions.h:
// 755-759, called at src_cpp/helpers/original_benchmark.h:163-175). After each size's probe runs
// (IMB_init_buffers_iter, original_benchmark.h:192) and before its timed run, helper_time_check
// (helper_IMB_functions.h:775-789, called at original_benchmark.h:193) marks the size on a
// process whose clock reads more than
//
//     max(max(n_lens, max_msg_log - min_msg_log) - 1, 1) * SECS_PER_SAMPLE
//
// (n_lens: the number of -msglen/-msgsize lengths, 0 with -msglog; min/max_msg_log: -msglog's,
// 0:22 by default, also with a length list), and the minimum of the marks over MPI_COMM_WORLD
// stops the benchmark: that size prints "time-out." instead of figures (src_c/IMB_output.c:
// 360-386), and its remaining sizes, its other mode and its larger process counts print nothing
// (original_benchmark.h:140-141). The next benchmark starts with a clock of its own.
//
// One object serves one block, on every process alike: the family starts each size; the first
// timing of the size asks `over` after its probe (parbench's warm-up chunks) and settles the
// verdict all processes agreed on; a later timing of the same size (IMB-NBC's t_ovrl) keeps it,
// as IMB checks once per size. No MPI here: the caller reads the clock (MPI_Wtime).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

namespace parbench::policy::iterations {

// IMB 2021's budget of one block in seconds under a -time of `secs`: n_lens lengths from
// -msglen/-msgsize (0 without), -msglog min_log:max_log (helper_IMB_functions.h:779).
[[nodiscard]] constexpr double imb2021_block_limit_s(double secs, std::uint64_t n_lens,
                                                     int min_log, int max_log) noexcept {
    const auto lens = static_cast<long long>(
        std::min<std::uint64_t>(n_lens, std::numeric_limits<int>::max()));
    const long long span = static_cast<long long>(max_log) - min_log;
    return static_cast<double>(std::max(std::max(lens, span) - 1, 1LL)) * secs;
}

class imb_block_budget {
public:
    // No budget: no size ever runs out.
    imb_block_budget() = default;
    explicit imb_block_budget(double limit_s) noexcept : limit_s_(limit_s) {}

    [[nodiscard]] double limit_s() const noexcept { return limit_s_; }

    // Before each size of the block (`now_s`: this process's clock): the block's clock starts at
    // its first size; the size's verdict is open.
    void start_size(double now_s) noexcept {
        if (!started_) start_s_ = now_s;
        started_ = true;
        verdict_ = verdict::open;
    }

    // Whether the current size is still to be checked (its first timing, after the probe).
    [[nodiscard]] bool undecided() const noexcept { return verdict_ == verdict::open; }
    // This process's mark at `now_s`: the block's clock past the budget.
    [[nodiscard]] bool over(double now_s) const noexcept {
        return started_ && now_s - start_s_ > limit_s_;
    }
    // The verdict every process agreed on: any process's mark times the size out.
    void settle(bool timed_out) noexcept {
        verdict_ = timed_out ? verdict::timed_out : verdict::in_time;
    }
    // The current size ran out: it is not timed, and the benchmark ends with it.
    [[nodiscard]] bool timed_out() const noexcept { return verdict_ == verdict::timed_out; }

private:
    enum class verdict { open, in_time, timed_out };
    double limit_s_ = std::numeric_limits<double>::infinity();
    double start_s_ = 0.0;
    bool started_ = false;
    verdict verdict_ = verdict::open;
};

}  // namespace parbench::policy::iterations
