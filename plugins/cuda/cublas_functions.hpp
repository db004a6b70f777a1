// The cuBLAS layer (cublas_layer.h, libparbench_cublas_layer.so) as a table of functions, opened
// from the plugin's directory when the first GEMM test starts: the transfer tests, discovery
// and `parbench list` never map cuBLAS (see plugin/companion_library.hpp).
#pragma once

#include "cublas_layer.h"
#include "cuda_error.hpp"

#include <parbench/plugin/companion_library.hpp>

#include <string>

namespace parbench::cuda {

inline constexpr const char* cublas_layer_file = "libparbench_cublas_layer.so";

struct cublas_functions {
    decltype(&parbench_cublas_status_text) status_text;
    decltype(&parbench_cublas_create) create;
    decltype(&parbench_cublas_destroy) destroy;
    decltype(&parbench_cublas_set_matrix) set_matrix;
    decltype(&parbench_cublas_get_matrix) get_matrix;
    decltype(&parbench_cublas_gemm) gemm;

    // A failed status as a cuda_error naming the call ("cublasDgemm: ...").
    void check(int status, const char* call) const {
        if (status != 0) throw cuda_error(std::string(call) + ": " + status_text(status));
    }
};

// Every function of the opened layer; a missing one is a plugin::companion_error naming the file.
[[nodiscard]] inline cublas_functions functions_of(const plugin::companion_library& layer) {
    const auto get = [&]<class F>(F& slot, const char* name) { slot = layer.function<F>(name); };
    cublas_functions f{};
    get(f.status_text, "parbench_cublas_status_text");
    get(f.create, "parbench_cublas_create");
    get(f.destroy, "parbench_cublas_destroy");
    get(f.set_matrix, "parbench_cublas_set_matrix");
    get(f.get_matrix, "parbench_cublas_get_matrix");
    get(f.gemm, "parbench_cublas_gemm");
    return f;
}

}  // namespace parbench::cuda
