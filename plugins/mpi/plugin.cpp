// The MPI plugin's C surface: owns MPI_Init_thread/MPI_Finalize (and times the former:
// init_time.hpp), offers the communication service (comm_service.hpp) and runs the suites it
// hosts, one file each under suites/.
#include <mpi.h>
#include <parbench/plugin/abi.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <parbench/core/malloc_thresholds.hpp>
#include <parbench/host/launcher.hpp>
#include <parbench/host/mpi_family.hpp>
#include <parbench/mpi/environment.hpp>
#include <parbench/mpi/progress_variables.hpp>
#include <parbench/plugin/descriptor.hpp>
#include <parbench/plugin/export.hpp>
#include <parbench/plugin/mpi_header.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "comm_service.hpp"
#include "init_time.hpp"
#include "placement.hpp"
#include "suites/suite.hpp"

// One plugin per MPI library, each its own name (meson.build): "mpi" for MPICH's ABI,
// "mpi-openmpi" for Open MPI.
#ifndef PARBENCH_MPI_PLUGIN_NAME
#define PARBENCH_MPI_PLUGIN_NAME "mpi"
#endif

namespace parbench::mpi_plugin {
namespace plugin_impl {
namespace {

// The suites this plugin hosts, in the order `parbench list` shows them: plugins/mpi/meson.build's
// mpi_plugin_suites (hosted_suites.h). A new suite is a file in suites/ and its name there.
constexpr const hosted_suite* hosted_suites[] = {
#define PARBENCH_HOSTED_SUITE(name) &suites::name,
    PARBENCH_MPI_HOSTED_SUITES
#undef PARBENCH_HOSTED_SUITE
};

bool we_initialised = false;
std::optional<double> init_ms;  // this process's MPI_Init_thread, where the plugin called it
malloc_thresholds allocator;  // pinned before MPI_Init_thread (core/malloc_thresholds.hpp)

// The mpi.h this file is compiled against (Open MPI's defines OMPI_MAJOR_VERSION, MPICH's and
// its ABI relatives' MPICH_VERSION): the ABI of every MPI call here, fixed at build time.
#define PARBENCH_STRING_OF(x) #x
#define PARBENCH_STRING(x) PARBENCH_STRING_OF(x)
#if defined(OMPI_MAJOR_VERSION)
constexpr const char* mpi_header = "Open MPI " PARBENCH_STRING(OMPI_MAJOR_VERSION) "." //
    PARBENCH_STRING(OMPI_MINOR_VERSION) "." PARBENCH_STRING(OMPI_RELEASE_VERSION);
#elif defined(MPICH_VERSION)
constexpr const char* mpi_header = "MPICH " MPICH_VERSION;
#else
constexpr const char* mpi_header = "";
#endif

// The library the MPI calls reach (MPI_Get_library_version, first line first), then the mpi.h
// they were compiled for (host/mpi_family.hpp): the driver compares the two before choosing this
// plugin (host/mpi_choice.hpp).
const char* backend_info() {
    static const std::string text =
        mpi::library_version() +
        (*mpi_header != '\0' ? "\n" + std::string(mpi_header_line_start) + mpi_header : "");
    return text.c_str();
}

// An MPI library that does not speak the launcher's process-management interface starts each
// process as a singleton: N copies of a 1-process run, each skipping whatever needs 2, or worse.
// Said in one line before any suite runs, with what to use instead.
void refuse_a_launcher_mpi_does_not_speak() {
    const launcher_info launcher = detect_launcher();
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!launcher.processes || *launcher.processes == size) return;
    MPI_Finalize();
    we_initialised = false;
    std::string library = mpi::library_version();
    library = library.substr(0, library.find('\n'));  // "MPICH Version:\t4.0.2"
    std::replace(library.begin(), library.end(), '\t', ' ');
    std::string advice = "launch it with the mpiexec of the MPI library parbench was built with";
    if (launcher.name == "srun")
        advice =
            "under srun, pass the PMI this MPI speaks (--mpi=pmi2 for MPICH and its ABI "
            "relatives, --mpi=pmix for Open MPI; `srun --mpi=list` shows what Slurm has)";
    throw std::runtime_error(std::string(launcher.name) + " started " +
                             std::to_string(*launcher.processes) + " processes but MPI (" +
                             library + ") sees " + std::to_string(size) +
                             ": this MPI does not speak the launcher's process management "
                             "interface; " +
                             advice);
}

parbench_status init(const parbench_init_args* args, char* error, size_t error_size) {
    return plugin::guarded(error, error_size, [&] {
        int initialised = 0;
        MPI_Initialized(&initialised);
        if (initialised != 0) return;
        // Its calls would reach another MPI's library and crash in MPI_Init (host/mpi_family.hpp;
        // the driver says so first unless it read this plugin's library from a manifest). A
        // refusal (input_error: PARBENCH_BAD_INPUT), as the driver's own: exit status 2.
        if (const std::string refusal = mpi_library_disagreement(
                PARBENCH_MPI_PLUGIN_NAME, "", mpi_header, mpi::library_version());
            !refusal.empty())
            throw input_error(refusal);
        const char* level_text =
            args != nullptr && args->thread_level != nullptr ? args->thread_level : "single";
        const int required = mpi::parse_thread_level(level_text);
        mpi::check_progress_environment();  // MPICH would abort inside MPI_Init, wordlessly
        allocator = pin_malloc_thresholds();  // before the library's first blocks
        int provided = 0;
        int* argc = args != nullptr ? args->argc : nullptr;
        char*** argv = args != nullptr ? args->argv : nullptr;
        // Wall clock around the call alone, once per process (OSU's osu_init.c lines 36-38).
        const auto before = std::chrono::steady_clock::now();
        if (MPI_Init_thread(argc, argv, required, &provided) != MPI_SUCCESS)
            throw std::runtime_error("MPI_Init_thread failed");
        const auto after = std::chrono::steady_clock::now();
        init_ms = std::chrono::duration<double, std::milli>(after - before).count();
        we_initialised = true;
        refuse_a_launcher_mpi_does_not_speak();
    });
}

parbench_status finalize(char* error, size_t error_size) {
    return plugin::guarded(error, error_size, [&] {
        int finalised = 0;
        MPI_Finalized(&finalised);
        if (we_initialised && finalised == 0) MPI_Finalize();
        we_initialised = false;
    });
}

// context.mpi_init_ms of every suite's run_start: MPI_Init_thread's time over the processes
// (min, max, avg in ms), or null where MPI was initialised before the plugin.
nlohmann::json init_summary() {
    const std::optional<std::vector<double>> all = all_mpi_init_ms();
    if (!all) return nullptr;
    double sum = 0.0;
    for (const double t : *all) sum += t;
    return {{"min", *std::min_element(all->begin(), all->end())},
            {"max", *std::max_element(all->begin(), all->end())},
            {"avg", sum / static_cast<double>(all->size())}};
}

parbench_status run(const char* request_json, const parbench_host* host, char* error,
                    size_t error_size) {
    int initialised = 0;
    MPI_Initialized(&initialised);  // callable at any time
    if (initialised == 0) {
        plugin::write_message(error, error_size, "the mpi plugin was not initialised");
        return PARBENCH_ERROR;
    }
    // Collective, as the suite's run is: every process reaches this line.
    nlohmann::json placement;
    try {
        const run_placement where = gather_placement(MPI_COMM_WORLD);
        // Every row names the nodes of its processes from this (mpi/session.hpp).
        std::vector<int> node_of_rank;
        for (const process_placement& p : where.processes) node_of_rank.push_back(p.node);
        mpi::world_nodes::set(std::move(node_of_rank), mpi::share_of_node(MPI_COMM_WORLD));
        placement = to_json(where);
    } catch (const std::exception& e) {
        plugin::write_message(error, error_size, std::string("placement: ") + e.what());
        return PARBENCH_ERROR;
    }
    return plugin::run_hosted_suite(hosted_suites, PARBENCH_MPI_PLUGIN_NAME, request_json, host,
                                    error, error_size,
                                    {{"mpi_init_ms", init_summary()},
                                     {"placement", placement},
                                     {"allocator", allocator_context(allocator)}});
}

// ABI 1.1: the parameters whose values the driver checks and hands over typed, with the words
// the suites' own parsers accept (osu/options.cpp, imb/options.hpp). A row whose suite or
// parameter this build lacks is left out.
constexpr const char* window_creations[] = {"create", "allocate", "dynamic"};
constexpr const char* osu_syncs[] = {"lock", "flush", "flush_local", "lock_all", "pscw", "fence"};

std::vector<parbench_parameter_type> typed_parameters(const std::vector<parbench_suite>& suites) {
    std::vector<parbench_parameter_type> rows = {
        {"osu", "w", PARBENCH_VALUE_CHOICE, 0, 0, 0, window_creations, 3, {}},
        {"osu", "s", PARBENCH_VALUE_CHOICE, 0, 0, 0, osu_syncs, 6, {}},
    };
    for (const parbench_suite& s : suites)
        if (std::string_view(s.name).starts_with("imb-"))
            for (const char* name : {"zero_size", "warm_up"})
                rows.push_back({s.name, name, PARBENCH_VALUE_SWITCH, 0, 0, 0, nullptr, 0, {}});
    std::erase_if(rows, [&](const parbench_parameter_type& row) {
        for (const parbench_suite& s : suites)
            if (std::string_view(s.name) == row.suite)
                for (std::size_t p = 0; p < s.parameter_count; ++p)
                    if (std::string_view(s.parameters[p].name) == row.parameter) return false;
        return true;
    });
    return rows;
}

// Built on first use, after every suite file's static initialisation has run.
const parbench_plugin& descriptor() {
    static const std::vector<parbench_suite> suites = plugin::suite_table(hosted_suites);
    static const std::vector<parbench_parameter_type> types = typed_parameters(suites);
    static const parbench_plugin d = plugin::descriptor_of({.name = PARBENCH_MPI_PLUGIN_NAME,
                                                            .backend_info = &backend_info,
                                                            .init = &init,
                                                            .finalize = &finalize,
                                                            .run = &run,
                                                            .suites = suites,
                                                            .comm_service = &comm_service,
                                                            .parameter_types = types});
    return d;
}

}  // namespace
}  // namespace plugin_impl

std::optional<std::vector<double>> all_mpi_init_ms() {
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const double mine = plugin_impl::init_ms.value_or(-1.0);
    std::vector<double> all(static_cast<std::size_t>(size), 0.0);
    MPI_Allgather(&mine, sizeof(double), MPI_BYTE, all.data(), sizeof(double), MPI_BYTE,
                  MPI_COMM_WORLD);
    if (std::any_of(all.begin(), all.end(), [](double t) { return t < 0.0; })) return {};
    return all;
}

}  // namespace parbench::mpi_plugin

PARBENCH_PLUGIN_ENTRY(parbench::mpi_plugin::plugin_impl::descriptor())
