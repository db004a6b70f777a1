// What a typed suite parameter (ABI 1.1, parbench_parameter_type) accepts: the host checks the
// descriptor when it loads the plugin, turns each value given on the command line into typed JSON
// for the plugin (or one "-NAME VALUE: why" line), and describes the type in --help. The value
// readers are core/options.hpp's, which the suites use too, so a value is worded the same
// whether the driver or the plugin refuses it.
#pragma once

#include <parbench/core/error.hpp>
#include <parbench/core/options.hpp>
#include <parbench/core/text.hpp>
#include <parbench/plugin/abi.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace parbench::plugin {

[[nodiscard]] inline bool has_min(const parbench_parameter_type& t) noexcept {
    return (t.flags & PARBENCH_TYPE_MIN) != 0;
}
[[nodiscard]] inline bool has_max(const parbench_parameter_type& t) noexcept {
    return (t.flags & PARBENCH_TYPE_MAX) != 0;
}

// The accepted words of a CHOICE type.
[[nodiscard]] inline std::vector<std::string_view> choices_of(const parbench_parameter_type& t) {
    std::vector<std::string_view> out;
    for (std::size_t i = 0; i < t.choice_count; ++i) out.emplace_back(t.choices[i]);
    return out;
}

// Why the row cannot be used (empty when it can): what the loader reports, naming the file.
[[nodiscard]] inline std::string type_problem(const parbench_parameter_type& t,
                                              const parbench_parameter& param) {
    const std::string where = "parameter '" + std::string(param.name) + "'";
    if (t.kind > PARBENCH_VALUE_SWITCH)
        return where + " has unknown value type " + std::to_string(t.kind);
    if (param.arity == PARBENCH_ARITY_FLAG && t.kind != PARBENCH_VALUE_TEXT)
        return where + " is a flag and takes no value type";
    if (t.kind == PARBENCH_VALUE_CHOICE) {
        if (t.choice_count == 0 || t.choices == nullptr) return where + " has no choices";
        for (std::size_t i = 0; i < t.choice_count; ++i)
            if (t.choices[i] == nullptr || *t.choices[i] == '\0')
                return where + ": choice " + std::to_string(i) + " is empty";
    }
    if ((has_min(t) && !std::isfinite(t.min)) || (has_max(t) && !std::isfinite(t.max)) ||
        (has_min(t) && has_max(t) && t.min > t.max))
        return where + " has bounds that admit no value";
    return {};
}

namespace typed {

[[nodiscard]] inline std::string bound_text(double v) { return fmt::format("{:g}", v); }

// "must be at least 1", "must lie in 1..64", "must be at most 64"; empty when unbounded.
[[nodiscard]] inline std::string bounds_text(const parbench_parameter_type& t) {
    if (has_min(t) && has_max(t)) return "must lie in " + bound_text(t.min) + ".." + bound_text(t.max);
    if (has_min(t)) return "must be at least " + bound_text(t.min);
    if (has_max(t)) return "must be at most " + bound_text(t.max);
    return {};
}

[[nodiscard]] inline bool within(const parbench_parameter_type& t, double v) noexcept {
    return !(has_min(t) && v < t.min) && !(has_max(t) && v > t.max);
}

// A whole number (count, bytes, an end of a range); `what` is the wording of a bad one.
[[nodiscard]] inline std::uint64_t whole(const parbench_parameter_type& t, std::string_view name,
                                         std::string_view shown, std::string_view text,
                                         const char* what) {
    std::uint64_t v = 0;
    if (!parse_unsigned(text, v))
        throw input_error("-" + std::string(name) + " " + std::string(shown) + ": " +
                          integer_problem(text, what));
    if (!within(t, static_cast<double>(v)))
        throw input_error("-" + std::string(name) + " " + std::string(shown) + ": " +
                          bounds_text(t));
    return v;
}

}  // namespace typed

// The value `text` of parameter `name` as the plugin receives it (see abi.h for each kind).
[[nodiscard]] inline nlohmann::json typed_value(const parbench_parameter_type& t,
                                                std::string_view name, std::string_view text) {
    switch (t.kind) {
        case PARBENCH_VALUE_COUNT:
            return typed::whole(t, name, text, text, "expected a non-negative integer");
        case PARBENCH_VALUE_BYTES:
            return typed::whole(t, name, text, text, "expected a number of bytes");
        case PARBENCH_VALUE_SECONDS: {
            const std::string most_text =
                has_max(t) ? typed::bound_text(t.max) + " seconds" : std::string("1e9 seconds");
            const double v = parse_seconds("-" + std::string(name), text,
                                           {.allow_zero = !has_min(t) || t.min <= 0.0,
                                            .most_s = has_max(t) ? t.max : 1e9,
                                            .most_text = most_text.c_str()});
            if (!typed::within(t, v))
                throw input_error("-" + std::string(name) + " " + std::string(text) + ": " +
                                  typed::bounds_text(t));
            return v;
        }
        case PARBENCH_VALUE_RANGE: {
            const auto colon = text.find(':');
            constexpr const char* expected = "expected [MIN:]MAX with non-negative integers";
            nlohmann::json out = nlohmann::json::object();
            if (colon != std::string_view::npos)
                out["min"] = typed::whole(t, name, text, text.substr(0, colon), expected);
            out["max"] = typed::whole(
                t, name, text, colon == std::string_view::npos ? text : text.substr(colon + 1),
                expected);
            if (out.contains("min") && out["min"].get<std::uint64_t>() > out["max"].get<std::uint64_t>())
                throw input_error("-" + std::string(name) + " " + std::string(text) + ": minimum " +
                                  out["min"].dump() + " is larger than maximum " +
                                  out["max"].dump());
            return out;
        }
        case PARBENCH_VALUE_CHOICE: return parse_choice(name, text, choices_of(t));
        case PARBENCH_VALUE_SWITCH: return parse_switch(name, text);
        default: return std::string(text);
    }
}

// The type for --help, after the description: "one of: create, allocate, dynamic",
// "count 1..64", "seconds <= 60". Empty for text.
[[nodiscard]] inline std::string type_help(const parbench_parameter_type& t) {
    const auto bounds = [&] {
        if (has_min(t) && has_max(t))
            return " " + typed::bound_text(t.min) + ".." + typed::bound_text(t.max);
        if (has_min(t)) return " >= " + typed::bound_text(t.min);
        if (has_max(t)) return " <= " + typed::bound_text(t.max);
        return std::string{};
    };
    switch (t.kind) {
        case PARBENCH_VALUE_COUNT: return "count" + bounds();
        case PARBENCH_VALUE_BYTES: return "bytes" + bounds();
        case PARBENCH_VALUE_SECONDS: return "seconds" + bounds();
        case PARBENCH_VALUE_RANGE: return "[MIN:]MAX" + bounds();
        case PARBENCH_VALUE_CHOICE: {
            std::string out = "one of: ";
            for (std::size_t i = 0; i < t.choice_count; ++i)
                out += (i > 0 ? ", " : "") + std::string(t.choices[i]);
            return out;
        }
        case PARBENCH_VALUE_SWITCH: return "on or off";
        default: return {};
    }
}

}  // namespace parbench::plugin
