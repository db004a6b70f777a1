// Rank 0's process, watched from another rank on the same node, before or without MPI: how a
// rank that met an error learns whether rank 0 has ended (and so said the error itself, or was
// ended, which its launcher reports) without waiting a fixed time (driver/exit_status.hpp).
//
// A launcher starts the processes of one node as children of one process (hydra's
// hydra_pmi_proxy, Open MPI's mpirun or orted, Slurm's slurmstepd): rank 0's process on this node
// is the one under the same launcher process whose environment gives it rank 0 in the variable
// that gives this process its rank (host/launcher.hpp); either may sit under a wrapper that
// started it (`mpiexec -n 2 sh -c "parbench ..."`: the wrapper's environment holds the same
// rank). Linux's /proc only; elsewhere, or on another node than rank 0, none is found.
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

// The launcher's process that started `pid` (rank `rank` in `variable`): its parent, or its
// grandparent when the parent is a wrapper of the same rank; 0 when unknown.
[[nodiscard]] inline long launcher_process_of(long pid, std::string_view variable,
                                              std::string_view rank) {
    const auto s = state_of(pid);
    if (!s) return 0;
    if (s->parent > 1 && environment_has(s->parent, variable, rank)) {
        const auto wrapper = state_of(s->parent);
        return wrapper ? wrapper->parent : 0;
    }
    return s->parent;
}

}  // namespace rank_zero_process_impl

// Rank 0 of this launch, running on this node under the launcher's process that started this
// one (its process id and its parent's), where this process is not rank 0; nothing otherwise
// (no launcher, another node, no /proc).
struct rank_zero_process {
    long pid = 0;
    long parent = 0;
};
[[nodiscard]] inline std::optional<rank_zero_process> rank_zero_sibling() {
    using namespace rank_zero_process_impl;
    const std::string_view variable = launcher_rank_variable();
    if (variable.empty() || launcher_rank() == 0) return {};
    const long self = static_cast<long>(::getpid());
    const long launcher =
        launcher_process_of(self, variable, std::to_string(launcher_rank()));
    if (launcher <= 1) return {};
    DIR* proc = ::opendir("/proc");
    if (proc == nullptr) return {};
    std::optional<rank_zero_process> found;
    while (const dirent* entry = ::readdir(proc)) {
        char* end = nullptr;
        const long pid = std::strtol(entry->d_name, &end, 10);
        if (end == entry->d_name || *end != '\0' || pid == self) continue;
        if (!environment_has(pid, variable, "0")) continue;
        if (launcher_process_of(pid, variable, "0") != launcher) continue;
        if (const auto s = state_of(pid)) {
            found = rank_zero_process{pid, s->parent};
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
    const auto rank_zero = rank_zero_sibling();
    if (!rank_zero) {
        // Not beside this process although every process runs on this node: it has ended and
        // been reaped by the launcher already.
        if (launch_on_one_node()) return rank_zero_outcome::ended;
        std::this_thread::sleep_for(limit);
        return rank_zero_outcome::unknown;
    }
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
        if (process_ended(rank_zero->pid, rank_zero->parent)) return rank_zero_outcome::ended;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return process_ended(rank_zero->pid, rank_zero->parent) ? rank_zero_outcome::ended
                                                : rank_zero_outcome::running;
}

}  // namespace parbench::driver
