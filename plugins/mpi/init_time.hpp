// How long this process spent in MPI_Init_thread, timed once by the plugin's init (plugin.cpp):
// the osu suite's `init` reports it (OSU's osu_init), and every suite's run_start carries its
// minimum, maximum and mean over the processes as context.mpi_init_ms.
#pragma once

#include <optional>
#include <vector>

namespace parbench::mpi_plugin {

// Wall-clock milliseconds of every process's MPI_Init_thread, in rank order; nothing where MPI
// was initialised before the plugin on some process (the plugin did not time it there).
// Collective over MPI_COMM_WORLD: one MPI_Allgather of the times as bytes (MPI_BYTE), so that
// tools recording a run's operands per datatype (the PMPI oracle's report, test_imb2021.py) do
// not take it for a benchmark's MPI_DOUBLE operand.
[[nodiscard]] std::optional<std::vector<double>> all_mpi_init_ms();

}  // namespace parbench::mpi_plugin
