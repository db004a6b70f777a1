// Benchmark, suite and test names are matched case-insensitively, as IMB does ("pingpong" is
// PingPong). One definition for the driver, the registry and every plugin.
#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace parbench {

[[nodiscard]] inline std::string lowercase(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

[[nodiscard]] inline bool same_name(std::string_view a, std::string_view b) noexcept {
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

}  // namespace parbench
