// The value parsers every PAW test family shares (BLAS, GPU, offload): PAW's environment variables
// as a lookup function (so tests can feed any), option values as text, positive integers and
// seconds with one message naming the option or variable, comma lists, and the size progression.
// Each family's own settings (plugins/blas/config.hpp, plugin/paw_transfer_settings.hpp) are
// built from these.
#pragma once

#include <parbench/core/error.hpp>
#include <parbench/core/options.hpp>
#include <parbench/core/text.hpp>
#include <parbench/core/sizes.hpp>
#include <parbench/plugin/request.hpp>
#include <parbench/policy/paw_nloop.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace parbench::paw {

using env_lookup = std::function<std::optional<std::string>(const char*)>;

[[nodiscard]] inline env_lookup process_environment() {
    return [](const char* name) -> std::optional<std::string> {
        const char* v = std::getenv(name);
        if (v == nullptr) return std::nullopt;
        return std::string(v);
    };
}

[[nodiscard]] inline std::uint64_t positive_integer(const std::string& what, std::string_view text) {
    std::uint64_t value = 0;
    if (!parbench::parse_unsigned(text, value) || value == 0)
        throw input_error(what + " '" + std::string(text) + "': " +
                          parbench::integer_problem(text, "expected a positive integer"));
    return value;
}

// PAW's seconds: the value in quotes, "at most 1e9 s".
[[nodiscard]] inline double positive_seconds(const std::string& what, std::string_view text,
                                             bool allow_zero) {
    return parbench::parse_seconds(
        what, text, {.allow_zero = allow_zero, .quote_value = true, .most_text = "1e9 s"});
}

// The progression from min to max: "xF" multiplies by the integer F >= 2 (default x2: PAW's
// 8, 16, ..., 8192, then 10000), "+S" adds S. The maximum is always the last size.
[[nodiscard]] inline std::vector<std::uint64_t> size_progression(std::uint64_t min_size,
                                                                 std::uint64_t max_size,
                                                                 std::string_view step) {
    const std::string shown(step);
    const auto fail = [&] {
        return input_error("--size_step '" + shown +
                           "': expected xF (multiply by an integer F >= 2, e.g. x2) or +S "
                           "(add a positive integer S, e.g. +256)");
    };
    if (step.size() < 2 || (step[0] != 'x' && step[0] != '+')) throw fail();
    std::uint64_t amount = 0;
    if (!parbench::parse_unsigned(step.substr(1), amount) || amount == 0) throw fail();
    if (step[0] == 'x' && amount < 2) throw fail();
    std::vector<std::uint64_t> sizes;
    for (std::uint64_t s = min_size; s < max_size;) {
        sizes.push_back(s);
        const std::uint64_t next = step[0] == 'x' ? s * amount : s + amount;
        if (next <= s) break;  // overflow
        s = next;
    }
    sizes.push_back(max_size);
    return sizes;
}

// A PAW setting: the suite's option over PAW's environment variable over the default. `sources`
// records where each came from ("option --nreps", "environment NREPS", "default").
class settings_reader {
public:
    settings_reader(const run_request& request, env_lookup env, nlohmann::json& sources)
        : request_(request), env_(std::move(env)), sources_(sources) {}

    // The option's value as text; nullopt when it was not given.
    [[nodiscard]] std::optional<std::string> option(const char* name) const {
        const auto it = request_.options.find(name);
        if (it == request_.options.end()) return std::nullopt;
        return option_text(name, it->second);
    }

    // A positive integer from --opt, else from the variable `var` (may be NULL), else `fallback`.
    [[nodiscard]] std::uint64_t integer(const char* opt, const char* var, std::uint64_t fallback) {
        if (auto text = option(opt)) {
            sources_[opt] = "option --" + std::string(opt);
            return positive_integer("--" + std::string(opt), *text);
        }
        if (var != nullptr) {
            if (auto text = env_(var)) {
                sources_[opt] = "environment " + std::string(var);
                return positive_integer(std::string(var), *text);
            }
        }
        sources_[opt] = "default";
        return fallback;
    }

    // Where each setting came from, so far.
    [[nodiscard]] nlohmann::json& sources() noexcept { return sources_; }

private:
    const run_request& request_;
    env_lookup env_;
    nlohmann::json& sources_;
};

// PAW's loop settings, common to every family: NREPS, the family's NLOOP maximum (NLOOP_MAX or
// NLOOP_PHI_MAX, `nloop_variable`), NLOOP_MIN, and parbench's --time and --min_loop_time.
inline void read_loop_settings(settings_reader& read, policy::iterations::paw_nloop& policy,
                               const char* nloop_variable, std::uint64_t nloop_max) {
    policy.nreps = read.integer("nreps", "NREPS", 10);
    policy.nloop_max = read.integer("nloop_max", nloop_variable, nloop_max);
    policy.nloop_min = read.integer("nloop_min", "NLOOP_MIN", 1);
    if (policy.nloop_min > policy.nloop_max)
        throw input_error("NLOOP_MIN " + std::to_string(policy.nloop_min) + " is larger than " +
                          nloop_variable + " " + std::to_string(policy.nloop_max));
    policy.min_reps = std::min<std::uint64_t>(policy.min_reps, policy.nreps);
    if (auto t = read.option("time")) policy.budget_s = positive_seconds("--time", *t, false);
    if (auto t = read.option("min_loop_time"))
        policy.min_loop_s = positive_seconds("--min_loop_time", *t, true);
}

// "--sizes A,B,C": positive integers, strictly ascending.
[[nodiscard]] inline std::vector<std::uint64_t> parse_size_list(const std::string& list) {
    std::vector<std::uint64_t> sizes;
    for (const auto& item : split_commas(list)) {
        const auto n = positive_integer("--sizes", item);
        if (!sizes.empty() && n <= sizes.back())
            throw input_error("--sizes " + list + ": sizes must be ascending");
        sizes.push_back(n);
    }
    return sizes;
}

// The sizes to run: --sizes A,B,C as given (then min and max are its ends), or the progression
// from min to max by `step` (size_progression).
[[nodiscard]] inline std::vector<std::uint64_t> read_sizes(settings_reader& read,
                                                           std::uint64_t& min, std::uint64_t& max,
                                                           std::string_view step) {
    nlohmann::json& sources = read.sources();
    if (auto list = read.option("sizes")) {
        std::vector<std::uint64_t> sizes = parse_size_list(*list);
        min = sizes.front();
        max = sizes.back();
        sources["sizes"] = "option --sizes";
        return sizes;
    }
    if (min > max)
        throw input_error("minimum size " + std::to_string(min) + " (" +
                          sources["min_size"].get<std::string>() + ") is larger than maximum size " +
                          std::to_string(max) + " (" + sources["max_size"].get<std::string>() +
                          ")");
    return size_progression(min, max, step);
}

}  // namespace parbench::paw
