// The run's own directory for the files of a suite that writes them (imb-io): created fresh
// under --io-dir (default: the system temporary directory) by world rank 0, its name broadcast,
// and removed with everything in it when the run ends, normally or by an error. Its name,
// parbench-io-<host>-<pid>-XXXXXX, says whose it is: the driver removes it too when it stops a
// run (--timeout, SIGINT/SIGTERM; it learns the path from the run header), and after a SIGKILL
// the name tells which run left it (see docs/user-guide.md).
#pragma once

#include <string>

namespace parbench::mpi_plugin::io {

// The prefix of every run directory; the driver removes only directories with this name.
inline constexpr const char* run_directory_prefix = "parbench-io-";

class run_directory {
public:
    // Collective over MPI_COMM_WORLD. `parent` empty: $TMPDIR, else /tmp. A missing, unusable
    // or unwritable parent is an input_error with the same one-line message on every process.
    explicit run_directory(const std::string& parent);
    run_directory(const run_directory&) = delete;
    run_directory& operator=(const run_directory&) = delete;
    // World rank 0 removes the directory and what is left in it (nothing after a clean run).
    ~run_directory();

    [[nodiscard]] const std::string& path() const noexcept { return path_; }

private:
    std::string path_;
    bool owner_ = false;
};

}  // namespace parbench::mpi_plugin::io
