// Ctrl-C, kill and a lost launcher: SIGINT, SIGTERM and SIGHUP end a run the way its time limit
// does — rank 0 says what was being measured, completes its files and the run stops with
// 128 + the signal (130, 143, 129). Used by the driver (`parbench run`) and by programs built on
// parbench::mpi::main.
//
// The signals are blocked in every thread (threads created later, MPI's included, inherit the
// mask) and taken by one thread with sigwaitinfo, so the handler may do ordinary work (write
// files), which a signal handler may not.
//
// One path for every rank: a signal may reach one process only (`kill PID`, a batch system's or
// the OOM handler's SIGTERM to one node), and only rank 0 can complete the files and print the
// line. A rank other than 0 therefore passes its signal on to rank 0 — sigqueue() carrying its
// rank, which needs no MPI progress (rank 0 may be waiting inside a collective) — and gives rank 0
// a grace period to end the run. When rank 0 cannot (it is stopped, on another node, or gone),
// the rank stops the run itself, with its own line. A signal that every process receives (the
// launcher's Ctrl-C) is taken by rank 0 itself: the others wait a moment before passing theirs on.
//
// Under an MPI launcher, a process whose launcher went away (its parent changed: a killed
// hydra_pmi_proxy or slurmstepd leaves the ranks running) stops as SIGHUP would stop it.
#pragma once

#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

namespace parbench {

// What stopped the run, as the guard's thread saw it.
struct interrupt {
    int signo = 0;
    int rank = 0;               // the rank the signal was sent to
    bool launcher_gone = false;  // no signal: the parent (launcher) of this process exited
    bool alone = false;          // a rank other than 0 that stops the run itself (rank 0 did not)
};

[[nodiscard]] inline const char* signal_name(int signo) noexcept {
    switch (signo) {
        case SIGHUP: return "SIGHUP";
        case SIGINT: return "SIGINT";
        case SIGTERM: return "SIGTERM";
        default: return "a signal";
    }
}

// What a rank other than 0 adds to the line when it stops the run itself (time limit or signal):
// rank 0, which writes the files, did not end the run in time.
[[nodiscard]] inline std::string stopped_by(int this_rank) {
    return " by rank " + std::to_string(this_rank) +
           " (rank 0 did not respond: the output files hold what it last wrote)";
}

// The line that reports it: "interrupted by SIGTERM (sent to rank 2) during Allreduce (1024
// bytes, 4 processes); stopped". `during` is what was being measured ("" before the first
// measurement); `this_rank` is the process that prints.
[[nodiscard]] inline std::string interrupt_message(const interrupt& what, const std::string& during,
                                                   int this_rank) {
    std::string text = what.launcher_gone
                           ? "interrupted: the launcher of rank " + std::to_string(what.rank) +
                                 " exited (as a closed terminal would: SIGHUP)"
                           : std::string("interrupted by ") + signal_name(what.signo);
    // Which rank it was sent to, unless that is the rank that says it.
    if (!what.launcher_gone && what.rank != 0 && !(what.alone && what.rank == this_rank))
        text += " (sent to rank " + std::to_string(what.rank) + ")";
    if (!during.empty()) text += " during " + during;
    return text + "; stopped" + (what.alone ? stopped_by(this_rank) : std::string{});
}

// Which process rank 0 is, as another process can check it before signalling it: the same kernel
// (boot id) and pid namespace, and a pid whose start time has not changed (not reused).
struct process_identity {
    char boot_id[40] = {};
    std::uint64_t pid_namespace_dev = 0;
    std::uint64_t pid_namespace_ino = 0;
    std::int64_t pid = 0;
    std::uint64_t start_ticks = 0;

    [[nodiscard]] static std::uint64_t start_ticks_of(std::int64_t pid) {
        std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
        std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
        const auto paren = text.rfind(')');  // the command name may hold spaces and parentheses
        if (paren == std::string::npos) return 0;
        std::istringstream fields(text.substr(paren + 1));
        std::string field;
        for (int k = 3; k <= 22 && fields >> field; ++k)  // field 22: starttime, in clock ticks
            if (k == 22) return std::strtoull(field.c_str(), nullptr, 10);
        return 0;
    }

    [[nodiscard]] static process_identity of_this_process() {
        process_identity id;
        std::ifstream boot("/proc/sys/kernel/random/boot_id");
        std::string text;
        boot >> text;
        text.copy(id.boot_id, sizeof id.boot_id - 1);
        struct stat ns{};
        if (::stat("/proc/self/ns/pid", &ns) == 0) {
            id.pid_namespace_dev = ns.st_dev;
            id.pid_namespace_ino = ns.st_ino;
        }
        id.pid = ::getpid();
        id.start_ticks = start_ticks_of(id.pid);
        return id;
    }

    // `other` can be signalled from this process, and is still the process it was.
    [[nodiscard]] bool reachable_from(const process_identity& here) const {
        return pid > 0 && start_ticks != 0 && boot_id[0] != '\0' &&
               std::strncmp(boot_id, here.boot_id, sizeof boot_id) == 0 &&
               pid_namespace_ino != 0 && pid_namespace_dev == here.pid_namespace_dev &&
               pid_namespace_ino == here.pid_namespace_ino && start_ticks_of(pid) == start_ticks;
    }
};

class interrupt_guard {
public:
    using clock = std::chrono::steady_clock;

    struct timing {
        // A rank other than 0 waits this long before passing its signal to rank 0 (rank 0 got
        // the same signal from the launcher, and its own line names the signal rightly) ...
        std::chrono::duration<double> relay_delay{0.5};
        // ... and this long after it for rank 0 to end the run, before it stops the run itself.
        std::chrono::duration<double> grace{3.0};
    };

    // `on_interrupt` runs on the guard's thread and is expected to end the process. `rank` is
    // this process's rank as the launcher gave it (0 without a launcher); `under_launcher`
    // enables the check for a launcher that went away.
    interrupt_guard(std::function<void(const interrupt&)> on_interrupt, int rank,
                    bool under_launcher, timing t)
        : on_interrupt_(std::move(on_interrupt)), rank_(rank), under_launcher_(under_launcher),
          timing_(t), parent_(::getppid()) {
        sigemptyset(&set_);
        sigaddset(&set_, SIGINT);
        sigaddset(&set_, SIGTERM);
        sigaddset(&set_, SIGHUP);
        pthread_sigmask(SIG_BLOCK, &set_, &previous_);
        thread_ = std::thread([this] { loop(); });
    }
    interrupt_guard(std::function<void(const interrupt&)> on_interrupt, int rank,
                    bool under_launcher)
        : interrupt_guard(std::move(on_interrupt), rank, under_launcher, timing{}) {}
    interrupt_guard(const interrupt_guard&) = delete;
    interrupt_guard& operator=(const interrupt_guard&) = delete;

    // Stops watching and restores the signal mask: a signal that arrives later (or is pending)
    // takes its default action.
    ~interrupt_guard() {
        stopping_ = true;
        pthread_kill(thread_.native_handle(), SIGINT);  // wakes sigwaitinfo; ignored as stopping_
        thread_.join();
        pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
    }

    // Collective over the run's processes, once they can communicate: every process learns who
    // rank 0 is. `broadcast_from_rank0(data, bytes)` is the communication's broadcast.
    void join_run(int rank, const std::function<void(void*, std::size_t)>& broadcast_from_rank0) {
        process_identity zero = process_identity::of_this_process();
        broadcast_from_rank0(&zero, sizeof zero);
        std::lock_guard lock(mutex_);
        rank_ = rank;
        rank0_ = zero;
        joined_ = true;
    }

private:
    void loop() {
        while (!stopping_) {
            siginfo_t info{};
            const timespec poll_interval{1, 0};
            const int signo = sigtimedwait(&set_, &info, &poll_interval);
            if (stopping_) return;
            interrupt what;
            if (signo > 0) {
                what.signo = signo;
                what.rank = relayed_from(info).value_or(rank());
            } else if (under_launcher_ && ::getppid() != parent_) {
                what.signo = SIGHUP;
                what.rank = rank();
                what.launcher_gone = true;
            } else {
                continue;
            }
            if (rank() != 0) {
                sleep_for(timing_.relay_delay);
                relay_to_rank0(what);
                sleep_for(timing_.grace);
                what.alone = true;
            }
            on_interrupt_(what);
        }
    }

    // A signal that another rank passed on carries that rank (+1) as its value.
    [[nodiscard]] std::optional<int> relayed_from(const siginfo_t& info) const {
        if (info.si_code != SI_QUEUE) return std::nullopt;
        const int value = info.si_value.sival_int;
        if (value <= 0) return std::nullopt;
        return value - 1;
    }

    void relay_to_rank0(const interrupt& what) {
        process_identity zero;
        {
            std::lock_guard lock(mutex_);
            if (!joined_) return;
            zero = rank0_;
        }
        if (!zero.reachable_from(process_identity::of_this_process())) return;
        sigval value{};
        value.sival_int = what.rank + 1;
        (void)::sigqueue(static_cast<pid_t>(zero.pid), what.signo, value);
    }

    static void sleep_for(std::chrono::duration<double> d) {
        std::this_thread::sleep_for(std::chrono::duration_cast<clock::duration>(d));
    }

    int rank() {
        std::lock_guard lock(mutex_);
        return rank_;
    }

    std::function<void(const interrupt&)> on_interrupt_;
    std::mutex mutex_;
    int rank_ = 0;
    bool joined_ = false;
    process_identity rank0_;
    bool under_launcher_;
    timing timing_;
    pid_t parent_;
    sigset_t set_{};
    sigset_t previous_{};
    std::atomic<bool> stopping_{false};
    std::thread thread_;
};

}  // namespace parbench
