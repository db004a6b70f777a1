// The line of an MPI plugin's backend_info that names the mpi.h it was compiled against: the
// plugin writes it (plugins/mpi/plugin.cpp), discovery reads it (plugin/registry.hpp) and the
// driver's choice of plugin compares its family with the library's (host/mpi_family.hpp).
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

namespace parbench {

// An MPI plugin's backend_info ends with a line that names the mpi.h it was compiled against
// ("compiled against mpi.h of MPICH 4.0.2"): its family is decided at build time, whatever
// library the loader binds its MPI calls to at run time (the first line, MPI_Get_library_version).
inline constexpr std::string_view mpi_header_line_start = "compiled against mpi.h of ";

// "MPICH 4.0.2" from a backend_info with that line; "" without one.
[[nodiscard]] inline std::string mpi_header_of_backend_info(std::string_view info) {
    for (std::size_t at = 0; at < info.size();) {
        const std::size_t end = std::min(info.find('\n', at), info.size());
        const std::string_view line = info.substr(at, end - at);
        if (line.starts_with(mpi_header_line_start))
            return std::string(line.substr(mpi_header_line_start.size()));
        at = end + 1;
    }
    return {};
}

}  // namespace parbench
