// Iteration policies: how many times one timed loop repeats the kernel, and how many untimed
// iterations warm it up first (the warm-up belongs to the policy).
//
//  * fixed        — a given count and warm-up, always.
//  * fixed_count  — OSU's -i/-x: one count and warm-up for small messages, another for messages
//                   above a threshold.
//  * time_budget  — as many as fit in a time budget, at most a cap.
//  * imb_volume   — IMB's rule: n = MSGSPERSAMPLE for X = 0, else max(1, min(MSGSPERSAMPLE,
//                   OVERALL_VOL / X)); MSGS_NONAGGR replaces MSGSPERSAMPLE for non-aggregate
//                   kernels; then the -time cap and -iter_policy (dynamic, multiple_np, auto,
//                   off) adjust it.
//  * paw_nloop    — PAW's calibration against the timer overhead (policy/paw_nloop.hpp).
//
// Policies are plain aggregates configured with designated initialisers, e.g.
// `imb_volume{.msgs_per_sample = 2000, .secs_per_sample = 1.5}`. The MPI runner asks a policy
// (iteration_policy below) for the most iterations a size may time — resources are sized for
// it — and the warm-up; it runs the warm-up, agrees the per-iteration estimate with MAX over the
// processes, and lets the policy decide the final count, so every process decides alike. A
// policy with a `block_budget()` (imb_volume under IMB 2021: policy/imb_block_budget.hpp) also
// has the runner check, in the same agreement, whether the size's block ran out of time.
#pragma once

#include <parbench/core/error.hpp>
#include <parbench/core/sizes.hpp>
#include <parbench/policy/imb_block_budget.hpp>
#include <parbench/policy/imb_repetition_chain.hpp>

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace parbench::policy::iterations {

struct fixed {
    std::uint64_t count = 1000;
    std::uint64_t warmup_count = 0;
    [[nodiscard]] constexpr std::uint64_t n_sample(std::uint64_t /*bytes*/,
                                                   bool /*aggregate*/ = true) const noexcept {
        return count;
    }
    [[nodiscard]] constexpr std::uint64_t warmup(std::uint64_t /*bytes*/,
                                                 bool /*aggregate*/ = true) const noexcept {
        return warmup_count;
    }
    [[nodiscard]] static constexpr double warmup_budget_s() noexcept {
        return std::numeric_limits<double>::infinity();
    }
    [[nodiscard]] constexpr std::uint64_t decide(std::uint64_t bytes, bool aggregate,
                                                 double /*estimate_s*/, int /*processes*/,
                                                 bool /*rooted*/) const noexcept {
        return n_sample(bytes, aggregate);
    }
};

// OSU's counts (-i ITER, -x WARMUP; separate counts above large_bytes, as OSU's *_LARGE).
struct fixed_count {
    std::uint64_t iterations = 10000;
    std::uint64_t skip = 100;
    std::uint64_t large_iterations = 1000;
    std::uint64_t large_skip = 10;
    std::uint64_t large_bytes = 8192;  // OSU's LARGE_MESSAGE_SIZE: above it the large counts

    [[nodiscard]] constexpr std::uint64_t n_sample(std::uint64_t bytes,
                                                   bool /*aggregate*/ = true) const noexcept {
        return std::max<std::uint64_t>(1, bytes > large_bytes ? large_iterations : iterations);
    }
    [[nodiscard]] constexpr std::uint64_t warmup(std::uint64_t bytes,
                                                 bool /*aggregate*/ = true) const noexcept {
        return bytes > large_bytes ? large_skip : skip;
    }
    [[nodiscard]] static constexpr double warmup_budget_s() noexcept {
        return std::numeric_limits<double>::infinity();
    }
    [[nodiscard]] constexpr std::uint64_t decide(std::uint64_t bytes, bool aggregate,
                                                 double /*estimate_s*/, int /*processes*/,
                                                 bool /*rooted*/) const noexcept {
        return n_sample(bytes, aggregate);
    }
};

// As many iterations as fit in `seconds` (by the warm-up's estimate), at least one, at most
// max_iterations.
struct time_budget {
    double seconds = 1.0;
    std::uint64_t max_iterations = 1000000;
    std::uint64_t warmup_count = 10;

    [[nodiscard]] constexpr std::uint64_t n_sample(std::uint64_t /*bytes*/,
                                                   bool /*aggregate*/ = true) const noexcept {
        return std::max<std::uint64_t>(1, max_iterations);
    }
    [[nodiscard]] constexpr std::uint64_t warmup(std::uint64_t /*bytes*/,
                                                 bool /*aggregate*/ = true) const noexcept {
        return warmup_count;
    }
    [[nodiscard]] constexpr double warmup_budget_s() const noexcept { return 0.5 * seconds; }
    [[nodiscard]] std::uint64_t decide(std::uint64_t bytes, bool aggregate, double estimate_s,
                                       int /*processes*/, bool /*rooted*/) const noexcept {
        const std::uint64_t cap = n_sample(bytes, aggregate);
        if (!(estimate_s > 0.0)) return cap;
        const double affordable = std::floor(seconds / estimate_s);
        return affordable < static_cast<double>(cap)
                   ? std::max<std::uint64_t>(1, static_cast<std::uint64_t>(affordable))
                   : cap;
    }
};

enum class imb_policy { dynamic, multiple_np, automatic, off };

[[nodiscard]] constexpr std::string_view to_string(imb_policy p) noexcept {
    switch (p) {
        case imb_policy::dynamic: return "dynamic";
        case imb_policy::multiple_np: return "multiple_np";
        case imb_policy::automatic: return "auto";
        case imb_policy::off: return "off";
    }
    return "dynamic";
}

[[nodiscard]] inline bool parse_imb_policy(std::string_view text, imb_policy& policy) noexcept {
    for (auto p : {imb_policy::dynamic, imb_policy::multiple_np, imb_policy::automatic,
                   imb_policy::off}) {
        if (text == to_string(p)) {
            policy = p;
            return true;
        }
    }
    return false;
}

struct imb_volume {
    std::uint64_t msgs_per_sample = 1000;           // MSGSPERSAMPLE
    std::uint64_t overall_vol_bytes = 40ull << 20;  // OVERALL_VOL (40 MB)
    std::uint64_t msgs_nonaggr = 100;               // MSGS_NONAGGR
    imb_policy policy = imb_policy::dynamic;        // ITER_POLICY
    double secs_per_sample = 10.0;                  // SECS_PER_SAMPLE, -time
    // parbench's warm-up at the measured size: max(ceil(n / warmup_divisor), min_warmup)
    // iterations (at most n). It warms up the path for this size (large messages change
    // protocol) and gives the -time estimate at little cost.
    std::uint64_t warmup_divisor = 20;
    std::uint64_t min_warmup = 3;
    // IMB 2021's count under the dynamic policy (policy/imb_repetition_chain.hpp): where set, the
    // dynamic decision is the chain's (its time cap, and the sizes before this one in the
    // block); not owned. nullptr: the IMB 4.0 rule below.
    imb_repetition_chain* imb2021_chain = nullptr;
    // IMB 2021's -time budget of the block this size belongs to (policy/imb_block_budget.hpp):
    // where set, the timing checks it after the size's probe and does not time a size that ran
    // out; not owned. nullptr: no budget (IMB 4.0: -time caps each size's repetitions only).
    imb_block_budget* imb2021_budget = nullptr;
    // IMB 2021's count under multiple_np (and auto for a benchmark with a root): where >= 0, the
    // binary log of the run's largest length (-msglog's max), and decide() takes IMB 2021's
    // hyperbola (imb2021_multiple_np_count) instead of the rule below. < 0: the IMB 4.0 rule.
    int imb2021_hyperbola_max_log = -1;
    // IMB 2021's untimed run under multiple_np (and auto for a benchmark with a root): where > 0
    // (the group's processes; with imb2021_hyperbola_max_log set), IMB_init_buffers_iter runs
    // the benchmark once with the hyperbola's count before the timed run
    // (src_cpp/helpers/helper_IMB_functions.h:691-694: the branch taken whenever the dynamic
    // calibration is not), so the warm-up is that count, and so is the most a size times
    // (n_sample: the room of files). 0: the volume rule's n and warm-up.
    int imb2021_pre_run_processes = 0;
    // IMB 2021's untimed run under -iter_policy off: IMB_init_buffers_iter takes the same branch
    // as under multiple_np (src_cpp/helpers/helper_IMB_functions.h:690-694, the `else` of the
    // dynamic calibration at :590) and runs the benchmark once with the whole count
    // (msgspersample, :407-408) before the timed run, so the warm-up is the whole count. false:
    // parbench's warm-up of max(n / warmup_divisor, min_warmup).
    bool imb2021_untimed_run = false;
    // IMB 2021's probe of each size under the dynamic policy (imb-io: methodology::io_probe_cap):
    // where > 0 (IMB's compiled MSGSPERSAMPLE) and an imb2021_chain is set, the warm-up is one
    // repetition, then imb2021_probe_rest's, in one run, its time the estimate (IMB's two
    // calibration runs, helper_IMB_functions.h:602-653). 0: parbench's warm-up of
    // max(n / warmup_divisor, min_warmup) in chunks.
    std::uint64_t imb2021_probe_cap = 0;

    [[nodiscard]] imb_block_budget* block_budget() const noexcept { return imb2021_budget; }

    // Whether a size's warm-up is IMB 2021's probe (imb2021_probe_cap with a chain; the cap is
    // set only where the benchmark's effective policy is dynamic).
    [[nodiscard]] constexpr bool imb2021_probes() const noexcept {
        return imb2021_probe_cap > 0 && imb2021_chain != nullptr;
    }
    // IMB 2021's probe: after one repetition that took `first_s` (agreed), the repetitions of
    // the second probe run (0: none); the first answer of a size is kept (the chain's).
    [[nodiscard]] std::uint64_t imb2021_probe_rest(std::uint64_t bytes, bool aggregate,
                                                   double first_s) const {
        if (!imb2021_probes()) return 0;
        return imb2021_chain->probe_rest(n_sample(bytes, aggregate), first_s, imb2021_probe_cap);
    }

    // IMB 2021's repetitions under multiple_np (src_cpp/helpers/helper_IMB_functions.h:409-421):
    // tmp = (int)(msgs_per_sample * 2^max_log / (np * max(X, 4) + 2^max_log) + 0.5) and
    // n = max(tmp - tmp mod np, np), np the group's processes: "a negative leg of hyperbola" in
    // X, a multiple of np, with no volume rule and no -time cap (the dynamic code is skipped,
    // :590). 4 is sizeof(assign_type) (IMB_settings.h:142-149), IMB's smallest length here.
    [[nodiscard]] constexpr std::uint64_t imb2021_multiple_np_count(std::uint64_t bytes,
                                                                    int processes) const noexcept {
        const auto largest =
            static_cast<double>(std::uint64_t{1} << std::clamp(imb2021_hyperbola_max_log, 0, 62));
        const auto np = static_cast<std::uint64_t>(std::max(processes, 1));
        const double x = static_cast<double>(std::max<std::uint64_t>(bytes, 4));
        const auto tmp = static_cast<std::uint64_t>(
            static_cast<double>(msgs_per_sample) * largest / (static_cast<double>(np) * x + largest) +
            0.5);
        return std::max(tmp - tmp % np, np);
    }

    [[nodiscard]] constexpr bool imb2021_pre_runs() const noexcept {
        return imb2021_pre_run_processes > 0 && imb2021_hyperbola_max_log >= 0;
    }

    // The volume rule alone (before the run-time cap); IMB 2021's hyperbola where it pre-runs.
    [[nodiscard]] constexpr std::uint64_t n_sample(std::uint64_t bytes,
                                                   bool aggregate = true) const noexcept {
        if (imb2021_pre_runs()) return imb2021_multiple_np_count(bytes, imb2021_pre_run_processes);
        const std::uint64_t cap = aggregate ? msgs_per_sample : msgs_nonaggr;
        if (policy == imb_policy::off || bytes == 0) return std::max<std::uint64_t>(cap, 1);
        return std::max<std::uint64_t>(1, std::min(cap, overall_vol_bytes / bytes));
    }

    [[nodiscard]] constexpr std::uint64_t warmup(std::uint64_t bytes,
                                                 bool aggregate = true) const noexcept {
        const std::uint64_t n = n_sample(bytes, aggregate);
        if (imb2021_pre_runs() || imb2021_untimed_run) return n;  // IMB 2021's untimed run
        const std::uint64_t divisor = std::max<std::uint64_t>(1, warmup_divisor);
        return std::clamp<std::uint64_t>(std::max((n + divisor - 1) / divisor, min_warmup), 1, n);
    }
    // The warm-up is cut so that it takes at most half the -time budget.
    [[nodiscard]] constexpr double warmup_budget_s() const noexcept { return 0.5 * secs_per_sample; }

    // The policy that applies to one benchmark: `auto` resolves to multiple_np for collectives
    // with a (rotating) root and to dynamic otherwise.
    [[nodiscard]] constexpr imb_policy effective_policy(bool rooted_collective) const noexcept {
        if (policy == imb_policy::automatic)
            return rooted_collective ? imb_policy::multiple_np : imb_policy::dynamic;
        return policy;
    }

    // The final count: the largest that satisfies every restriction. `estimate_s` is the
    // (collectively agreed) time of one iteration from the preparatory run; `processes` the
    // active group size. dynamic: cut so that n * estimate <= secs_per_sample (with an
    // imb2021_chain: IMB 2021's cap and chain across the block's sizes instead). multiple_np:
    // the same cut, then rounded to a multiple of the process count so that a rotating root
    // visits every rank equally often. off: never changed.
    [[nodiscard]] std::uint64_t decide(std::uint64_t bytes, bool aggregate, double estimate_s,
                                       int processes, bool rooted_collective) const noexcept {
        const std::uint64_t base = n_sample(bytes, aggregate);
        const imb_policy p = effective_policy(rooted_collective);
        if (p == imb_policy::off) return base;
        if (p == imb_policy::multiple_np && imb2021_hyperbola_max_log >= 0)
            return imb2021_multiple_np_count(bytes, processes);
        if (p == imb_policy::dynamic && imb2021_chain != nullptr)
            return imb2021_chain->decide(base, estimate_s, secs_per_sample);
        std::uint64_t n = base;
        if (estimate_s > 0.0 && secs_per_sample > 0.0) {
            const double affordable = std::floor(secs_per_sample / estimate_s);
            if (affordable < static_cast<double>(n))
                n = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(affordable));
        }
        if (p == imb_policy::multiple_np && processes > 1) {
            const auto np = static_cast<std::uint64_t>(processes);
            n = std::max(np, n / np * np);
        }
        return n;
    }
};

// "-iter msgspersample[,overall_vol[,msgs_nonaggr]][,policy]" or "-iter policy". overall_vol is
// in MB (2^20 bytes), as IMB's default "40 Mbytes".
[[nodiscard]] inline imb_volume parse_imb_iter(std::string_view text, imb_volume base) {
    const std::string shown(text);
    const std::string expected = "; expected msgspersample[,overall_vol[,msgs_nonaggr]][,policy]";
    int field = 0;
    bool policy_seen = false;
    while (true) {
        const auto comma = text.find(',');
        const auto item = parbench::trim(text.substr(0, comma));
        std::uint64_t value = 0;
        imb_policy policy{};
        // The policy word is the last field (IMB's syntax); anything after it is a mistake.
        if (policy_seen)
            throw input_error("-iter " + shown + ": '" + std::string(item) +
                              "' follows the policy word" + expected);
        if (parse_imb_policy(item, policy)) {
            base.policy = policy;
            policy_seen = true;
        } else if (field < 3 && parbench::parse_unsigned(item, value) && value > 0) {
            if (field == 1 && value > (std::numeric_limits<std::uint64_t>::max() >> 20))
                throw input_error("-iter " + shown + ": overall_vol " + std::string(item) +
                                  " MB does not fit in 64-bit bytes" + expected);
            if (field == 0) base.msgs_per_sample = value;
            if (field == 1) base.overall_vol_bytes = value << 20;
            if (field == 2) base.msgs_nonaggr = value;
            ++field;
        } else if (parbench::integer_problem(item, "") != "") {
            throw input_error("-iter " + shown + ": '" + std::string(item) + "' out of range" +
                              (field >= 3 ? " (at most three numbers)" : "") + expected);
        } else {
            throw input_error("-iter " + shown + ": '" + std::string(item) +
                              "' is neither a positive integer nor a policy (dynamic, "
                              "multiple_np, auto, off)" + expected);
        }
        if (comma == std::string_view::npos) break;
        text = text.substr(comma + 1);
    }
    return base;
}

[[nodiscard]] inline imb_policy parse_iter_policy_option(std::string_view text) {
    imb_policy policy{};
    if (!parse_imb_policy(parbench::trim(text), policy))
        throw input_error("-iter_policy " + std::string(text) +
                          ": expected one of dynamic, multiple_np, auto, off");
    return policy;
}

}  // namespace parbench::policy::iterations

namespace parbench::policy {

// What the runner needs of a policy (see the file comment). Policies may keep state across sizes
// (PAW's NLOOP only falls as sizes grow), hence a non-const policy.
template <class Policy>
concept iteration_policy = requires(Policy& p, std::uint64_t bytes, bool aggregate,
                                    double estimate_s, int processes, bool rooted) {
    { p.n_sample(bytes, aggregate) } -> std::convertible_to<std::uint64_t>;
    { p.warmup(bytes, aggregate) } -> std::convertible_to<std::uint64_t>;
    { p.warmup_budget_s() } -> std::convertible_to<double>;
    { p.decide(bytes, aggregate, estimate_s, processes, rooted) } -> std::convertible_to<std::uint64_t>;
};

// The block budget an iteration policy carries (its optional `block_budget()`, IMB 2021's -time
// per block: policy/imb_block_budget.hpp), or nullptr.
template <class Policy>
[[nodiscard]] iterations::imb_block_budget* block_budget_of(const Policy& p) noexcept {
    if constexpr (requires { { p.block_budget() } -> std::same_as<iterations::imb_block_budget*>; })
        return p.block_budget();
    else
        return nullptr;
}

static_assert(iteration_policy<iterations::fixed> && iteration_policy<iterations::fixed_count> &&
              iteration_policy<iterations::time_budget> && iteration_policy<iterations::imb_volume>);

}  // namespace parbench::policy
