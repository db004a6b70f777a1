// The driver's Python tools (tools/, installed under DATADIR/parbench): `parbench plot` and
// `parbench report` hand the drawing to a script that writes the file's bytes on a pipe, and the
// driver writes them through the output layer (report/output_file.hpp). This header finds a
// script, checks the inputs it will read and runs it.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <parbench/core/error.hpp>
#include <parbench/report/output_file.hpp>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

extern char** environ;

namespace parbench::app {

// The script `name` next to an installed driver (PREFIX/bin -> PREFIX/share/parbench), at the
// configured data directory, or in the source tree when the driver runs from its build tree.
// `command` ("parbench plot") names the command in the error.
[[nodiscard]] inline std::filesystem::path find_tool_script(
    const std::string& name, const std::string& command, const std::filesystem::path& executable,
    const std::string& datadir, const std::string& build_root, const std::string& source_root) {
    namespace fs = std::filesystem;
    std::vector<fs::path> candidates = {executable.parent_path().parent_path() / "share" /
                                        "parbench" / name};
    if (!datadir.empty()) candidates.push_back(fs::path(datadir) / "parbench" / name);
    std::error_code ec;
    const fs::path exe_dir = fs::weakly_canonical(executable.parent_path(), ec);
    const fs::path build = build_root.empty() ? fs::path() : fs::weakly_canonical(build_root, ec);
    if (!build.empty() && exe_dir.string().starts_with(build.string()) && !source_root.empty())
        candidates.insert(candidates.begin(), fs::path(source_root) / "tools" / name);
    for (const auto& c : candidates)
        if (fs::is_regular_file(c, ec)) return c;
    throw input_error(command + ": " + name + " not found (looked in " +
                      candidates.front().parent_path().string() + "); reinstall parbench");
}

// The largest run file the scripts read (MAX_INPUT_BYTES in tools/parbench_figures.py,
// docs/user-guide.md): Python's JSON objects take about ten times the file's size.
inline constexpr std::size_t max_script_input_bytes = std::size_t{64} << 20;
// The largest file accepted back from a script (a PNG of two panels is about 100 kB, a report
// of five suites about 2 MB).
inline constexpr std::size_t max_script_output_bytes = std::size_t{256} << 20;

// An input must be a regular file of bounded size: /dev/zero would exhaust memory, and a FIFO
// would block the script forever.
inline void check_script_input(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        throw input_error(path + (errno == ENOENT
                                      ? std::string(": no such file")
                                      : ": cannot read: " + std::string(std::strerror(errno))));
    if (S_ISDIR(st.st_mode)) throw input_error(path + ": is a directory, not a file");
    if (!S_ISREG(st.st_mode))
        throw input_error(path + ": not a regular file (a device, FIFO or socket)");
    if (static_cast<unsigned long long>(st.st_size) > max_script_input_bytes)
        throw input_error(path + ": larger than " + std::to_string(max_script_input_bytes) +
                          " bytes; not a parbench result file to read");
}

// Runs `args` with its stdout on a pipe; returns what it wrote and its wait status. Descriptors
// without FD_CLOEXEC (a memfd the caller hands over) stay open in the script.
inline std::string run_capturing_stdout(std::vector<std::string> args, const std::string& command,
                                        int& wait_status) {
    int pipe_fds[2];
    if (::pipe2(pipe_fds, O_CLOEXEC) != 0)
        throw std::runtime_error(command + ": cannot make a pipe: " + std::strerror(errno));
    posix_spawn_file_actions_t actions;
    ::posix_spawn_file_actions_init(&actions);
    ::posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int spawn_error = ::posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    ::posix_spawn_file_actions_destroy(&actions);
    ::close(pipe_fds[1]);
    if (spawn_error != 0) {
        ::close(pipe_fds[0]);
        throw std::runtime_error(command + ": cannot run " + args[0] + ": " +
                                 std::strerror(spawn_error) +
                                 " (install python3-matplotlib, see scripts/setup.sh)");
    }
    std::string output;
    bool too_large = false;
    char buffer[65536];
    while (true) {
        const ssize_t n = ::read(pipe_fds[0], buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        if (output.size() + static_cast<std::size_t>(n) > max_script_output_bytes) {
            too_large = true;
            ::kill(pid, SIGTERM);
            break;
        }
        output.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(pipe_fds[0]);
    while (::waitpid(pid, &wait_status, 0) < 0 && errno == EINTR) {
    }
    if (too_large)
        throw std::runtime_error(command + ": the output grew past " +
                                 std::to_string(max_script_output_bytes) + " bytes; not written");
    return output;
}

// The script's exit: 0 when it wrote something; its own status when it failed (it printed the
// one error line); throws when it was killed or wrote nothing.
[[nodiscard]] inline int script_status(int wait_status, const std::string& output,
                                       const std::string& command) {
    if (WIFSIGNALED(wait_status))
        throw std::runtime_error(command + ": the script was killed by signal " +
                                 std::to_string(WTERMSIG(wait_status)));
    if (WEXITSTATUS(wait_status) != 0) return WEXITSTATUS(wait_status);
    if (output.empty()) throw std::runtime_error(command + ": the script wrote nothing");
    return 0;
}

// Runs the script (run_capturing_stdout) and writes what it printed to `target`, atomically and
// durably; on a failure, the script's status (script_status) and nothing written.
[[nodiscard]] inline int run_script_into(std::vector<std::string> args, const std::string& command,
                                         const report::output_path& target) {
    int wait_status = 0;
    const std::string output = run_capturing_stdout(std::move(args), command, wait_status);
    if (const int status = script_status(wait_status, output, command); status != 0) return status;
    report::write_file_atomically(target.real, output, target.label, /*durable=*/true);
    return 0;
}

}  // namespace parbench::app
