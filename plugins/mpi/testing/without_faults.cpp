// Builds without -Dtest_kernels: no fault-injection benchmarks.
#include "testing/fault_kernels.hpp"

namespace parbench::mpi_plugin::testing {

std::span<const imb::benchmark> imb_mpi1_faults() { return {}; }
std::span<const imb::benchmark> imb_rma_faults() { return {}; }
std::span<const imb::benchmark> imb_io_faults() { return {}; }
std::span<const osu::benchmark> osu_faults() { return {}; }
std::span<const imb::benchmark> imb_nbc_faults() { return {}; }

}  // namespace parbench::mpi_plugin::testing
