// The communication service the MPI plugin offers the driver and the other plugins (plugin/abi.h
// parbench_comm_service): rank, size, barrier, broadcast, reductions and gather over
// MPI_COMM_WORLD, so that nothing outside this plugin links MPI.
#pragma once

#include <parbench/plugin/abi.h>

namespace parbench::mpi_plugin {

[[nodiscard]] const parbench_comm_service* comm_service();

}  // namespace parbench::mpi_plugin
