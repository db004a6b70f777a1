// The values of suite options as the run request carries them, read the same way by every suite
// and by the driver: an option's one value as text, its list of words, on/off switches, a word
// from a fixed set, and numbers of seconds (or microseconds). Each reader throws input_error with
// one line that names the option ("-NAME VALUE: why"); the suites and the driver's validators of
// typed parameters (plugin/parameter_type.hpp) share these, so a value is judged once and worded
// once.
#pragma once

#include <parbench/core/error.hpp>
#include <parbench/core/text.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace parbench {

// The one value of option `name` (no dashes): a string as given, a number in JSON's spelling
// (typed parameters, ABI 1.1), a list's words joined by commas (PAW's comma lists; a one-word
// list is that word). A flag (true) or nothing has no value: "-NAME: expects one value".
[[nodiscard]] inline std::string option_text(std::string_view name, const nlohmann::json& value) {
    if (value.is_string()) return value.get<std::string>();
    if (value.is_number()) return value.dump();
    if (value.is_array()) {
        std::string out;
        for (const auto& item : value) {
            if (!out.empty()) out += ',';
            out += item.is_string() ? item.get<std::string>() : item.dump();
        }
        return out;
    }
    throw input_error("-" + std::string(name) + ": expects one value");
}

// The words of a list option (a lone string is a one-word list).
[[nodiscard]] inline std::vector<std::string> option_words(std::string_view name,
                                                           const nlohmann::json& value) {
    if (value.is_array()) {
        std::vector<std::string> out;
        for (const auto& item : value)
            out.push_back(item.is_string() ? item.get<std::string>() : item.dump());
        return out;
    }
    return {option_text(name, value)};
}

// An on/off word, as IMB 2021's switches and MPI libraries' boolean variables spell it (any
// case): 1, on, yes, true, enable / 0, off, no, false, disable. nullopt for anything else.
[[nodiscard]] inline std::optional<bool> switch_word(std::string_view text) {
    std::string w(text);
    std::transform(w.begin(), w.end(), w.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (const char* on : {"1", "on", "yes", "true", "enable"})
        if (w == on) return true;
    for (const char* off : {"0", "off", "no", "false", "disable"})
        if (w == off) return false;
    return std::nullopt;
}

// The value of switch option `name`: "-NAME TEXT: expected on (1|enable|yes) or off
// (0|disable|no)" otherwise.
[[nodiscard]] inline bool parse_switch(std::string_view name, std::string_view text) {
    if (const auto on = switch_word(trim(text))) return *on;
    throw input_error("-" + std::string(name) + " " + std::string(text) +
                      ": expected on (1|enable|yes) or off (0|disable|no)");
}

// "a, b or c": a fixed set of words for a message.
[[nodiscard]] inline std::string choice_list(std::span<const std::string_view> choices) {
    std::string out;
    for (std::size_t i = 0; i < choices.size(); ++i) {
        if (i > 0) out += i + 1 == choices.size() ? " or " : ", ";
        out += choices[i];
    }
    return out;
}

// One word of `choices` (exact spelling): "-NAME TEXT: expected a, b or c" otherwise.
[[nodiscard]] inline std::string parse_choice(std::string_view name, std::string_view text,
                                              std::span<const std::string_view> choices) {
    if (std::find(choices.begin(), choices.end(), text) == choices.end())
        throw input_error("-" + std::string(name) + " " + std::string(text) + ": expected " +
                          choice_list(choices));
    return std::string(text);
}

// A whole number for `option` (no dashes) in [low, high]: "-NAME TEXT: expected a whole number"
// or "-NAME TEXT: must lie in LOW..HIGH" otherwise.
[[nodiscard]] inline std::int64_t parse_whole_number(std::string_view option, std::string_view text,
                                                     std::int64_t low, std::int64_t high) {
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc{} || end != text.data() + text.size())
        throw input_error("-" + std::string(option) + " " + std::string(text) +
                          ": expected a whole number");
    if (value < low || value > high)
        throw input_error("-" + std::string(option) + " " + std::string(text) + ": must lie in " +
                          std::to_string(low) + ".." + std::to_string(high));
    return value;
}

// What a number of seconds may be.
struct seconds_rule {
    bool allow_zero = false;   // 0 is a value (often "no limit"), not a mistake
    double most_s = 1e9;       // the largest value accepted
    bool quote_value = false;  // the message shows the value in quotes ('1e999')
    const char* most_text = "1e9 seconds";  // most_s as the message says it
    const char* zero_means = nullptr;       // with allow_zero: what 0 asks for ("no limit")
    const char* unit = "seconds";           // what the number counts, as the message says it
};

// A number of seconds read from text: the value, or why the text is not one ("expected a
// positive number of seconds", "out of range (at most 1e9 seconds)"), for a caller that words the
// rest of the message itself (an options file's "file:line: key=value: why").
struct seconds_reading {
    double value = 0.0;
    std::string problem;  // empty: value is good
};

// A finite decimal number, positive (or zero when the rule allows), at most rule.most_s (in
// rule.unit); surrounding blanks are ignored.
[[nodiscard]] inline seconds_reading read_seconds(std::string_view text, seconds_rule rule = {}) {
    const std::string copy(trim(text));
    char* end = nullptr;
    const double value = copy.empty() ? -1.0 : std::strtod(copy.c_str(), &end);
    const bool number = !copy.empty() && end == copy.c_str() + copy.size();
    if (number && value > 0.0 && (!std::isfinite(value) || value > rule.most_s))
        return {.value = 0.0, .problem = std::string("out of range (at most ") + rule.most_text + ")"};
    if (!number || !std::isfinite(value) || (rule.allow_zero ? value < 0.0 : !(value > 0.0))) {
        std::string problem = std::string("expected a ") +
                              (rule.allow_zero ? "non-negative" : "positive") + " number of " +
                              rule.unit;
        if (rule.allow_zero && rule.zero_means != nullptr)
            problem += std::string(" (0: ") + rule.zero_means + ")";
        return {.value = 0.0, .problem = std::move(problem)};
    }
    return {.value = value, .problem = {}};
}

// A number of seconds for `option` (spelt as the message shows it, "-time", "--timeout" or PAW's
// "NLOOP_MIN_TIME") by read_seconds' rule; input_error "OPTION VALUE: why" otherwise.
[[nodiscard]] inline double parse_seconds(std::string_view option, std::string_view text,
                                          seconds_rule rule = {}) {
    seconds_reading reading = read_seconds(text, rule);
    if (reading.problem.empty()) return reading.value;
    // Appended piece by piece: GCC 12 warns (-Wrestrict) about "'" + std::string(...) here.
    std::string shown(option);
    shown += rule.quote_value ? " '" : " ";
    shown += text;
    if (rule.quote_value) shown += '\'';
    throw input_error(shown + ": " + reading.problem);
}

// A number of microseconds for `option` (the caf suite's "-delay"), read and worded as
// parse_seconds reads seconds: positive, finite, at most `most_us` (`most_text` as the message
// says it: "-delay 0: expected a positive number of microseconds", "-delay 2e6: out of range (at
// most 1000000 microseconds)").
[[nodiscard]] inline double parse_microseconds(std::string_view option, std::string_view text,
                                               double most_us, const char* most_text) {
    return parse_seconds(option, text,
                         {.most_s = most_us, .most_text = most_text, .unit = "microseconds"});
}

}  // namespace parbench
