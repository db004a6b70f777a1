// The OpenMP layer (omp_layer.h, libparbench_omp_layer.so) as a table of functions, opened when
// an offload test starts. Loading the layer registers its device image with libomptarget, which
// maps the runtime's device plugins and libLLVM (about 50 MiB): the plugin does not link it, so
// discovering the plugin on every rank of every run costs nothing of that (see
// plugin/companion_library.hpp).
#pragma once

#include "omp_layer.h"

#include <parbench/plugin/companion_library.hpp>

namespace parbench::offload {

inline constexpr const char* omp_layer_file = "libparbench_omp_layer.so";

struct omp_functions {
    decltype(&parbench_omp_num_devices) num_devices;
    decltype(&parbench_omp_initial_device) initial_device;
    decltype(&parbench_omp_alloc) alloc;
    decltype(&parbench_omp_free) free;
    decltype(&parbench_omp_to_device) to_device;
    decltype(&parbench_omp_to_host) to_host;
    decltype(&parbench_omp_is_present) is_present;
    decltype(&parbench_omp_read) read;
    decltype(&parbench_omp_fill) fill;
    decltype(&parbench_omp_targets) targets;
    decltype(&parbench_omp_compiler) compiler;
    decltype(&parbench_omp_openmp_version) openmp_version;
    decltype(&parbench_omp_runtime_path) runtime_path;
};

// Every function of the opened layer; a missing one is a plugin::companion_error naming the file.
[[nodiscard]] inline omp_functions functions_of(const plugin::companion_library& layer) {
    const auto get = [&]<class F>(F& slot, const char* name) { slot = layer.function<F>(name); };
    omp_functions f{};
    get(f.num_devices, "parbench_omp_num_devices");
    get(f.initial_device, "parbench_omp_initial_device");
    get(f.alloc, "parbench_omp_alloc");
    get(f.free, "parbench_omp_free");
    get(f.to_device, "parbench_omp_to_device");
    get(f.to_host, "parbench_omp_to_host");
    get(f.is_present, "parbench_omp_is_present");
    get(f.read, "parbench_omp_read");
    get(f.fill, "parbench_omp_fill");
    get(f.targets, "parbench_omp_targets");
    get(f.compiler, "parbench_omp_compiler");
    get(f.openmp_version, "parbench_omp_openmp_version");
    get(f.runtime_path, "parbench_omp_runtime_path");
    return f;
}

}  // namespace parbench::offload
