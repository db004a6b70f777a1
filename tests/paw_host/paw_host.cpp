// A minimal host for the plugins of the paw suite (BLAS, offload), standing in for the driver in
// tests: loads one plugin (and no MPI plugin), runs one request and renders the events with
// paw_reporter (console) and paw_dat_reporter (PAW's .dat files). Also records every event, one
// JSON object a line, when asked to.
//
//   paw_host PLUGIN.so REQUEST_JSON DAT_DIRECTORY [EVENTS_FILE]
//
// Exit status: 0 ok, 2 the plugin rejected the request (bad input), 1 any other failure.
#include <parbench/plugin/abi.h>
#include <parbench/report/paw.hpp>
#include <parbench/report/paw_dat.hpp>
#include <parbench/report/result.hpp>

#include <dlfcn.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace {

struct host_state {
    std::vector<parbench::report::reporter*> reporters;  // the console and the .dat files
    std::ofstream* events = nullptr;
    bool started = false;
    int progress_calls = 0;
};

void emit(void* context, const char* event_json) {
    auto& state = *static_cast<host_state*>(context);
    if (state.events != nullptr) *state.events << event_json << '\n';
    const auto event = nlohmann::json::parse(event_json);
    const auto kind = event.at("event").get<std::string>();
    if (kind == "run_start") {
        state.started = true;
        for (auto* r : state.reporters)
            r->on_run_start(event.get<parbench::run_start>(), {{"calling_sequence", "paw_host"}});
    } else if (kind == "result") {
        for (auto* r : state.reporters) r->on_result(event.get<parbench::result_record>());
    } else if (kind == "warning") {
        for (auto* r : state.reporters) r->on_warning(event.at("message").get<std::string>());
    }
}

void progress(void* context, const char*, std::uint64_t, int) {
    ++static_cast<host_state*>(context)->progress_calls;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::cerr << "usage: paw_host PLUGIN.so REQUEST_JSON DAT_DIRECTORY [EVENTS_FILE]\n";
        return 1;
    }
    void* handle = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        std::cerr << "error: " << dlerror() << '\n';
        return 1;
    }
    auto entry = reinterpret_cast<parbench_entry_fn>(dlsym(handle, PARBENCH_ENTRY_SYMBOL));
    if (entry == nullptr) {
        std::cerr << "error: " << argv[1] << " has no " << PARBENCH_ENTRY_SYMBOL << '\n';
        return 1;
    }
    const parbench_plugin* plugin = entry();
    if (plugin->abi_major != PARBENCH_ABI_MAJOR) {
        std::cerr << "error: ABI mismatch\n";
        return 1;
    }
    char error[512] = {};
    parbench_init_args args{sizeof(parbench_init_args), nullptr, nullptr, nullptr, nullptr, {}};
    if (plugin->init(&args, error, sizeof error) != PARBENCH_OK) {
        std::cerr << "error: " << error << '\n';
        return 1;
    }
    std::unique_ptr<std::ofstream> events;
    if (argc > 4) events = std::make_unique<std::ofstream>(argv[4]);
    parbench::report::paw_reporter console(std::cout);
    parbench::report::paw_dat_reporter files(argv[3]);
    host_state state{{&console, &files}, events.get()};
    parbench_host host{sizeof(parbench_host), &state, emit, progress, nullptr, {}};
    int status = 0;
    try {
        const parbench_status s = plugin->run(argv[2], &host, error, sizeof error);
        for (auto* r : state.reporters) r->on_run_end(s == PARBENCH_OK);
        if (s != PARBENCH_OK) {
            std::cerr << "error: " << error << '\n';
            status = s == PARBENCH_BAD_INPUT ? 2 : 1;
        }
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << '\n';
        status = 1;
    }
    if (status == 0 && state.progress_calls == 0) {
        std::cerr << "error: the plugin never called host->progress\n";
        status = 1;
    }
    plugin->finalize(error, sizeof error);
    // The point of this host: no MPI library may have been loaded into the process.
    if (dlopen("libmpi.so.12", RTLD_NOW | RTLD_NOLOAD) != nullptr) {
        std::cerr << "error: an MPI library was loaded into a single-process PAW run\n";
        status = 1;
    }
    return status;
}
