// Ctrl-C, kill and a closed terminal: SIGINT, SIGTERM and SIGHUP end a run the way the time limit
// does — rank 0 says what was being measured, completes the JSON/CSV files and the run stops with
// 128 + the signal (130, 143, 129).
// The signals are blocked in every thread (threads created later, MPI's included, inherit the
// mask) and taken by one thread with sigwait, so the handler may do ordinary work (write files),
// which a signal handler may not.
#pragma once

#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <functional>
#include <thread>

namespace parbench::app {

class interrupt_guard {
public:
    // `on_signal(signo)` runs on the guard's thread and is expected to end the process.
    explicit interrupt_guard(std::function<void(int)> on_signal)
        : on_signal_(std::move(on_signal)) {
        sigemptyset(&set_);
        sigaddset(&set_, SIGINT);
        sigaddset(&set_, SIGTERM);
        sigaddset(&set_, SIGHUP);
        pthread_sigmask(SIG_BLOCK, &set_, &previous_);
        thread_ = std::thread([this] { loop(); });
    }
    interrupt_guard(const interrupt_guard&) = delete;
    interrupt_guard& operator=(const interrupt_guard&) = delete;

    // Stops watching and restores the signal mask: a signal that arrives later (or is pending)
    // takes its default action.
    ~interrupt_guard() {
        stopping_ = true;
        pthread_kill(thread_.native_handle(), SIGINT);  // wakes sigwait; ignored as stopping_
        thread_.join();
        pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
    }

private:
    void loop() {
        while (true) {
            int signo = 0;
            if (sigwait(&set_, &signo) != 0) continue;
            if (stopping_) return;
            on_signal_(signo);
        }
    }

    std::function<void(int)> on_signal_;
    sigset_t set_{};
    sigset_t previous_{};
    std::atomic<bool> stopping_{false};
    std::thread thread_;
};

}  // namespace parbench::app
