// CUDA runtime statuses as exceptions with the library's own words, so that every failure
// reaches the user as one line naming the call ("cudaMalloc: out of memory"). cuBLAS statuses
// come through its layer (cublas_functions.hpp).
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace parbench::cuda {

class cuda_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

inline void check(cudaError_t status, const char* call) {
    if (status != cudaSuccess)
        throw cuda_error(std::string(call) + ": " + cudaGetErrorString(status));
}

}  // namespace parbench::cuda
