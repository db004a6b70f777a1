// A minimal host for the MPI plugin, for the tests: dlopens parbench_mpi.so, initialises it,
// runs one request (JSON text, or @FILE) and prints every event as one JSON line on stdout
// (each line tagged with the emitting rank). At the end every rank prints a "host_done" line
// with its progress-call count and the run's status. Exit status: the parbench_status.
// With OUT_PREFIX, rank r writes its lines to OUT_PREFIX.r.jsonl instead (no interleaving).
//
//   mpiexec -n 2 plugin_host PLUGIN.so '{"suite":"imb-mpi1","benchmarks":["PingPong"]}' [OUT_PREFIX]
#include <parbench/plugin/abi.h>

#include <nlohmann/json.hpp>

#include <dlfcn.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

namespace {

struct host_state {
    int rank = -1;
    std::ostream* out = &std::cout;
    long progress_calls = 0;
    const parbench_comm_service* comm = nullptr;
};

void emit(void* context, const char* event_json) {
    auto* state = static_cast<host_state*>(context);
    auto event = nlohmann::json::parse(event_json);
    event["rank"] = state->comm != nullptr ? state->comm->rank() : 0;
    *state->out << event.dump() << '\n' << std::flush;
}

void progress(void* context, const char* /*benchmark*/, uint64_t /*bytes*/, int /*processes*/) {
    ++static_cast<host_state*>(context)->progress_calls;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3 && argc != 4) {
        std::cerr << "usage: plugin_host PLUGIN.so REQUEST_JSON|@FILE [OUT_PREFIX]\n";
        return 64;
    }
    void* handle = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL);
    if (handle == nullptr) {
        std::cerr << "error: " << dlerror() << '\n';
        return 65;
    }
    auto entry = reinterpret_cast<parbench_entry_fn>(dlsym(handle, PARBENCH_ENTRY_SYMBOL));
    if (entry == nullptr) {
        std::cerr << "error: no entry symbol in " << argv[1] << '\n';
        return 65;
    }
    const parbench_plugin* plugin = entry();
    std::string request = argv[2];
    if (!request.empty() && request.front() == '@') {
        std::ifstream in(request.substr(1));
        std::stringstream s;
        s << in.rdbuf();
        request = s.str();
    }
    std::string level = "single";
    if (auto j = nlohmann::json::parse(request, nullptr, false); j.is_object()) {
        if (auto o = j.find("options"); o != j.end() && o->contains("thread_level") &&
                                        (*o)["thread_level"].is_string())
            level = (*o)["thread_level"].get<std::string>();
    }
    char error[512] = {};
    parbench_init_args init_args{sizeof(parbench_init_args), &argc, &argv, level.c_str(), nullptr,
                                 {}};
    if (const parbench_status s = plugin->init(&init_args, error, sizeof error); s != PARBENCH_OK) {
        std::cerr << "error: " << error << '\n';
        return static_cast<int>(s);
    }
    host_state state;
    state.comm = plugin->comm_service();
    state.rank = state.comm->rank();
    std::ofstream file;
    if (argc == 4) {
        file.open(std::string(argv[3]) + "." + std::to_string(state.rank) + ".jsonl");
        state.out = &file;
    }
    parbench_host host{sizeof(parbench_host), &state, &emit, &progress, state.comm, {}};
    const parbench_status status = plugin->run(request.c_str(), &host, error, sizeof error);
    nlohmann::json done = {{"event", "host_done"},
                           {"rank", state.rank},
                           {"progress_calls", state.progress_calls},
                           {"status", static_cast<int>(status)},
                           {"message", status == PARBENCH_OK ? "" : error}};
    *state.out << done.dump() << '\n' << std::flush;
    if (status != PARBENCH_OK) std::cerr << "error: " << error << '\n';
    char ferror[256] = {};
    plugin->finalize(ferror, sizeof ferror);
    return static_cast<int>(status);
}
