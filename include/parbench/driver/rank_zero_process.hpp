// Rank 0's process, watched from another rank on the same node, before or without MPI: how a
// rank that met an error learns whether rank 0 has ended (and so said the error itself, or was
// ended, which its launcher reports) without waiting a fixed time (driver/exit_status.hpp).
//
// A launcher starts the processes of one node as children of one process (hydra's
// hydra_pmi_proxy, Open MPI's mpirun or orted, Slurm's slurmstepd): rank 0's process on this node
// is the sibling whose environment gives it rank 0 in the variable that gives this process its
// rank (host/launcher.hpp). Linux's /proc only; elsewhere, or on another node than rank 0, none
// is found and the caller waits as before.
#pragma once

#include <parbench/host/launcher.hpp>

#include <dirent.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>

namespace parbench::driver {

namespace rank_zero_process_impl {

// The parent and the state letter of process `pid` (/proc/PID/stat); nothing when it is gone.
struct process_state {
    long parent = 0;
    char state = '?';
};
[[nodiscard]] inline std::optional<process_state> state_of(long pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // "PID (COMM) S PPID ...": COMM may hold spaces and parentheses; it ends at the last ')'.
    const std::size_t close = text.rfind(')');
    if (close == std::string::npos) return {};
    std::istringstream rest(text.substr(close + 1));
    process_state s;
    if (!(rest >> s.state >> s.parent)) return {};
    return s;
}

// Whether process `pid`'s environment sets `name` to `value`.
[[nodiscard]] inline bool environment_has(long pid, std::string_view name,
                                          std::string_view value) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/environ");
    std::string entry;
    const std::string wanted = std::string(name) + "=" + std::string(value);
    while (std::getline(in, entry, '\0'))
        if (entry == wanted) return true;
    return false;
}

}  // namespace rank_zero_process_impl

// The process id of rank 0 of this launch when it runs on this node beside this process, and
// this process is not rank 0; nothing otherwise (no launcher, another node, no /proc).
[[nodiscard]] inline std::optional<long> rank_zero_sibling() {
    using namespace rank_zero_process_impl;
    const std::string_view variable = launcher_rank_variable();
    if (variable.empty() || launcher_rank() == 0) return {};
    const long parent = static_cast<long>(::getppid());
    const long self = static_cast<long>(::getpid());
    DIR* proc = ::opendir("/proc");
    if (proc == nullptr) return {};
    std::optional<long> found;
    while (const dirent* entry = ::readdir(proc)) {
        char* end = nullptr;
        const long pid = std::strtol(entry->d_name, &end, 10);
        if (end == entry->d_name || *end != '\0' || pid == self) continue;
        const auto s = state_of(pid);
        if (!s || s->parent != parent) continue;
        if (environment_has(pid, variable, "0")) {
            found = pid;
            break;
        }
    }
    ::closedir(proc);
    return found;
}

// Whether process `pid` has ended: gone, a zombie its parent has not reaped yet, or no longer
// the child of `parent` (its id reused).
[[nodiscard]] inline bool process_ended(long pid, long parent) {
    const auto s = rank_zero_process_impl::state_of(pid);
    return !s || s->state == 'Z' || s->state == 'X' || s->parent != parent;
}

// What became of rank 0 within `limit`, seen from another rank.
enum class rank_zero_outcome {
    ended,    // rank 0's process ended (or had ended already, the launch being on this node)
    running,  // it still runs after `limit`: it did not meet what this rank met
    unknown,  // on another node: nothing seen (`limit` has passed, as the caller's wait)
};
[[nodiscard]] inline rank_zero_outcome wait_for_rank_zero(std::chrono::milliseconds limit) {
    const auto pid = rank_zero_sibling();
    if (!pid) {
        // Not beside this process although every process runs on this node: it has ended and
        // been reaped by the launcher already.
        if (launch_on_one_node()) return rank_zero_outcome::ended;
        std::this_thread::sleep_for(limit);
        return rank_zero_outcome::unknown;
    }
    const long parent = static_cast<long>(::getppid());
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
        if (process_ended(*pid, parent)) return rank_zero_outcome::ended;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return process_ended(*pid, parent) ? rank_zero_outcome::ended : rank_zero_outcome::running;
}

}  // namespace parbench::driver
