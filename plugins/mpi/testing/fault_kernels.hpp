// Fault-injection benchmarks (PARBENCH_BENCH_TEST_ONLY) that the tests run to prove that -check
// finds corrupted data and that --timeout and signals stop a hung measurement. Built into the
// plugin only with -Dtest_kernels=true (scripts/test.sh turns it on); without it each set is
// empty and a name like Test_Corrupt is an unknown benchmark.
#pragma once

#include "imb/driver.hpp"
#include "osu/suite.hpp"

#include <span>

namespace parbench::mpi_plugin::testing {

// Test_Corrupt and Test_Deadlock, appended to imb-mpi1's catalogue.
[[nodiscard]] std::span<const imb::benchmark> imb_mpi1_faults();

// Test_Rma_Corrupt and Test_Rma_Deadlock, appended to imb-rma's catalogue.
[[nodiscard]] std::span<const imb::benchmark> imb_rma_faults();
// Test_IO_Corrupt, Test_IO_Corrupt_Shared, Test_IO_Lost_Write and Test_IO_Deadlock, appended to
// imb-io's catalogue.
[[nodiscard]] std::span<const imb::benchmark> imb_io_faults();
// Test_Corrupt_put (every put one byte off its section), appended to osu's catalogue.
[[nodiscard]] std::span<const osu::benchmark> osu_faults();
// Test_Icorrupt (an Iallreduce whose result is altered) and Test_Ideadlock (an Ibarrier only
// rank 0 starts), appended to imb-nbc's catalogue.
[[nodiscard]] std::span<const imb::benchmark> imb_nbc_faults();

}  // namespace parbench::mpi_plugin::testing
