// The one piece of device code parbench needs: a kernel that holds a stream until the host
// releases it, so that a batch of copies is queued completely before the first one starts and
// the events around the batch time the copies, not the host's launch latency (nvbandwidth's
// method). The release flag lives in mapped page-locked host memory. A timeout ends the hold if
// the host never releases it (a bug or a host thread that blocked), so the stream cannot hang,
// and says so in the second flag.
#include "hold_stream.h"

namespace {

__global__ void hold_until_released(volatile int* flags, long long timeout_cycles) {
    const long long start = clock64();
    while (flags[0] == 0) {
        if (clock64() - start > timeout_cycles) {
            flags[1] = 1;  // tells the host the hold timed out: that batch is not valid
            return;
        }
    }
}

}  // namespace

extern "C" cudaError_t parbench_cuda_hold_stream(cudaStream_t stream, volatile int* flags,
                                                 long long timeout_cycles) {
    hold_until_released<<<1, 1, 0, stream>>>(flags, timeout_cycles);
    return cudaGetLastError();
}
