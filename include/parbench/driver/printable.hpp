// Text from users, files and plugins reaches the terminal only as printable characters: a
// control character (newline, ESC, ...) is shown escaped (\n, \x1b), so that one error is one
// line and a file name cannot drive the terminal. UTF-8 characters pass unchanged; every other
// byte from 0x80 up (invalid UTF-8: a Latin-1 file, binary data) and the C1 controls (U+0080 to
// U+009F, which some terminals obey) are shown as \xNN per byte, whatever their source: the
// command line, a file, the environment or a plugin.
#pragma once

#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace parbench::driver {

namespace printable_text {

// The length of the well-formed UTF-8 character at the start of `text` that is not a C1
// control, or 0.
[[nodiscard]] inline std::size_t utf8_character(std::string_view text) noexcept {
    const auto at = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char lead = at(0);
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;  // the second byte's range (RFC 3629, section 4)
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
        if (lead == 0xC2) low = 0xA0;  // U+0080..U+009F: C1 controls
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        if (lead == 0xE0) low = 0xA0;   // no overlong forms
        if (lead == 0xED) high = 0x9F;  // no surrogates
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        if (lead == 0xF0) low = 0x90;
        if (lead == 0xF4) high = 0x8F;  // nothing above U+10FFFF
    } else {
        return 0;
    }
    if (text.size() < length || at(1) < low || at(1) > high) return 0;
    for (std::size_t i = 2; i < length; ++i)
        if (at(i) < 0x80 || at(i) > 0xBF) return 0;
    return length;
}

}  // namespace printable_text

[[nodiscard]] inline std::string printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    while (!text.empty()) {
        const char c = text.front();
        const auto byte = static_cast<unsigned char>(c);
        std::size_t taken = 1;
        switch (c) {
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (byte < 0x20 || byte == 0x7f) {
                    out += fmt::format("\\x{:02x}", byte);
                } else if (byte < 0x80) {
                    out += c;
                } else if (const std::size_t n = printable_text::utf8_character(text); n > 0) {
                    out += text.substr(0, n);
                    taken = n;
                } else {
                    out += fmt::format("\\x{:02x}", byte);
                }
        }
        text.remove_prefix(taken);
    }
    return out;
}

// A value as the user gave it, quoted so that an empty one shows: '' or 'a\nb'.
[[nodiscard]] inline std::string quote_value(std::string_view value) {
    return "'" + printable(value) + "'";
}

}  // namespace parbench::driver
