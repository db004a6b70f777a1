// The value parsers every PAW test family shares (BLAS, GPU, offload): PAW's environment variables
// as a lookup function (so tests can feed any), option values as text, positive integers and
// seconds with one message naming the option or variable, comma lists, and the size progression.
// Each family's own settings (plugins/blas/config.hpp, plugin/paw_transfer_settings.hpp) are
// built from these.
#pragma once

#include <parbench/core/error.hpp>
#include <parbench/core/sizes.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
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

// An option's value as text: one-value options are strings, list options arrays (joined with
// commas), flags `true` (a value was needed).
[[nodiscard]] inline std::string option_text(const std::string& name, const nlohmann::json& v) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number()) return v.dump();
    if (v.is_array()) {
        std::string out;
        for (const auto& item : v) {
            if (!out.empty()) out += ',';
            out += item.is_string() ? item.get<std::string>() : item.dump();
        }
        return out;
    }
    throw input_error("--" + name + ": a value is required");
}

[[nodiscard]] inline std::uint64_t positive_integer(const std::string& what, std::string_view text) {
    std::uint64_t value = 0;
    if (!parbench::detail::parse_unsigned(text, value) || value == 0)
        throw input_error(what + " '" + std::string(text) + "': " +
                          parbench::detail::integer_problem(text, "expected a positive integer"));
    return value;
}

[[nodiscard]] inline double positive_seconds(const std::string& what, std::string_view text,
                                             bool allow_zero) {
    const std::string copy(parbench::detail::trim(text));
    char* end = nullptr;
    const double v = copy.empty() ? -1.0 : std::strtod(copy.c_str(), &end);
    const bool number = !copy.empty() && end == copy.c_str() + copy.size();
    if (number && v > 0.0 && (!std::isfinite(v) || v > 1e9))
        throw input_error(what + " '" + std::string(text) + "': out of range (at most 1e9 s)");
    const bool ok = number && std::isfinite(v) && (allow_zero ? v >= 0.0 : v > 0.0);
    if (!ok)
        throw input_error(what + " '" + std::string(text) + "': expected a " +
                          (allow_zero ? "non-negative" : "positive") + " number of seconds");
    return v;
}

[[nodiscard]] inline std::vector<std::string> split_commas(std::string_view text) {
    std::vector<std::string> out;
    while (true) {
        const auto comma = text.find(',');
        out.emplace_back(parbench::detail::trim(text.substr(0, comma)));
        if (comma == std::string_view::npos) break;
        text = text.substr(comma + 1);
    }
    return out;
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
    if (!parbench::detail::parse_unsigned(step.substr(1), amount) || amount == 0) throw fail();
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

}  // namespace parbench::paw
