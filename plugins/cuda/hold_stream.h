// C interface of hold_stream.cu (built by nvcc; the plugin itself is built by the C++ compiler).
#pragma once

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

// Launches a one-thread kernel on `stream` that spins until flags[0] (flags: a device-visible
// pointer to two ints of mapped host memory) becomes non-zero, or gives up after
// `timeout_cycles` GPU cycles and sets flags[1] to 1.
cudaError_t parbench_cuda_hold_stream(cudaStream_t stream, volatile int* flags,
                                      long long timeout_cycles);

#ifdef __cplusplus
}
#endif
