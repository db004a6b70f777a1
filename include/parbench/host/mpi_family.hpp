// MPI families: the libraries that one MPI plugin build can serve. A plugin is compiled against
// one mpi.h and linked to one libmpi, so it runs with the libraries of that ABI alone: "mpich"
// (MPICH and the libraries that keep its ABI: Intel MPI, Cray MPICH, MVAPICH) or "openmpi". The
// driver links no MPI and loads the plugin whose family matches the launcher (launcher.hpp);
// `--mpi NAME` names a family.
#pragma once

#include <parbench/plugin/mpi_header.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <string_view>

namespace parbench {

// The family of the library whose MPI_Get_library_version text is `library` (or of a text that
// quotes it: the coarray plugin's backend_info ends "on MPICH Version: 4.0.2"); "" when the text
// names none of them.
[[nodiscard]] inline std::string_view mpi_family_of_library(std::string_view library) noexcept {
    if (library.find("Open MPI") != std::string_view::npos) return "openmpi";
    for (const std::string_view mark : {"MPICH", "Intel(R) MPI", "MVAPICH"})
        if (library.find(mark) != std::string_view::npos) return "mpich";
    return "";
}

// "MPICH" for "mpich", "Open MPI" for "openmpi": the family as people write it.
[[nodiscard]] inline std::string mpi_family_title(std::string_view family) {
    if (family == "mpich") return "MPICH";
    if (family == "openmpi") return "Open MPI";
    return std::string(family);
}

// Why plugin `name` (file `file`, where known) cannot run: its mpi.h (`header`, "MPICH 4.0.2")
// is of another family than the library its MPI calls reach (`library`, MPI_Get_library_version's
// text), as when a libmpi of the other MPI is preloaded; "" when they agree or either is unknown.
// The driver says it before choosing the plugin (mpi_choice.hpp), the plugin before MPI_Init
// where the driver read the plugin's library from a manifest written without that preload.
[[nodiscard]] inline std::string mpi_library_disagreement(const std::string& name,
                                                          const std::string& file,
                                                          const std::string& header,
                                                          std::string library) {
    const std::string_view built = mpi_family_of_library(header);
    const std::string_view loaded = mpi_family_of_library(library);
    if (built.empty() || loaded.empty() || built == loaded) return {};
    library = library.substr(0, std::min(library.find(','), library.find('\n')));
    std::replace(library.begin(), library.end(), '\t', ' ');
    return "the MPI plugin '" + name + "'" + (file.empty() ? "" : " (" + file + ")") +
           " was built for " + mpi_family_title(built) +
           " (mpi.h of " + header + "), but its MPI calls reach " + mpi_family_title(loaded) +
           "'s library (" + library +
           "): most likely a library preloaded with LD_PRELOAD (or one found first on "
           "LD_LIBRARY_PATH) brings in " +
           mpi_family_title(loaded) + "'s libmpi; run without it, or launch the " +
           mpi_family_title(loaded) + " plugin";
}

// The launcher that starts a family's processes, as its Debian package names it beside the
// other MPI's (installing both moves the plain `mpiexec` to one of them).
[[nodiscard]] inline std::string mpi_family_launcher(std::string_view family) {
    if (family == "mpich") return "MPICH's mpiexec (mpiexec.mpich)";
    if (family == "openmpi") return "Open MPI's mpirun (mpirun.openmpi)";
    return "the mpiexec of the MPI library parbench was built with";
}

// The JSON context's record of the MPI that ran (context.parbench.mpi): its name as people write
// it, its family, the plugin that ran it (null for a program linked with MPI itself,
// parbench::mpi::main) and MPI_Get_library_version's first line. Without a known family the name
// is the plugin's, or else the library's text.
[[nodiscard]] inline nlohmann::json mpi_context(const std::string& library,
                                                const std::string* plugin) {
    const std::string family(mpi_family_of_library(library));
    return {{"name", !family.empty() ? mpi_family_title(family)
                     : plugin != nullptr ? *plugin
                                         : library},
            {"family", family},
            {"plugin", plugin != nullptr ? nlohmann::json(*plugin) : nlohmann::json(nullptr)},
            {"library", library}};
}

}  // namespace parbench
