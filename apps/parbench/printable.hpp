// Text from users, files and plugins reaches the terminal only as printable characters: a
// control character (newline, ESC, ...) is shown escaped (\n, \x1b), so that one error is one
// line and a file name cannot drive the terminal. Bytes from 0x80 up pass unchanged (UTF-8).
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>

namespace parbench::app {

[[nodiscard]] inline std::string printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        switch (c) {
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (byte < 0x20 || byte == 0x7f)
                    out += fmt::format("\\x{:02x}", byte);
                else
                    out += c;
        }
    }
    return out;
}

// A value as the user gave it, quoted so that an empty one shows: '' or 'a\nb'.
[[nodiscard]] inline std::string quote_value(std::string_view value) {
    return "'" + printable(value) + "'";
}

}  // namespace parbench::app
