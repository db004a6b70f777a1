// How long this process spent in MPI_Init_thread, timed once by the plugin's init (plugin.cpp):
// the osu suite's `init` reports it (OSU's osu_init), and every suite's run_start carries its
// minimum, maximum and mean over the processes as context.mpi_init_ms.
#pragma once

#include <optional>

namespace parbench::mpi_plugin {

// Wall-clock milliseconds of this process's MPI_Init_thread; nothing where MPI was initialised
// before the plugin (then the plugin did not time it).
[[nodiscard]] std::optional<double> mpi_init_ms() noexcept;

}  // namespace parbench::mpi_plugin
