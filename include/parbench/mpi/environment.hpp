// RAII for MPI's lifetime: MPI_Init_thread on construction (unless MPI is already initialised,
// e.g. by the driver's MPI plugin), MPI_Finalize on destruction when this object initialised it.
#pragma once

#include <parbench/core/error.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace parbench::mpi {

// "single" | "funneled" | "serialized" | "multiple" -> MPI_THREAD_*.
[[nodiscard]] inline int parse_thread_level(std::string_view text) {
    if (text == "single") return MPI_THREAD_SINGLE;
    if (text == "funneled") return MPI_THREAD_FUNNELED;
    if (text == "serialized") return MPI_THREAD_SERIALIZED;
    if (text == "multiple") return MPI_THREAD_MULTIPLE;
    if (text == "nompiinit")
        throw input_error("-thread_level nompiinit: IMB 2021's value for a caller that "
                          "initialises MPI itself; parbench always does (single, funneled, "
                          "serialized or multiple)");
    throw input_error("-thread_level " + std::string(text) +
                      ": expected one of single, funneled, serialized, multiple");
}

[[nodiscard]] inline std::string_view thread_level_name(int level) noexcept {
    switch (level) {
        case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
        case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
        case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
        case MPI_THREAD_MULTIPLE: return "MPI_THREAD_MULTIPLE";
        default: return "unknown";
    }
}

// Room for MPI_Get_library_version's text whichever library answers. The call may reach
// another MPI's library than the mpi.h this file is compiled against (a libmpi preloaded with
// LD_PRELOAD binds a plugin's MPI calls: host/mpi_choice.hpp), and that library writes up to ITS
// maximum: Open MPI's mpi.h says 256, MPICH's (and Intel MPI's, MVAPICH's) 8192, and MPICH 4.0's
// text is about 1.5 KB. So the buffer is the largest maximum known, doubled for a library not
// known here, and never smaller than this mpi.h's own.
inline constexpr int library_version_capacity =
    MPI_MAX_LIBRARY_VERSION_STRING > 2 * 8192 ? MPI_MAX_LIBRARY_VERSION_STRING : 2 * 8192;

// MPI_Get_library_version; callable before MPI_Init.
[[nodiscard]] inline std::string library_version() {
    std::string text(library_version_capacity, '\0');
    int length = 0;
    MPI_Get_library_version(text.data(), &length);
    // A length beyond the buffer (no library writes one) is not read past its end.
    text.resize(std::min<std::size_t>(static_cast<std::size_t>(length > 0 ? length : 0),
                                      text.size()));
    std::string s = std::move(text);
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\0')) s.pop_back();
    return s;
}

// "4.0" from MPI_Get_version.
[[nodiscard]] inline std::string standard_version() {
    int version = 0;
    int subversion = 0;
    MPI_Get_version(&version, &subversion);
    return std::to_string(version) + "." + std::to_string(subversion);
}

class environment {
public:
    environment() : environment(nullptr, nullptr, MPI_THREAD_SINGLE) {}
    environment(int& argc, char**& argv, int required = MPI_THREAD_SINGLE)
        : environment(&argc, &argv, required) {}
    environment(int* argc, char*** argv, int required) {
        int initialised = 0;
        MPI_Initialized(&initialised);
        if (initialised == 0) {
            if (MPI_Init_thread(argc, argv, required, &provided_) != MPI_SUCCESS)
                throw std::runtime_error("MPI_Init_thread failed");
            owner_ = true;
        } else {
            MPI_Query_thread(&provided_);
        }
    }
    environment(const environment&) = delete;
    environment& operator=(const environment&) = delete;
    ~environment() {
        int finalised = 0;
        MPI_Finalized(&finalised);
        if (owner_ && finalised == 0) MPI_Finalize();
    }
    [[nodiscard]] int thread_level() const noexcept { return provided_; }

private:
    int provided_ = MPI_THREAD_SINGLE;
    bool owner_ = false;
};

}  // namespace parbench::mpi
