// Stopping a run that is under way (time limit, interrupt, an output file that failed, events
// that cannot be rendered): rank 0 completes its files, says why, and every process ends.
#pragma once

#include <parbench/driver/exit_status.hpp>
#include <parbench/driver/run_session.hpp>

#include <parbench/plugin/abi.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>

namespace parbench::driver {

// `finishing` — rank 0's session, null elsewhere — completes its files, then `message` (if any)
// is printed and every process stops with `status`. Files first: after SIGHUP the terminal (or
// mpiexec, the reader of stderr) may be gone, and a write to it must neither kill this process
// (SIGPIPE, ignored from here on) nor come before the files are complete.
// `bare`: the message is printed as it is, without the voice's error prefix.
[[noreturn]] inline void stop_run(run_session* finishing, const parbench_comm_service* comm,
                                  int status, const std::string& message = {},
                                  bool bare = false) {
    std::signal(SIGPIPE, SIG_IGN);
    if (finishing != nullptr) {
        try {
            (void)finishing->end(false);  // a file that fails now was reported when it failed
        } catch (...) {  // the files already hold every finished record
        }
    }
    if (!message.empty()) {
        if (bare)
            write_line("", message);
        else
            print_error(message);
    }
    std::cout.flush();
    if (comm != nullptr && comm->abort != nullptr) {
        // The launcher forwards our stderr through a pipe and tears the job down on an abort;
        // aborting at once sometimes lost the line just written (seen with MPICH's hydra:
        // status 4, no message). A moment for the launcher to read it first.
        if (!message.empty() && comm->size != nullptr && comm->size() > 1)
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        comm->abort(status);
    }
    std::_Exit(status);
}

}  // namespace parbench::driver
