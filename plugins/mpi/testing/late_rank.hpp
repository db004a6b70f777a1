// Test_Late_Allreduce: IMB's Allreduce whose last process sleeps before every fourth call
// (i % 4 == 1), long enough to overrun any window the runner picks on the test machines (a
// -n 4 Allreduce oversubscribed on two cores takes ~10 ms). Under -start_sync window the calls
// after each delay start late and must be reported as dropped; under IMB's barrier sync the delay
// only lengthens the loop.
#pragma once

#include <parbench/suites/imb/mpi1.hpp>

#include <chrono>
#include <cstdint>
#include <thread>

namespace parbench::mpi_plugin::testing {

inline constexpr std::uint64_t late_period = 4;
inline constexpr std::uint64_t late_call = 1;  // i % late_period == late_call is delayed
inline constexpr std::chrono::milliseconds late_delay{200};

struct late_allreduce_def : imb_mpi1::allreduce_def {
    struct kernel {
        imb_mpi1::allreduce_def::kernel reference;
        template <class Buffers>
        void operator()(const imb_mpi1::kernel_context& c, std::uint64_t i,
                        const Buffers& b) const {
            if (c.rank == c.size - 1 && i % late_period == late_call)
                std::this_thread::sleep_for(late_delay);
            reference(c, i, b);
        }
    };
    static kernel make_kernel(const imb_mpi1::kernel_context& c,
                              const imb_mpi1::sized_operands& o) {
        return {imb_mpi1::allreduce_def::make_kernel(c, o)};
    }
};

}  // namespace parbench::mpi_plugin::testing
