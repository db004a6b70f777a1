// The run's file directory (imb-io's, run_files.hpp) removed however rank 0 ends, SIGKILL
// included. A run that parbench stops itself removes it at once (run_session::end); but a closed
// terminal under MPICH's mpiexec kills every rank outright — hydra starts the ranks in sessions
// of their own, so they never see the hangup, and when mpiexec dies of it the proxies SIGKILL
// them — and so do a rank killed by the OOM killer and an abort from a rank while rank 0 is
// stopped. Nothing in rank 0 runs any more then.
//
// So rank 0 forks, before any thread or MPI exists, a small process that outlives it: in a
// session of its own (the launcher's kill of the rank's process group spares it), with no file
// descriptor of the rank's but its end of a pipe (the launcher must see the rank's output end),
// deaf to the terminal's and the launcher's signals. Rank 0 writes the directory's path into the
// pipe once it knows it; when the pipe reaches end of file — rank 0 exited, whichever way — the
// process removes the directory if it is still there (after a normal run the plugin already
// did) and exits.
#pragma once

#include <parbench/driver/run_files.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <string>

namespace parbench::driver {

class run_files_sweeper {
public:
    run_files_sweeper() = default;
    run_files_sweeper(const run_files_sweeper&) = delete;
    run_files_sweeper& operator=(const run_files_sweeper&) = delete;
    ~run_files_sweeper() {
        if (to_sweeper_ >= 0) ::close(to_sweeper_);
    }

    // Forks the sweeping process. Call it while this process has a single thread. Without it
    // (fork failed) the run goes on, and only a SIGKILL leaves the directory behind.
    void start() {
        int fds[2] = {-1, -1};
        if (::pipe2(fds, O_CLOEXEC) != 0) return;
        const pid_t child = ::fork();
        if (child == 0) sweep(fds[0]);  // does not return
        ::close(fds[0]);
        if (child < 0) {
            ::close(fds[1]);
            return;
        }
        to_sweeper_ = fds[1];
    }

    // The run's directory, once known (only a name of run_file_directory()'s kind reaches here).
    void track(const std::string& directory) {
        if (to_sweeper_ < 0 || directory.empty()) return;
        const std::string line = directory + "\n";
        std::size_t done = 0;
        while (done < line.size()) {
            const ssize_t n = ::write(to_sweeper_, line.data() + done, line.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return;
            done += static_cast<std::size_t>(n);
        }
    }

private:
    [[noreturn]] static void sweep(int from_rank0) {
        ::setsid();
        for (const int s : {SIGHUP, SIGINT, SIGTERM, SIGQUIT, SIGPIPE}) ::signal(s, SIG_IGN);
        const int null = ::open("/dev/null", O_RDWR);
        for (int fd = 0; fd <= 2; ++fd)
            if (null >= 0 && null != fd) ::dup2(null, fd);
        rlimit files{};
        const int highest = ::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < 65536
                                ? static_cast<int>(files.rlim_cur)
                                : 65536;
        for (int fd = 3; fd < highest; ++fd)
            if (fd != from_rank0) ::close(fd);
        std::string text;
        char buffer[4096];
        while (true) {
            const ssize_t n = ::read(from_rank0, buffer, sizeof buffer);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            text.append(buffer, static_cast<std::size_t>(n));
        }
        // Every complete line is a directory (one per run; a second would be a second run).
        std::size_t start = 0;
        for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
            remove_run_files(text.substr(start, end - start));
        ::_exit(0);
    }

    int to_sweeper_ = -1;
};

}  // namespace parbench::driver
