#include "overlap/options.hpp"

#include <parbench/core/error.hpp>
#include <parbench/core/names.hpp>
#include <parbench/core/options.hpp>
#include <parbench/core/sizes.hpp>

#include <climits>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>

namespace parbench::overlap {
namespace options_impl {
namespace {

constexpr parbench_parameter parameter_rows[] = {
    {"method", "NAME", "allreduce, barrier, broadcast, gather, allgather or scatter", "allreduce",
     PARBENCH_ARITY_ONE},
    {"allMethods", "0|1", "1: every method", "0", PARBENCH_ARITY_ONE},
    {"iterations", "N", "timed iterations per timing (at most what -time allows)", "10000",
     PARBENCH_ARITY_ONE},
    {"startSize", "N",
     "first communicator size; doubled after each run, then one run on all processes",
     "all processes", PARBENCH_ARITY_ONE},
    {"verbose", "0|1", "1: print the work-time ramp under each row", "0", PARBENCH_ARITY_ONE},
    {"threshold", "T", "work dominates once work_t >= T * overhead", "2", PARBENCH_ARITY_ONE},
    {"nohdr", "0|1", "1: no header", "0", PARBENCH_ARITY_ONE},
    {"count", "N", "MPI_DOUBLEs per process in each message", "1", PARBENCH_ARITY_ONE},
    {"time", "SECONDS", "most time one timing may take (cuts -iterations)", "1",
     PARBENCH_ARITY_ONE},
    {"optionsFile", "FILE", "key=value lines with these options; the command line wins",
     "options.ini when present", PARBENCH_ARITY_ONE},
    {"thread_level", "single|funneled|serialized|multiple",
     "MPI_Init_thread level (asynchronous progress needs multiple)", "single",
     PARBENCH_ARITY_ONE},
};

// Where a value came from, for messages: "-iterations x" or "options.ini:3: iterations=x".
struct origin {
    std::string key;
    std::string value;
    std::string where;  // "" for the command line

    [[nodiscard]] input_error bad(const std::string& why) const {
        return input_error(where.empty() ? "-" + key + " " + value + ": " + why
                                         : where + ": " + key + "=" + value + ": " + why);
    }
};

[[nodiscard]] std::uint64_t positive(const origin& o, std::uint64_t most) {
    std::uint64_t value = 0;
    if (!parbench::parse_unsigned(o.value, value) || value == 0 || value > most)
        throw o.bad(value > most ? "at most " + std::to_string(most)
                                 : parbench::integer_problem<int>(
                                       o.value, "expected a positive integer"));
    return value;
}

[[nodiscard]] bool zero_or_one(const origin& o) {
    if (o.value == "0") return false;
    if (o.value == "1") return true;
    throw o.bad("expected 0 or 1");
}

[[nodiscard]] double positive_number(const origin& o, double most) {
    char* end = nullptr;
    const double value = std::strtod(o.value.c_str(), &end);
    if (o.value.empty() || end != o.value.c_str() + o.value.size() || !std::isfinite(value) ||
        !(value > 0.0) || value > most)
        throw o.bad("expected a positive number (at most " + std::to_string(static_cast<long>(most)) + ")");
    return value;
}

void apply(options& opts, const origin& o, int world, bool& all) {
    const std::string& k = o.key;
    if (k == "method") {
        const auto m = method_named(o.value);
        if (!m) throw o.bad("expected allreduce, barrier, broadcast, gather, allgather or scatter");
        opts.methods = {*m};
    } else if (k == "allMethods") {
        all = zero_or_one(o);
    } else if (k == "iterations") {
        opts.iterations = positive(o, static_cast<std::uint64_t>(INT_MAX));
    } else if (k == "startSize") {
        opts.start_size = static_cast<int>(positive(o, static_cast<std::uint64_t>(world)));
    } else if (k == "verbose") {
        opts.verbose = zero_or_one(o);
    } else if (k == "threshold") {
        opts.threshold = positive_number(o, 1e6);
    } else if (k == "nohdr") {
        opts.header = !zero_or_one(o);
    } else if (k == "count") {
        opts.count = positive(o, static_cast<std::uint64_t>(INT_MAX) / 8);
    } else if (k == "time") {
        const seconds_reading time = read_seconds(o.value, {.most_s = 1e6, .most_text = "1e6 seconds"});
        if (!time.problem.empty()) throw o.bad(time.problem);
        opts.time_s = time.value;
    } else if (k == "thread_level") {
        // judged by the driver before MPI_Init_thread; nothing for the suite to do
    } else if (k == "optionsFile") {
        if (!o.where.empty()) throw o.bad("an options file cannot name another one");
    } else {
        throw o.where.empty() ? input_error("-" + k + ": not an option of suite overlap")
                              : input_error(o.where + ": '" + k +
                                            "' is not an option of suite overlap");
    }
}

}  // namespace

}  // namespace options_impl
std::string_view to_string(method m) noexcept {
    switch (m) {
        case method::allreduce: return "allreduce";
        case method::barrier: return "barrier";
        case method::broadcast: return "broadcast";
        case method::gather: return "gather";
        case method::allgather: return "allgather";
        case method::scatter: return "scatter";
    }
    return "allreduce";
}

std::string_view to_string(variant v) noexcept {
    switch (v) {
        case variant::blocking: return "Blocking";
        case variant::nb_wait: return "NB_Wait";
        case variant::nb_sleep: return "NB_Sleep";
        case variant::nb_active: return "NB_active";
    }
    return "Blocking";
}

std::optional<method> method_named(std::string_view name) noexcept {
    for (const method m : all_methods)
        if (same_name(to_string(m), name)) return m;
    return std::nullopt;
}

std::optional<std::string> options_file_path(const run_request& request) {
    if (const auto it = request.options.find("optionsFile"); it != request.options.end())
        return parbench::option_text("optionsFile", it->second);
    std::error_code ignored;
    if (std::filesystem::exists(default_options_file, ignored)) return default_options_file;
    return std::nullopt;
}

options parse_options(const run_request& request, const std::vector<file_setting>& file,
                      const std::string& file_name, int world) {
    options opts;
    opts.file = file_name;
    bool all = false;
    for (const auto& s : file) options_impl::apply(opts, {s.key, s.value, s.where}, world, all);
    for (const auto& [name, value] : request.options)
        options_impl::apply(opts, {name, parbench::option_text(name, value), ""}, world, all);
    if (!request.benchmarks.empty()) {
        opts.methods.clear();
        for (const auto& name : request.benchmarks) {
            const auto m = method_named(name);
            if (!m) throw input_error("unknown benchmark '" + name + "' in suite overlap");
            if (std::find(opts.methods.begin(), opts.methods.end(), *m) == opts.methods.end())
                opts.methods.push_back(*m);
        }
    }
    if (all) opts.methods.assign(std::begin(all_methods), std::end(all_methods));
    return opts;
}

std::span<const parbench_parameter> parameters() noexcept { return options_impl::parameter_rows; }

}  // namespace parbench::overlap
