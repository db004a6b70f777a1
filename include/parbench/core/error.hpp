// Errors at parbench's boundaries. Library code throws; the driver and the plugin ABI turn an
// error into one line for people and an exit status (never exit() inside the library).
#pragma once

#include <stdexcept>
#include <string>

namespace parbench {

// The user's input is wrong (an option value, a file, a benchmark name, the process count).
// The message is one line, names the offending input and says what would be accepted.
class input_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace parbench
