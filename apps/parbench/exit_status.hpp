// How the driver ends: its exit statuses, and the one-line messages it prints about problems.
//
// Exit statuses: 0 success, 1 plugin or backend failure (or a run that measured nothing), 2 bad
// input (options, files, output paths), 3 time limit, 4 an output file could not be written
// during the run, 128 + signal when SIGHUP, SIGINT or SIGTERM stopped the run.
#pragma once

#include "printable.hpp"

#include <iostream>
#include <string>
#include <string_view>

namespace parbench::app {

constexpr int exit_ok = 0;
constexpr int exit_failure = 1;
constexpr int exit_bad_input = 2;
constexpr int exit_time_limit = 3;
constexpr int exit_output_error = 4;

// Every line parbench prints about a problem: escaped (one line, no terminal control).
inline void print_error(std::string_view message) {
    std::cerr << "parbench: error: " << printable(message) << std::endl;
}
inline void print_warning(std::string_view message) {
    std::cerr << "parbench: warning: " << printable(message) << '\n';
}

// Thrown to end the driver: "parbench: error: <message>" and `status`.
struct driver_exit {
    int status;
    std::string message;
};

}  // namespace parbench::app
