// How a command-line program of parbench ends: whatever its body throws becomes one line on
// stderr (in the program's voice, exit_status.hpp) and an exit status. The `parbench` driver's
// main() and parbench::mpi::main both end through it.
#pragma once

#include <parbench/core/error.hpp>
#include <parbench/driver/exit_status.hpp>
#include <parbench/host/launcher.hpp>
#include <parbench/host/run_error.hpp>
#include <parbench/plugin/loader.hpp>
#include <parbench/report/output_file.hpp>

#include <exception>
#include <utility>

namespace parbench::driver {

// Runs `body` (returning the exit status) and turns what it throws into a line and a status.
template <class Body>
[[nodiscard]] int run_main(Body&& body) {
    try {
        return std::forward<Body>(body)();
    } catch (const driver_exit& e) {
        if (parbench::launcher_rank() == 0) print_error(e.message);
        return e.status;
    } catch (const parbench::run_error& e) {
        // Found before the plugins started (every process judges alike): the launcher's rank 0
        // says it.
        if (parbench::launcher_rank() == 0) print_error(e.what());
        return e.exit_status();
    } catch (const parbench::plugin::plugin_refusal& e) {
        // A plugin's init refused before its backend started (the MPI plugin before MPI_Init):
        // said once, and by this process where rank 0 did not refuse (it waits in MPI_Init for
        // this one, until the time limit: session_run.hpp).
        print_error_once(e.what(), parbench::launcher_rank());
        return exit_bad_input;
    } catch (const parbench::plugin::plugin_error& e) {
        // From here on: found by one process or by all of them; said once (exit_status.hpp).
        print_error_once(e.what(), parbench::launcher_rank());
        return exit_failure;
    } catch (const parbench::input_error& e) {
        print_error_once(e.what(), parbench::launcher_rank());
        return exit_bad_input;
    } catch (const parbench::report::output_error& e) {
        print_error_once(e.what(), parbench::launcher_rank());
        return exit_output_error;
    } catch (const std::exception& e) {
        print_error_once(e.what(), parbench::launcher_rank());
        return exit_failure;
    }
}

}  // namespace parbench::driver
