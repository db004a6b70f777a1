// `parbench plot RUN.json... -o FIGURE.png|svg`: the driver hands the drawing to parbench_plot.py
// (tools/, installed under DATADIR/parbench), which draws with matplotlib and sends the figure's
// bytes back on a pipe; the driver writes the file through the output layer
// (report/output_file.hpp), like every file parbench writes: never into a device or a FIFO,
// replaced atomically, every write checked. The driver checks the obvious mistakes first (inputs
// that are not regular files of bounded size, a target that is not a regular file, a title with
// control characters), so that a bad input gets the driver's one-line error whichever side
// finds it.
#pragma once

#include "printable.hpp"

#include <parbench/core/error.hpp>
#include <parbench/report/output_file.hpp>

#include <CLI/CLI.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

extern char** environ;

namespace parbench::app {

struct plot_options {
    std::vector<std::string> inputs;
    std::string output;
    std::string metric = "auto";
    bool imb_t = false;
    std::string title;
};

inline CLI::App* add_plot_command(CLI::App& app, plot_options& o) {
    CLI::App* p = app.add_subcommand(
        "plot", "Plot runs against message size: parbench plot RUN.json... -o FIGURE.png|svg");
    p->add_option("runs", o.inputs, "parbench JSON files (several are overlaid)")->required();
    p->add_option("-o,--output", o.output, "The figure: .png or .svg")->required()->type_name(
        "FILE");
    p->add_option("--metric", o.metric,
                  "What to plot: latency, bandwidth, gflops, or auto (latency, plus bandwidth "
                  "where rows have it, or GFlop/s for PAW)")
        ->capture_default_str()
        ->check(CLI::IsMember({"auto", "latency", "bandwidth", "gflops"}));
    p->add_flag("--imb-t", o.imb_t, "Also draw the suite's own headline figure (IMB's t_max, PAW's mean)");
    p->add_option("--title", o.title, "Figure title");
    return p;
}

// The script next to an installed driver (PREFIX/bin -> PREFIX/share/parbench), at the configured
// data directory, or in the source tree when the driver runs from its build tree.
[[nodiscard]] inline std::filesystem::path find_plot_script(const std::filesystem::path& executable,
                                                            const std::string& datadir,
                                                            const std::string& build_root,
                                                            const std::string& source_root) {
    namespace fs = std::filesystem;
    std::vector<fs::path> candidates = {
        executable.parent_path().parent_path() / "share" / "parbench" / "parbench_plot.py"};
    if (!datadir.empty()) candidates.push_back(fs::path(datadir) / "parbench" / "parbench_plot.py");
    std::error_code ec;
    const fs::path exe_dir = fs::weakly_canonical(executable.parent_path(), ec);
    const fs::path build = build_root.empty() ? fs::path() : fs::weakly_canonical(build_root, ec);
    if (!build.empty() && exe_dir.string().starts_with(build.string()) && !source_root.empty())
        candidates.insert(candidates.begin(), fs::path(source_root) / "tools" / "parbench_plot.py");
    for (const auto& c : candidates)
        if (fs::is_regular_file(c, ec)) return c;
    throw input_error("parbench plot: parbench_plot.py not found (looked in " +
                      candidates.front().parent_path().string() + "); reinstall parbench");
}

// The largest run file plot reads (parbench_plot.py's MAX_INPUT_BYTES, docs/user-guide.md):
// Python's JSON objects take about ten times the file's size.
inline constexpr std::size_t max_plot_input_bytes = std::size_t{64} << 20;
// The largest figure accepted back from the script (a PNG of two panels is about 100 kB).
inline constexpr std::size_t max_figure_bytes = std::size_t{256} << 20;

namespace detail {

// An input must be a regular file of bounded size: /dev/zero would exhaust memory, and a FIFO
// would block the script forever.
inline void check_plot_input(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        throw input_error(path + (errno == ENOENT ? std::string(": no such file")
                                                  : ": cannot read: " + std::string(std::strerror(errno))));
    if (S_ISDIR(st.st_mode)) throw input_error(path + ": is a directory, not a file");
    if (!S_ISREG(st.st_mode))
        throw input_error(path + ": not a regular file (a device, FIFO or socket)");
    if (static_cast<unsigned long long>(st.st_size) > max_plot_input_bytes)
        throw input_error(path + ": larger than " + std::to_string(max_plot_input_bytes) +
                          " bytes; not a parbench result file to plot");
}

// Runs `args` with its stdout on a pipe; returns what it wrote and its wait status.
inline std::string run_capturing_stdout(std::vector<std::string> args, int& wait_status) {
    int pipe_fds[2];
    if (::pipe2(pipe_fds, O_CLOEXEC) != 0)
        throw std::runtime_error(std::string("parbench plot: cannot make a pipe: ") +
                                 std::strerror(errno));
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
        throw std::runtime_error("parbench plot: cannot run " + args[0] + ": " +
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
        if (output.size() + static_cast<std::size_t>(n) > max_figure_bytes) {
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
        throw std::runtime_error("parbench plot: the figure grew past " +
                                 std::to_string(max_figure_bytes) + " bytes; not written");
    return output;
}

}  // namespace detail

// Draws the figure with the plotting script and writes it to -o; returns the exit status (the
// script's own when it failed: it has printed the one error line).
inline int run_plot(const plot_options& o, const std::filesystem::path& script,
                    const std::string& python) {
    namespace fs = std::filesystem;
    for (const auto& input : o.inputs) detail::check_plot_input(input);
    const std::string extension = fs::path(o.output).extension().string();
    if (extension != ".png" && extension != ".svg")
        throw input_error("-o " + o.output + ": the figure must end in .png or .svg");
    if (std::any_of(o.title.begin(), o.title.end(), [](char c) {
            return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
        }))
        throw input_error("--title " + quote_value(o.title) +
                          ": control characters have no place in a title");
    report::output_path target;
    try {
        target = report::check_output_file("-o", o.output);
    } catch (const report::output_error& e) {
        throw input_error(e.what());  // found before anything is drawn: bad input
    }

    std::vector<std::string> args = {python, script.string(), "--format", extension.substr(1),
                                     "--metric", o.metric};
    if (o.imb_t) args.emplace_back("--imb-t");
    if (!o.title.empty()) args.insert(args.end(), {"--title", o.title});
    args.emplace_back("--");
    args.insert(args.end(), o.inputs.begin(), o.inputs.end());
    int wait_status = 0;
    const std::string figure = detail::run_capturing_stdout(std::move(args), wait_status);
    if (WIFSIGNALED(wait_status))
        throw std::runtime_error("parbench plot: the plotting script was killed by signal " +
                                 std::to_string(WTERMSIG(wait_status)));
    if (WEXITSTATUS(wait_status) != 0) return WEXITSTATUS(wait_status);
    if (figure.empty())
        throw std::runtime_error("parbench plot: the plotting script drew nothing");
    report::write_file_atomically(target.real, figure, target.label, /*durable=*/true);
    return 0;
}

}  // namespace parbench::app
