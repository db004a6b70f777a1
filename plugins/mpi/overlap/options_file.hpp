// The overlap suite's options.ini: the same keys as the command line, one `key=value` a line.
// Blank lines and lines starting with '#' or ';' are comments; spaces around the key and the
// value are ignored; a key may be written with or without its leading '-'. Anything else (a line
// without '=', an empty key or value, a [section], a key given twice) is an input_error naming
// the file and the line. Whether a key exists and its value is valid is decided by the options
// parser (overlap/options.hpp), which names the file and line in its own errors.
//
// A small parser of our own: Debian's inih would add a C library for these few lines and
// reports only the number of the first bad line, not what is wrong with it.
#pragma once

#include <parbench/core/error.hpp>
#include <parbench/core/text.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace parbench::overlap {

struct file_setting {
    std::string key;    // without the leading '-'
    std::string value;
    std::string where;  // "options.ini:3", for messages
};

// The settings of `text`, read from the file `name`, in file order.
[[nodiscard]] inline std::vector<file_setting> parse_options_file(std::string_view text,
                                                                  const std::string& name) {
    std::vector<file_setting> settings;
    std::size_t line_number = 0;
    while (!text.empty()) {
        const auto end = text.find('\n');
        const std::string_view raw = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        ++line_number;
        const std::string where = name + ":" + std::to_string(line_number);
        const std::string_view line = parbench::trim(raw);
        if (line.empty() || line.front() == '#' || line.front() == ';') continue;
        const auto bad = [&](const std::string& why) {
            return input_error(where + ": " + why + " in '" + std::string(line) +
                               "'; expected key=value (e.g. method=allreduce)");
        };
        if (line.front() == '[') throw bad("sections are not supported");
        const auto equals = line.find('=');
        if (equals == std::string_view::npos) throw bad("no '='");
        std::string_view key = parbench::trim(line.substr(0, equals));
        if (!key.empty() && key.front() == '-') key.remove_prefix(1);
        const std::string_view value = parbench::trim(line.substr(equals + 1));
        if (key.empty()) throw bad("no key before '='");
        if (value.empty()) throw bad("no value after '='");
        for (const auto& s : settings)
            if (s.key == key)
                throw input_error(where + ": '" + std::string(key) + "' is already set at " +
                                  s.where);
        settings.push_back({std::string(key), std::string(value), where});
    }
    return settings;
}

}  // namespace parbench::overlap
