// Reading words and whole numbers out of option values and input files: trimming, a strict
// unsigned parse, and the wording of why a number was refused. Every option parser (core sizes,
// policies, suites, plugins, the driver) uses these, so a value means the same everywhere.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace parbench {

// `s` without leading and trailing blanks (space, tab, CR, LF).
[[nodiscard]] inline std::string_view trim(std::string_view s) noexcept {
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    const auto last = s.find_last_not_of(" \t\r\n");
    return s.substr(first, last - first + 1);
}

// Parses a whole non-negative decimal integer; false on anything else (sign, junk, overflow).
template <class Integer>
[[nodiscard]] bool parse_unsigned(std::string_view text, Integer& value) noexcept {
    text = trim(text);
    if (text.empty() || text.front() == '+' || text.front() == '-') return false;
    const auto* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    return ec == std::errc{} && ptr == end;
}

// Why `text` is not a valid unsigned Integer, for a message: "out of range" when it is a
// number too large for the type (only digits), otherwise `otherwise`.
template <class Integer = std::uint64_t>
[[nodiscard]] std::string integer_problem(std::string_view text, std::string otherwise) {
    const auto t = trim(text);
    const bool digits_only =
        !t.empty() && t.find_first_not_of("0123456789") == std::string_view::npos;
    Integer value{};
    return digits_only && !parse_unsigned(t, value) ? std::string("out of range") : otherwise;
}

// The words of a comma list, each trimmed ("a, b,c" -> a b c; "" -> one empty word), for the
// list options (PAW's -sizes and kernel lists, pairs' -sizes).
[[nodiscard]] inline std::vector<std::string> split_commas(std::string_view text) {
    std::vector<std::string> out;
    while (true) {
        const auto comma = text.find(',');
        out.emplace_back(trim(text.substr(0, comma)));
        if (comma == std::string_view::npos) break;
        text = text.substr(comma + 1);
    }
    return out;
}

}  // namespace parbench
