// The stability verdict of a row: whether its figures can be read at face value. A row is
// flagged when
//   - its headline time (IMB's t_max, PAW's mean) is far from the median of its samples: one
//     preempted batch moves a mean-based figure, not the median;
//   - the confidence interval of the median is wide relative to the median;
//   - its timed loops were shorter than the timer allows: too few clock ticks, or too much of the
//     loop spent reading the clock, for the time to be accurate;
//   - it has fewer samples than a 95 % confidence interval of the median needs (six): its
//     spread is unknown, so it is never "stable" and its CI is shown as "no-CI", never 0.
// The verdict is computed from what a record and its run context already carry, so every
// reporter renders the same verdict for a row. docs/methodology.md §11 defines the rules.
#pragma once

#include <parbench/core/clock.hpp>
#include <parbench/report/result.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace parbench::report {

// The clock figures of a run context (core/clock.hpp's calibration, recorded by every plugin as
// timer_resolution_s and timer_overhead_s, through this struct's to_json). Zero when the context
// does not say.
struct timer_limits {
    double resolution_s = 0.0;
    double overhead_s = 0.0;

    // What a plugin records of its clock's calibration.
    [[nodiscard]] static timer_limits of(const clock_characteristics& clock) noexcept {
        return {.resolution_s = clock.resolution_s, .overhead_s = clock.overhead_s};
    }
    [[nodiscard]] static timer_limits from_context(const nlohmann::json& context);
    // PAW's "timer threshold": the shortest interval the clock measures at all.
    [[nodiscard]] double threshold_s() const noexcept { return std::max(resolution_s, overhead_s); }

    friend bool operator==(const timer_limits&, const timer_limits&) = default;
};

// The context's two flat keys: a plugin merges them into its run context
// (context.update(nlohmann::json(timer_limits::of(clock)))), every reporter reads them back with
// from_json. A context that is no object, or a key that is absent or no number, reads as 0 (a
// context of a test's own, or of a plugin that measured no clock).
inline void to_json(nlohmann::json& j, const timer_limits& t) {
    j = {{"timer_resolution_s", t.resolution_s}, {"timer_overhead_s", t.overhead_s}};
}

inline void from_json(const nlohmann::json& j, timer_limits& t) {
    t = {};
    if (!j.is_object()) return;
    const auto number = [&](const char* key) {
        const auto it = j.find(key);
        return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
    };
    t.resolution_s = number("timer_resolution_s");
    t.overhead_s = number("timer_overhead_s");
}

inline timer_limits timer_limits::from_context(const nlohmann::json& context) {
    return context.get<timer_limits>();
}

struct stability_rules {
    double headline_to_median_limit = 1.5;  // flag headline/median above this or below 1/this
    double ci_half_width_limit = 0.10;      // flag a CI half-width above 10 % of the median
    // A timed loop must last this many timer thresholds, so that reading the clock and its
    // granularity stay below 1 % of the loop.
    double loop_threshold_factor = 100.0;
    // PAW rows record the loop time their NLOOP aimed at (loop_calibration.loop_target_us); a
    // loop under this fraction of it, with NLOOP below its calibrated ceiling, missed the target
    // by more than run-to-run jitter explains.
    double loop_target_fraction = 0.5;
};

using parbench::min_ci_samples;  // core/statistics.hpp: six samples for a 95 % CI

// Whether a summary has a 95 % CI of its median: enough samples for one (from six on,
// median_interval always reaches 95 %).
[[nodiscard]] inline bool has_ci(const summary& d) noexcept { return d.samples >= min_ci_samples; }
// What a table's CI cell says for a row without one: one token, so that whitespace-separated
// parsers (IMB's, CAF_BENCH's, PAW's) still find every column where it was.
inline constexpr const char* no_ci_cell = "no-CI";

struct stability {
    bool headline_far_from_median = false;
    bool wide_ci = false;
    bool short_loops = false;
    bool no_ci = false;                           // fewer samples than a CI needs (min_ci_samples)
    std::size_t samples = 0;                      // the samples the row's statistics come from
    std::optional<double> headline_to_median;     // headline time / median
    std::optional<double> ci_half_width_percent;  // 100 (ci_high - ci_low) / 2 / median
    std::optional<double> shortest_loop_us;       // the shortest timed loop, estimated
    std::optional<double> required_loop_us;       // what the timer (or PAW's target) asks for

    [[nodiscard]] bool stable() const noexcept {
        return !headline_far_from_median && !wide_ci && !short_loops && !no_ci;
    }
    // The JSON names of the flags that are set, in a fixed order.
    [[nodiscard]] std::vector<std::string> flags() const {
        std::vector<std::string> out;
        if (headline_far_from_median) out.emplace_back("headline_far_from_median");
        if (wide_ci) out.emplace_back("wide_ci");
        if (short_loops) out.emplace_back("short_loops");
        if (no_ci) out.emplace_back("no_ci");
        return out;
    }
    // The console's short form after the row's '!': "t/median 5.36, ci95 191%, loop 100 us < 500".
    [[nodiscard]] std::string console_note() const;
};

// The shortest timed loop of a record, in µs. PAW times NLOOP calls per repetition (the record's
// iterations), so its shortest loop is NLOOP x the fastest repetition's time per call. Batched
// runs (IMB) split `iterations` into distribution_us.samples batches; the shortest is
// ⌊iterations / batches⌋ x the fastest batch's time per iteration. Per-iteration times are after
// the pattern's divisor (half a round trip for ping-pong), so this underestimates such loops:
// the check errs on the side of flagging.
[[nodiscard]] inline std::optional<double> shortest_loop_us(const result_record& r) {
    const summary& d = r.distribution_us;
    if (d.samples == 0 || r.iterations == 0 || !(d.min > 0.0)) return std::nullopt;
    // Aggregate epochs (the record's `epochs`): every sample is one epoch of `iterations` calls.
    const std::uint64_t per_loop = r.over_repetitions() || r.epochs
                                       ? r.iterations
                                       : std::max<std::uint64_t>(1, r.iterations / d.samples);
    return static_cast<double>(per_loop) * d.min;
}

[[nodiscard]] inline stability assess_stability(const result_record& r, const timer_limits& timer,
                                                const stability_rules& rules = {}) {
    stability s;
    const summary& d = r.distribution_us;
    s.samples = d.samples;
    if (d.samples == 0 || !(d.median > 0.0) || !std::isfinite(d.median)) return s;  // nothing to judge
    // An aggregate row of one epoch is the single sample of its methodology (IMB 2021 times an
    // epoch once per size): no interval by method, not for want of time; the row's ci95 cell
    // still reads no-CI, and the other verdicts still apply.
    s.no_ci = !has_ci(d) && !(r.epochs && *r.epochs == 1);

    const double ratio = r.headline_time_us() / d.median;
    s.headline_to_median = ratio;
    s.headline_far_from_median =
        ratio > rules.headline_to_median_limit || ratio < 1.0 / rules.headline_to_median_limit;

    if (!s.no_ci) {  // [min, max] of too few samples is no confidence interval
        const double half_width = (d.ci_high - d.ci_low) / 2.0 / d.median;
        s.ci_half_width_percent = 100.0 * half_width;
        s.wide_ci = half_width > rules.ci_half_width_limit;
    }

    double required_us = rules.loop_threshold_factor * timer.threshold_s() * 1e6;
    // PAW's target counts only where NLOOP could have been larger: a loop of NLOOP_MAX fast
    // calls (NLOOP at its calibrated ceiling) is short by PAW's design, not by a wrong estimate.
    if (const auto& plan = r.loop_calibration; plan && r.iterations < plan->nloop_calibrated)
        required_us = std::max(required_us, rules.loop_target_fraction * plan->loop_target_us);
    s.shortest_loop_us = shortest_loop_us(r);
    if (required_us > 0.0) {
        s.required_loop_us = required_us;
        s.short_loops = s.shortest_loop_us && *s.shortest_loop_us < required_us;
    }
    return s;
}

inline std::string stability::console_note() const {
    const auto number = [](double v) {
        char text[32];
        std::snprintf(text, sizeof text, "%.3g", v);
        return std::string(text);
    };
    std::string note;
    const auto add = [&](const std::string& part) { note += (note.empty() ? "" : ", ") + part; };
    if (headline_far_from_median) add("t/median " + number(*headline_to_median));
    if (wide_ci) add("ci95 " + number(*ci_half_width_percent) + "%");
    if (short_loops) add("loop " + number(*shortest_loop_us) + " us < " + number(*required_loop_us));
    if (no_ci) add("no CI (" + std::to_string(samples) + (samples == 1 ? " sample)" : " samples)"));
    return note;
}

inline void to_json(nlohmann::json& j, const stability& s) {
    const auto optional = [](const std::optional<double>& v) {
        return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
    };
    j = {{"stable", s.stable()},
         {"flags", s.flags()},
         {"samples", s.samples},
         {"headline_to_median", optional(s.headline_to_median)},
         {"ci_half_width_percent", optional(s.ci_half_width_percent)},
         {"shortest_loop_us", optional(s.shortest_loop_us)},
         {"required_loop_us", optional(s.required_loop_us)}};
}

// Counts a run's unstable rows for the one warning at its end.
class stability_tally {
public:
    explicit stability_tally(stability_rules rules = {}) : rules_(rules) {}

    void add(const stability& s) {
        ++rows_;
        if (s.stable()) return;
        ++unstable_;
        far_ += s.headline_far_from_median ? 1 : 0;
        wide_ += s.wide_ci ? 1 : 0;
        short_ += s.short_loops ? 1 : 0;
        no_ci_ += s.no_ci ? 1 : 0;
    }
    [[nodiscard]] std::size_t unstable() const noexcept { return unstable_; }

    // The options of the run's suite that time longer, as the advice names them ("-i, -x");
    // "" leaves them out of the advice.
    void set_timing_options(std::string options) { timing_options_ = std::move(options); }

    // "" when every row is stable.
    [[nodiscard]] std::string summary_warning() const {
        if (unstable_ == 0) return {};
        const auto number = [](double v) {
            char text[32];
            std::snprintf(text, sizeof text, "%g", v);
            return std::string(text);
        };
        std::string causes;
        const auto cause = [&](std::size_t n, const std::string& what) {
            if (n > 0) causes += (causes.empty() ? "" : ", ") + std::to_string(n) + " " + what;
        };
        cause(far_, ("with the headline time more than " + number(rules_.headline_to_median_limit) +
                     "x from the median"));
        cause(wide_, ("with a 95% CI wider than +-" + number(100 * rules_.ci_half_width_limit) +
                      "% of the median"));
        cause(short_, "with timed loops shorter than the timer allows");
        cause(no_ci_, "with fewer than " + std::to_string(min_ci_samples) + " samples (no CI)");
        return std::to_string(unstable_) + " of " + std::to_string(rows_) +
               " rows are unstable (marked '!'): " + causes +
               ". Read the median rather than the headline figure, rerun on a quieter machine" +
               (timing_options_.empty() ? std::string(";")
                                        : ", or time longer (" + timing_options_ + ");") +
               " see docs/methodology.md 'Stability verdicts'";
    }

private:
    stability_rules rules_;
    std::size_t rows_ = 0;
    std::size_t unstable_ = 0;
    std::size_t far_ = 0;
    std::size_t wide_ = 0;
    std::size_t short_ = 0;
    std::size_t no_ci_ = 0;
    std::string timing_options_;
};

}  // namespace parbench::report
