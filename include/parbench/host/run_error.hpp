// The one exception a host run throws: the driver's one-line message and the exit status the
// driver gives it, so that a test and the command line report the same thing.
#pragma once

#include <stdexcept>
#include <string>

namespace parbench {

class run_error : public std::runtime_error {
public:
    enum class kind {
        bad_input,         // the request is wrong (unknown suite, benchmark or option value)
        failure,           // a plugin or its backend failed, or no plugin can run the suite
        nothing_measured,  // the run finished without a single result
        skipped,           // a strict run (run_settings::strict, --strict) skipped a benchmark
    };

    run_error(kind k, const std::string& message, int rank = 0)
        : std::runtime_error(message), kind_(k), rank_(rank) {}

    [[nodiscard]] kind what_kind() const noexcept { return kind_; }
    // The process that met the error (a plugin failure may happen on one rank only).
    [[nodiscard]] int rank() const noexcept { return rank_; }
    // The driver's exit status for it (driver/exit_status.hpp): 2 for bad input, 6 for a strict
    // run that skipped a benchmark, 1 otherwise.
    [[nodiscard]] int exit_status() const noexcept {
        return kind_ == kind::bad_input ? 2 : kind_ == kind::skipped ? 6 : 1;
    }

private:
    kind kind_;
    int rank_;
};

}  // namespace parbench
