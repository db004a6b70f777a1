// The per-measurement time limit. The plugin calls host->progress before every measurement;
// each call re-arms a deadline `limit` seconds ahead with what is being measured. When a
// deadline passes with no further progress and no completion, the watchdog thread calls
// `on_expiry` once (which reports and stops the whole run; it does not return normally).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace parbench::driver {

struct measurement {
    std::string benchmark;
    std::uint64_t bytes = 0;
    int processes = 0;
};

// "PingPong (1024 bytes, 2 processes)": how the progress line and every message that stops a run
// name a measurement.
[[nodiscard]] inline std::string describe(const measurement& m) {
    return m.benchmark + " (" + std::to_string(m.bytes) + " bytes, " +
           std::to_string(m.processes) + " processes)";
}

class watchdog {
public:
    using clock = std::chrono::steady_clock;

    // `limit` <= 0 disables the watchdog. `grace` is added to every deadline (non-zero ranks
    // wait a little longer so that rank 0's message is the one the user sees).
    watchdog(std::chrono::duration<double> limit, std::chrono::duration<double> grace,
             std::function<void(const measurement&)> on_expiry)
        : limit_(std::chrono::duration_cast<clock::duration>(limit)),
          grace_(std::chrono::duration_cast<clock::duration>(grace)),
          on_expiry_(std::move(on_expiry)) {
        if (limit_ > clock::duration::zero()) thread_ = std::thread([this] { loop(); });
    }

    watchdog(const watchdog&) = delete;
    watchdog& operator=(const watchdog&) = delete;

    ~watchdog() { stop(); }

    // A measurement starts: the time limit restarts for it.
    void arm(measurement what) {
        std::lock_guard lock(mutex_);
        current_ = std::move(what);
        armed_ = true;
        deadline_ = clock::now() + limit_ + grace_;
        wake_.notify_all();
    }

    // The run finished (or failed) normally: nothing more to watch.
    void stop() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
            wake_.notify_all();
        }
        if (thread_.joinable()) thread_.join();
    }

private:
    void loop() {
        std::unique_lock lock(mutex_);
        while (!stopping_) {
            if (!armed_) {
                wake_.wait(lock);
                continue;
            }
            if (wake_.wait_until(lock, deadline_) == std::cv_status::timeout && armed_ &&
                !stopping_ && clock::now() >= deadline_) {
                const measurement what = current_;
                armed_ = false;
                lock.unlock();
                on_expiry_(what);
                lock.lock();
            }
        }
    }

    clock::duration limit_;
    clock::duration grace_;
    std::function<void(const measurement&)> on_expiry_;
    std::mutex mutex_;
    std::condition_variable wake_;
    measurement current_;
    clock::time_point deadline_{};
    bool armed_ = false;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace parbench::driver
