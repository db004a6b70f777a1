// How the driver — and a program built on parbench::mpi::main — ends: its exit statuses, and
// the one-line messages it prints about problems.
//
// Exit statuses: 0 success, 1 plugin or backend failure (or a run that measured nothing), 2 bad
// input (options, files, output paths), 3 time limit, 4 an output file could not be written
// during the run, 5 --check found defects (the run completed; its files hold every row), 6 --strict
// and a requested benchmark was skipped (the files hold every row that was measured),
// 128 + signal when SIGHUP, SIGINT or SIGTERM stopped the run.
#pragma once

#include <parbench/driver/printable.hpp>
#include <parbench/driver/rank_zero_process.hpp>

#include <chrono>
#include <iostream>
#include <string>
#include <string_view>
#include <thread>

namespace parbench::driver {

constexpr int exit_ok = 0;
constexpr int exit_failure = 1;
constexpr int exit_bad_input = 2;
constexpr int exit_time_limit = 3;
constexpr int exit_output_error = 4;
constexpr int exit_defects = 5;
constexpr int exit_skipped = 6;

// How a program starts its one-line messages on stderr: "parbench: error: ..." for the driver,
// "PROGRAM: ..." for a program built on parbench::mpi::main (which its users know by its own
// name). Set once, before the run; every message below uses it.
struct message_voice {
    std::string program = "parbench";  // another rank's warning: "parbench: warning (rank 1): "
    std::string error = "parbench: error: ";
    std::string warning = "parbench: warning: ";
    // The time limit's line without the error prefix ("time limit: benchmark ..."), as programs
    // built on parbench::mpi::main have always printed it.
    bool bare_time_limit = false;
};
[[nodiscard]] inline message_voice& voice() {
    static message_voice v;
    return v;
}

// Every line parbench prints about a problem: escaped (one line, no terminal control) and
// written whole, in one write: std::cerr flushes after every <<, and a launcher that forwards the
// processes' stderr (Open MPI's mpirun) could otherwise put its own lines inside this one.
inline void write_line(std::string_view prefix, std::string_view message) {
    std::string line(prefix);
    line += printable(message);
    line += '\n';
    std::cerr.write(line.data(), static_cast<std::streamsize>(line.size()));
    std::cerr.flush();
}
inline void print_error(std::string_view message) { write_line(voice().error, message); }
inline void print_warning(std::string_view message) { write_line(voice().warning, message); }

// A problem that every process of an MPI run may find alike (a plugin that fails on every rank)
// is said once: rank 0 at once, then it ends (its abort ends the others where MPI runs). Any
// other rank first watches rank 0's process (driver/rank_zero_process.hpp): when it ends, rank 0
// said the problem (or its launcher says how it died) and this rank ends silently, at once;
// when rank 0 still runs after 3 s, it did not find the problem, and this rank says it. On
// another node than rank 0 nothing can be watched: that rank waits the 3 s, in which rank 0's
// abort (or a launcher that ends the run once a process failed) ends it, and says it after.
inline void print_error_once(std::string_view message, int rank) {
    if (rank != 0 && wait_for_rank_zero(std::chrono::seconds(3)) == rank_zero_outcome::ended)
        return;
    print_error(message);
}

// Thrown to end the driver: "parbench: error: <message>" and `status`.
struct driver_exit {
    int status;
    std::string message;
};

}  // namespace parbench::driver
