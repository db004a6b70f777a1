// Errors at parbench's boundaries. Library code throws; the driver and the plugin ABI turn an
// error into one line for people and an exit status (never exit() inside the library).
#pragma once

#include <stdexcept>
#include <string>

namespace parbench {

// The user's input is wrong (an option value, a file, a benchmark name, the process count).
// The message is one line, names the offending input and says what would be accepted. A NUL
// byte in it (quoted from a file) is kept as the text "\x00": what() is a C string, which would
// end there and lose the rest of the line, the reason included.
class input_error : public std::runtime_error {
public:
    explicit input_error(const std::string& message) : std::runtime_error(without_nul(message)) {}
    explicit input_error(const char* message) : std::runtime_error(message) {}

private:
    static std::string without_nul(const std::string& message) {
        if (message.find('\0') == std::string::npos) return message;
        std::string text;
        for (const char c : message) {
            if (c == '\0')
                text += "\\x00";
            else
                text += c;
        }
        return text;
    }
};

}  // namespace parbench
