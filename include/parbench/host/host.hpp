// parbench in-process: find the plugins, let the MPI plugin own MPI, run a suite and get typed
// results back. The `parbench` driver is built on this class; a test suite uses it directly:
//
//   parbench::host pb(argc, argv);   // before MPI: finds plugins (MPI starts with the first run)
//   auto r = pb.run("imb-mpi1", {"PingPong", "Allreduce"}, {{"msglog", "0:10"}}, {.check = true});
//   REQUIRE(r.completed());
//   REQUIRE(r.total_defects() == 0);
//   CHECK(r.at("PingPong", 8).distribution_us.median < 5.0);
//
// A run is three steps that the driver takes one by one (it opens files and installs signal
// handlers between them) and run() takes at once: plan() checks the request against what the
// plugins offer, start() initialises the plugins (MPI_Init_thread, once per process), execute()
// runs the suite and hands every event to an event_sink. Errors are run_error exceptions with the
// driver's messages; a run that measured nothing is one of them.
#pragma once

#include <parbench/core/names.hpp>
#include <parbench/core/text.hpp>
#include <parbench/host/event_delivery.hpp>
#include <parbench/host/event_sink.hpp>
#include <parbench/host/launcher.hpp>
#include <parbench/host/mpi_choice.hpp>
#include <parbench/host/plugin_search.hpp>
#include <parbench/host/run_error.hpp>
#include <parbench/host/run_result.hpp>
#include <parbench/host/run_verdict.hpp>
#include <parbench/mpi/progress_variables.hpp>
#include <parbench/plugin/abi.h>
#include <parbench/plugin/loader.hpp>
#include <parbench/plugin/registry.hpp>
#include <parbench/plugin/request.hpp>
#include <parbench/report/run_context.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdlib>
#include <exception>
#include <map>
#include <set>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace parbench {

// Whether a run loads the MPI plugin: when the suite needs it or a launcher started the process
// (automatic), always (on), or never (off: a suite that needs MPI is then bad input).
enum class mpi_use { automatic, on, off };

// Where host::run() returns the result rows: on every process (rank 0 broadcasts them) or only
// on rank 0 (the others get an empty list of records).
enum class result_ranks { every_rank, rank_zero };

struct run_settings {
    bool check = false;  // validate transferred data (IMB's -check)
    mpi_use mpi = mpi_use::automatic;
    result_ranks results_on = result_ranks::every_rank;
    std::string calling_sequence{};  // for the output header; "": the host's command line
    // A benchmark skipped (too few processes, over the memory cap, ...) fails the run: run()
    // throws run_error of kind skipped (the driver's --strict, exit status 6).
    bool strict = false;
};

// A request checked against the plugins: who runs it, who provides MPI.
struct run_plan {
    run_request request;
    plugin::loaded_plugin* suite_plugin = nullptr;
    const parbench_suite* suite = nullptr;
    plugin::loaded_plugin* comm_plugin = nullptr;  // nullptr: a single-process run
    std::string thread_level;                      // the suite's -thread_level, "" by default
    // With check: the chosen benchmarks that have no verification (PARBENCH_BENCH_NO_VERIFY),
    // when others have one (all of them: plan() refuses the request). Their rows say
    // "not verified"; cannot_verify_warning() is the one line that names them.
    std::vector<std::string> cannot_verify;

    // Whether the suite writes files into --dat-dir (PARBENCH_SUITE_DAT_FILES).
    [[nodiscard]] bool writes_dat_files() const noexcept {
        return suite != nullptr && (suite->flags & PARBENCH_SUITE_DAT_FILES) != 0u;
    }
};

class host {
public:
    // Finds the plugins (nothing is loaded into this process yet). argc and argv are handed to
    // MPI_Init_thread by the first start(), which may rewrite them.
    // Of the MPI plugins found (one per MPI library built), the one that matches the launcher,
    // or options.mpi's, is the one a run loads (host/mpi_choice.hpp).
    host(int& argc, char**& argv, host_options options = {})
        : argc_(argc), argv_(argv), search_(plugin_search(options, argc > 0 ? argv[0] : nullptr)),
          plugins_(plugin::registry::discover(search_)),
          mpi_(choose_mpi_plugin(plugins_.comm_providers(), detect_launcher(), options.mpi)) {
        if (mpi_.plugin != nullptr) plugins_.use_comm_provider(mpi_.plugin->file);
    }

    host(const host&) = delete;
    host& operator=(const host&) = delete;
    ~host() {
        try {
            finish();
        } catch (...) {  // a destructor cannot report: call finish() to see a failed finalize
        }
    }

    [[nodiscard]] plugin::registry& plugins() noexcept { return plugins_; }
    // The MPI plugin a run loads when it needs MPI (nullptr: none was found), and why it may not
    // ("" when it may).
    [[nodiscard]] const plugin::plugin_manifest* mpi_plugin() const noexcept { return mpi_.plugin; }
    [[nodiscard]] const std::string& mpi_refusal() const noexcept { return mpi_.refusal; }
    // The directories searched for plugins, in order (named when none was found).
    [[nodiscard]] const std::vector<std::filesystem::path>& searched() const noexcept {
        return search_.directories;
    }
    // "no plugins found (searched: DIR, DIR; set PARBENCH_PLUGIN_PATH or use --plugin-path DIR)"
    [[nodiscard]] std::string no_plugins_text() const {
        std::string dirs;
        for (const auto& dir : search_.directories)
            dirs += (dirs.empty() ? "" : ", ") + dir.string();
        return "no plugins found (searched: " +
               (dirs.empty() ? std::string("no directory") : dirs) +
               "; set PARBENCH_PLUGIN_PATH or use --plugin-path DIR)";
    }

    // ---- step 1: check the request ----------------------------------------------------------
    [[nodiscard]] run_plan plan(run_request request, mpi_use mpi = mpi_use::automatic) {
        run_plan p;
        p.suite_plugin = plugins_.plugin_for_suite(request.suite, request.benchmarks);
        if (p.suite_plugin == nullptr) {
            std::string known;
            for (const auto& name : plugins_.known_suites())
                known += (known.empty() ? "" : ", ") + name;
            // No plugin at all: where it looked says more than "available: none".
            if (known.empty() && !request.suite.empty())
                throw run_error(run_error::kind::failure,
                                "unknown suite '" + request.suite + "': " + no_plugins_text());
            throw run_error(run_error::kind::bad_input,
                            "unknown suite '" + request.suite + "' " +
                                (request.suite.empty() ? std::string("(see parbench list)")
                                                       : "(available: " + known + ")"));
        }
        p.suite = p.suite_plugin->find_suite(request.suite);
        check_benchmarks(*p.suite, request);
        if (request.check) p.cannot_verify = unverifiable(*p.suite, request);

        const bool needs_mpi = (p.suite->flags & PARBENCH_SUITE_NEEDS_MPI) != 0u;
        if (needs_mpi && mpi == mpi_use::off)
            throw run_error(run_error::kind::bad_input,
                            "suite '" + request.suite + "' needs MPI, which --mpi off excludes");
        const bool want_mpi = mpi == mpi_use::on || needs_mpi ||
                              (mpi == mpi_use::automatic && launched_by_mpi_launcher());
        if (want_mpi && !mpi_.refusal.empty())
            throw run_error(run_error::kind::bad_input, mpi_.refusal);
        p.comm_plugin = want_mpi ? plugins_.comm_provider() : nullptr;
        if (want_mpi && p.comm_plugin == nullptr && (needs_mpi || mpi == mpi_use::on))
            throw run_error(run_error::kind::failure,
                            "suite '" + request.suite +
                                "' needs the MPI plugin (parbench_mpi.so), which was not found "
                                "(see parbench list)");
        if (p.suite_plugin->offers_comm() && mpi != mpi_use::off) p.comm_plugin = p.suite_plugin;
        refuse_two_mpis(p, request.suite);

        // MPI_Init_thread happens in the plugin's init, before the suite sees its options: a bad
        // level is judged here, one "bad input" line rather than a failed init on every rank.
        if (auto it = request.options.find("thread_level");
            it != request.options.end() && it->second.is_string()) {
            p.thread_level = it->second.get<std::string>();
            static const std::set<std::string> levels = {"single", "funneled", "serialized",
                                                         "multiple"};
            if (!levels.contains(p.thread_level))
                throw run_error(run_error::kind::bad_input,
                                "-thread_level '" + p.thread_level +
                                    "': expected one of single, funneled, serialized, multiple");
        }
        // A benchmark that calls MPI from several threads (osu latency_mt) gets the level it needs
        // unless the user chose one; the suite refuses it, in one line, below that level.
        if (p.thread_level.empty() && needs_thread_multiple(*p.suite, request))
            p.thread_level = "multiple";
        // So do the values of the progress-thread variables that MPICH parses inside MPI_Init
        // (and aborts on, without a word parbench could report).
        if (p.comm_plugin != nullptr)
            if (auto problem = mpi::progress_environment_problem(
                    [](const char* name) { return std::getenv(name); }))
                throw run_error(run_error::kind::bad_input, *problem);
        p.request = std::move(request);
        return p;
    }

    // ---- step 2: initialise the plugins (MPI first; once per process) -------------------------
    // Throws plugin::plugin_error ("<file>: init failed: ...").
    void start(const run_plan& p) {
        if (p.comm_plugin != nullptr && !p.comm_plugin->initialised()) {
            p.comm_plugin->promote_global();
            p.comm_plugin->init(init_args(p.thread_level, nullptr));
            started_.push_back(p.comm_plugin);
        }
        comm_ = p.comm_plugin != nullptr ? p.comm_plugin->comm() : nullptr;
        if (p.suite_plugin != p.comm_plugin && !p.suite_plugin->initialised()) {
            // The real argc/argv: a runtime started here (the coarray plugin's) reads them too.
            p.suite_plugin->init(init_args(p.thread_level, comm_));
            started_.insert(started_.begin(), p.suite_plugin);  // finalised before MPI
        }
    }

    [[nodiscard]] const parbench_comm_service* comm() const noexcept { return comm_; }
    [[nodiscard]] int rank() const { return comm_ != nullptr ? comm_->rank() : 0; }
    [[nodiscard]] int processes() const { return comm_ != nullptr ? comm_->size() : 1; }

    // ---- step 3: run ------------------------------------------------------------------------
    // Runs the plan, handing every event to `sink`. Returns what was measured (the number of
    // results agreed on every process); throws run_error when the plugin fails or rejects the
    // request, and when nothing was measured.
    run_verdict execute(const run_plan& p, event_sink& sink) {
        if (finished_)
            throw run_error(run_error::kind::failure,
                            "run() after finish(): the plugins are finalised (MPI cannot be "
                            "initialised twice); run everything before finish()");
        event_delivery d(sink, p.request.check);
        const parbench_host channel = d.channel(comm_);
        // Arguments may be any bytes; invalid UTF-8 reaches the plugin as U+FFFD (which it
        // rejects with its own message) instead of failing the serialisation.
        const std::string text = nlohmann::json(p.request).dump(
            -1, ' ', false, nlohmann::json::error_handler_t::replace);
        std::string message(plugin::message_capacity, '\0');
        const parbench_status status = p.suite_plugin->descriptor().run(
            text.c_str(), &channel, message.data(), message.size());
        message.resize(std::strlen(message.c_str()));
        if (status == PARBENCH_BAD_INPUT)
            throw run_error(run_error::kind::bad_input, message, rank());
        if (status != PARBENCH_OK)
            throw run_error(run_error::kind::failure,
                            !message.empty() ? message : "the plugin failed without a message",
                            rank());
        return d.agreed_verdict(comm_, p.request.suite, rank());
    }

    // All three steps: the suite's `benchmarks` (empty: its defaults) with its own `options` by
    // name without dashes ({"msglog", "0:10"}; a flag is true, a list option an array).
    run_result run(std::string suite, std::vector<std::string> benchmarks = {},
                   std::map<std::string, nlohmann::json> options = {}, run_settings settings = {}) {
        run_request request;
        request.suite = std::move(suite);
        request.benchmarks = std::move(benchmarks);
        request.options = std::move(options);
        request.check = settings.check;
        request.calling_sequence =
            settings.calling_sequence.empty() ? command_line() : settings.calling_sequence;
        if (finished_)
            throw run_error(run_error::kind::failure,
                            "run() after finish(): the plugins are finalised (MPI cannot be "
                            "initialised twice); run everything before finish()");
        const run_plan p = plan(std::move(request), settings.mpi);
        start(p);
        collector sink;
        // Rank 0's (the other ranks receive it with its rows).
        if (!p.cannot_verify.empty() && rank() == 0)
            sink.result.warnings.push_back(cannot_verify_warning(p.cannot_verify));
        const run_verdict verdict = execute(p, sink);
        sink.result.skipped = verdict.skipped();
        sink.result.finished = true;
        if (settings.results_on == result_ranks::every_rank) share_from_rank_zero(sink.result);
        // Agreed on every process (execute() shares rank 0's count): all throw, or none.
        if (settings.strict && verdict.skipped_count() > 0)
            throw run_error(run_error::kind::skipped, verdict.strict_message(), rank());
        return std::move(sink.result);
    }

    // Finalises the plugins this host initialised (the suite plugins, then MPI). Throws
    // plugin::plugin_error when a finalize fails; after it no run is possible.
    void finish() {
        if (!started_.empty()) finished_ = true;
        auto started = std::exchange(started_, {});
        comm_ = nullptr;
        for (auto* p : started) p->finalize();
    }

    // The command line as typed, for the output header (report/run_context.hpp's spelling).
    [[nodiscard]] std::string command_line() const {
        return report::calling_sequence(argc_, argv_);
    }
    // The program's arguments (as MPI_Init_thread left them once a run has started).
    [[nodiscard]] int argc() const noexcept { return argc_; }
    [[nodiscard]] const char* const* argv() const noexcept { return argv_; }

private:
    // Benchmark names are checked against the suite's list (case-insensitively, as IMB does;
    // where the suite takes IMB's names, with the "Multi-" prefix and IMB 2021's comma lists,
    // "PingPong,Allreduce", which the suite splits itself).
    static void check_benchmarks(const parbench_suite& suite, const run_request& request) {
        const bool multi_names = (suite.flags & PARBENCH_SUITE_MULTI_NAMES) != 0;
        std::vector<std::string> names;
        for (const auto& typed : request.benchmarks) {
            if (!multi_names || typed.find(',') == std::string::npos) {
                names.push_back(typed);
                continue;
            }
            for (auto& piece : split_commas(typed)) {
                if (piece.empty())
                    throw run_error(run_error::kind::bad_input,
                                    "benchmark list '" + typed + "': an empty name between commas");
                names.push_back(std::move(piece));
            }
        }
        for (const auto& name : names) {
            const std::string bare =
                multi_names && lowercase(name).rfind("multi-", 0) == 0 ? name.substr(6) : name;
            bool known = false;
            for (std::size_t b = 0; b < suite.benchmark_count && !known; ++b)
                known = same_name(suite.benchmarks[b].name, bare);
            if (!known)
                throw run_error(run_error::kind::bad_input,
                                "unknown benchmark '" + name + "' in suite '" + request.suite +
                                    "' (see parbench list)");
        }
    }

    // Whether a chosen benchmark (named, or of the default set) carries
    // PARBENCH_BENCH_THREAD_MULTIPLE.
    static bool needs_thread_multiple(const parbench_suite& suite, const run_request& request) {
        for (std::size_t b = 0; b < suite.benchmark_count; ++b) {
            const parbench_benchmark& bench = suite.benchmarks[b];
            if ((bench.flags & PARBENCH_BENCH_THREAD_MULTIPLE) == 0) continue;
            if (request.benchmarks.empty() && (bench.flags & PARBENCH_BENCH_DEFAULT) != 0)
                return true;
            for (const auto& name : request.benchmarks)
                if (same_name(bench.name, name)) return true;
        }
        return false;
    }

    // A suite plugin that links an MPI library itself (the coarray plugin: OpenCoarrays is built
    // for one MPI) runs only beside the MPI plugin of the same family: two MPI libraries in one
    // process cannot share MPI_COMM_WORLD.
    void refuse_two_mpis(const run_plan& p, const std::string& suite) const {
        if (p.comm_plugin == nullptr || p.suite_plugin == p.comm_plugin || mpi_.plugin == nullptr)
            return;
        const std::string own_library = p.suite_plugin->backend_info();
        const std::string_view own = mpi_family_of_library(own_library);
        const std::string_view running = mpi_family_of_library(mpi_.plugin->mpi_library);
        if (own.empty() || running.empty() || own == running) return;
        throw run_error(run_error::kind::bad_input,
                        "suite '" + suite + "' runs on " + mpi_family_title(own) +
                            " only (plugin " + std::string(p.suite_plugin->name()) +
                            " is built for it), and this run's MPI is " +
                            mpi_family_title(running) + ": launch it with " +
                            mpi_family_launcher(own));
    }

    parbench_init_args init_args(const std::string& thread_level,
                                 const parbench_comm_service* comm) {
        parbench_init_args args{};
        args.struct_size = sizeof args;
        args.argc = &argc_;
        args.argv = &argv_;
        args.thread_level = thread_level.empty() ? nullptr : thread_level.c_str();
        args.comm = comm;
        return args;
    }

    // The chosen benchmarks (the request's, or the suite's defaults) that have no verification,
    // in catalogue order. Every one of them: bad input, --check has nothing to check.
    static std::vector<std::string> unverifiable(const parbench_suite& suite,
                                                 const run_request& request) {
        const bool multi_names = (suite.flags & PARBENCH_SUITE_MULTI_NAMES) != 0;
        std::vector<std::string> chosen, cannot;
        for (std::size_t b = 0; b < suite.benchmark_count; ++b) {
            const parbench_benchmark& bench = suite.benchmarks[b];
            bool wanted = request.benchmarks.empty() && (bench.flags & PARBENCH_BENCH_DEFAULT) != 0;
            for (const auto& name : request.benchmarks) {
                const std::string bare =
                    multi_names && lowercase(name).rfind("multi-", 0) == 0 ? name.substr(6) : name;
                wanted = wanted || same_name(bench.name, bare);
            }
            if (!wanted) continue;
            chosen.emplace_back(bench.name);
            if ((bench.flags & PARBENCH_BENCH_NO_VERIFY) != 0) cannot.emplace_back(bench.name);
        }
        if (!chosen.empty() && cannot.size() == chosen.size())
            throw run_error(run_error::kind::bad_input, cannot_verify_refusal(cannot));
        return cannot;
    }

    // host::run()'s sink: keeps everything.
    struct collector final : event_sink {
        run_result result;
        void on_event(std::string_view kind, const nlohmann::json& event) override {
            if (kind == "run_start") result.start = event.get<run_start>();
            else if (kind == "result") result.records.push_back(event.get<result_record>());
            else if (kind == "time_out") result.time_outs.push_back(event.get<result_record>());
            else if (kind == "warning") result.warnings.push_back(event.value("message", ""));
            else if (kind == "note") result.notes.push_back(event.value("message", ""));
        }
        void on_event_problem(const std::string& problem) override {
            result.warnings.push_back(problem);
        }
    };

    // Rank 0 holds the rows; the others receive them, keeping their own warnings.
    void share_from_rank_zero(run_result& result) const {
        if (comm_ == nullptr || comm_->size() <= 1) return;
        std::string text = rank() == 0 ? nlohmann::json(result).dump() : std::string{};
        std::uint64_t size = text.size();
        comm_->broadcast(&size, sizeof size, 0);
        text.resize(size);
        comm_->broadcast(text.data(), text.size(), 0);
        if (rank() == 0) return;
        std::vector<std::string> own = std::move(result.warnings);
        result = nlohmann::json::parse(text).get<run_result>();
        for (auto& w : own) result.warnings.push_back(std::move(w));
    }

    int& argc_;
    char**& argv_;
    plugin::search_path search_;
    plugin::registry plugins_;
    mpi_choice mpi_;
    std::vector<plugin::loaded_plugin*> started_;  // in finalisation order
    bool finished_ = false;                        // finish() finalised plugins: no run may follow
    const parbench_comm_service* comm_ = nullptr;
};

}  // namespace parbench
