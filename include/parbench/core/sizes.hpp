// Message sizes: IMB's 0, 2^MINMSGLOG ... 2^MAXMSGLOG sequence (-msglog [min:]max), user lists
// (-msglen file), and the rule that reductions start at sizeof(float).
#pragma once

#include <parbench/core/error.hpp>
#include <parbench/core/text.hpp>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace parbench {

struct msglog_range {
    int min_log = 0;   // IMB MINMSGLOG
    int max_log = 22;  // IMB MAXMSGLOG (4 MiB)
    friend bool operator==(const msglog_range&, const msglog_range&) = default;
};

inline constexpr int max_supported_msglog = 40;  // 1 TiB: far past any buffer we can allocate

// "-msglog [min:]max". A lone max means min = 0 ("-msglog 16" -> 0, 1, 2, ..., 65536).
[[nodiscard]] inline msglog_range parse_msglog(std::string_view text) {
    const std::string shown(text);
    msglog_range range{};
    const auto colon = text.find(':');
    bool ok = true;
    if (colon == std::string_view::npos) {
        ok = parbench::parse_unsigned(text, range.max_log);
    } else {
        ok = parbench::parse_unsigned(text.substr(0, colon), range.min_log) &&
             parbench::parse_unsigned(text.substr(colon + 1), range.max_log);
    }
    const bool too_large =
        colon == std::string_view::npos
            ? parbench::integer_problem<int>(text, "") != ""
            : parbench::integer_problem<int>(text.substr(0, colon), "") != "" ||
                  parbench::integer_problem<int>(text.substr(colon + 1), "") != "";
    if (!ok && too_large)
        throw input_error("-msglog " + shown + ": exponent out of range (at most " +
                          std::to_string(max_supported_msglog) + ")");
    if (!ok)
        throw input_error("-msglog " + shown +
                          ": expected [MIN:]MAX with non-negative integers, e.g. 3:7 or 16");
    if (range.max_log > max_supported_msglog)
        throw input_error("-msglog " + shown + ": maximum exponent " +
                          std::to_string(range.max_log) + " is above the supported " +
                          std::to_string(max_supported_msglog));
    if (range.min_log > range.max_log)
        throw input_error("-msglog " + shown + ": minimum exponent " +
                          std::to_string(range.min_log) + " is larger than maximum exponent " +
                          std::to_string(range.max_log));
    return range;
}

// IMB's sequence: 0, then max(unit, 2^min) doubling up to 2^max. unit = sizeof(float) for
// reductions (a reduction of fewer bytes than one element is meaningless), 1 otherwise.
// `first_cap` > 0 (IMB-EXT under IMB 2021, imb::methodology::ext_first_length_cap): IMB 2021's
// loop with its first length capped (src_cpp/helpers/helper_IMB_functions.h:307-322, MAXMSG at
// :756): the first is min(2^min rounded up to unit, first_cap), each next twice the last, every
// one at most MAXMSG = 2^max rounded down to unit, until one reaches it (-msglog 10:12, cap 4:
// 4, 8, ..., 4096; nothing but 0 where 2^max < unit, as IMB-EXT 2021 at -msglog 0:1).
[[nodiscard]] inline std::vector<std::uint64_t> imb_sizes(msglog_range range,
                                                          std::uint64_t unit = 1,
                                                          std::uint64_t first_cap = 0) {
    std::vector<std::uint64_t> sizes{0};
    const std::uint64_t top = std::uint64_t{1} << range.max_log;
    if (first_cap > 0) {
        const std::uint64_t u = std::max<std::uint64_t>(unit, 1);
        const std::uint64_t most = top / u * u;  // IMB's MAXMSG
        const auto whole = [u](std::uint64_t x) { return (x + u - 1) / u * u; };
        if (most == 0) return sizes;
        for (std::uint64_t x = std::min(whole(std::uint64_t{1} << range.min_log), first_cap);;
             x *= 2) {
            x = whole(std::min(x, most));
            sizes.push_back(x);
            if (x >= most) break;
        }
        return sizes;
    }
    for (std::uint64_t x = std::max(unit, std::uint64_t{1} << range.min_log); x <= top; x *= 2)
        sizes.push_back(x);
    return sizes;
}

// A -msglen file: one non-negative length per line. Blank lines and lines starting with '#'
// are skipped. `source` names the file in error messages.
[[nodiscard]] inline std::vector<std::uint64_t> parse_msglen(std::string_view content,
                                                             std::string_view source) {
    std::vector<std::uint64_t> sizes;
    std::size_t line_number = 0;
    while (!content.empty()) {
        const auto newline = content.find('\n');
        const auto raw = content.substr(0, newline);
        content = newline == std::string_view::npos ? std::string_view{}
                                                    : content.substr(newline + 1);
        ++line_number;
        const auto line = parbench::trim(raw);
        if (line.empty() || line.front() == '#') continue;
        std::uint64_t value = 0;
        if (!parbench::parse_unsigned(line, value))
            throw input_error("-msglen " + std::string(source) + ":" +
                              std::to_string(line_number) + ": '" + std::string(line) + "' " +
                              parbench::integer_problem(
                                  line, "is not a non-negative message length in bytes"));
        sizes.push_back(value);
    }
    if (sizes.empty())
        throw input_error("-msglen " + std::string(source) + ": no message lengths in file");
    return sizes;
}

// Sizes below the unit of a reduction cannot be expressed in whole elements: IMB rounds them
// down to whole floats; zero stays zero.
[[nodiscard]] inline std::uint64_t round_to_unit(std::uint64_t bytes, std::uint64_t unit) noexcept {
    return unit <= 1 ? bytes : bytes / unit * unit;
}

}  // namespace parbench
