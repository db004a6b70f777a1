// Should the driver draw a progress line? On a terminal, yes. Under an MPI launcher a process's
// stderr is a pipe to the launcher even when the person runs `mpiexec` in a terminal, so there
// the question is asked of the launcher: a local ancestor (mpiexec is the grandparent under
// Hydra and Open MPI) whose stderr is a terminal. Linux /proc only; elsewhere the answer is no.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

namespace parbench::driver {

namespace detail {

[[nodiscard]] inline bool is_terminal_path(const std::string& path) {
    return path.rfind("/dev/pts/", 0) == 0 || path.rfind("/dev/tty", 0) == 0;
}

// The parent of `pid` from /proc/PID/stat ("pid (comm) state ppid ..."; comm may hold spaces
// and parentheses, so the fields after the last ')' are read). 0 when unknown.
[[nodiscard]] inline pid_t parent_of(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    std::getline(stat, text);
    const auto close = text.rfind(')');
    if (close == std::string::npos) return 0;
    char state = 0;
    long parent = 0;
    if (std::sscanf(text.c_str() + close + 1, " %c %ld", &state, &parent) != 2) return 0;
    return static_cast<pid_t>(parent);
}

}  // namespace detail

// Whether an ancestor within `levels` generations writes its stderr to a terminal.
[[nodiscard]] inline bool ancestor_stderr_is_terminal(int levels = 4) {
    pid_t pid = ::getppid();
    for (int level = 0; level < levels && pid > 1; ++level) {
        std::error_code ec;
        const auto target =
            std::filesystem::read_symlink("/proc/" + std::to_string(pid) + "/fd/2", ec);
        if (!ec && detail::is_terminal_path(target.string())) return true;
        pid = detail::parent_of(pid);
    }
    return false;
}

// --progress auto|on|off. `launched` tells whether an MPI launcher started this process.
[[nodiscard]] inline bool progress_line_wanted(const std::string& mode, bool launched) {
    if (mode == "on") return true;
    if (mode == "off") return false;
    if (::isatty(STDERR_FILENO) != 0) return true;
    return launched && ancestor_stderr_is_terminal();
}

}  // namespace parbench::driver
