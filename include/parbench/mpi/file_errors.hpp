// MPI-IO errors, kept instead of ignored. MPI's default for files is MPI_ERRORS_RETURN: a failed
// MPI_File_write returns a code that IMB's loops never look at. parbench's file resource and
// its kernels note every code that is not MPI_SUCCESS (file_view::note: one predictable branch
// per call) and hand it here when the file is closed; after each measurement, outside timing,
// every process agrees on whether any failed. (An error handler on MPI_FILE_NULL would need no
// note, but MPICH 4.0 miscounts its references and asserts in MPI_File_close.)
#pragma once

#include <mpi.h>

#include <string>

namespace parbench::mpi::file_errors {

namespace detail {

inline std::string& first_text() {
    static std::string text;
    return text;
}
inline int& count() {
    static int n = 0;
    return n;
}

}  // namespace detail

// Records a failure found without MPI's help (a file system the process cannot write to).
inline void record(std::string text) {
    ++detail::count();
    if (detail::first_text().empty()) detail::first_text() = std::move(text);
}

// Records a failed MPI call by its code (MPI's text for it).
inline void record_code(int code) {
    if (code == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING] = {};
    int length = 0;
    MPI_Error_string(code, text, &length);
    record(std::string(text, static_cast<std::size_t>(length)));
}

// Collective over `comm`: the first failure any process saw since the last call ("" if none;
// the lowest rank's text when several failed), and the record is cleared.
[[nodiscard]] inline std::string take_agreed(MPI_Comm comm) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    int failed_rank = detail::count() > 0 ? rank : -1;
    int lowest = -1;
    int mine = failed_rank < 0 ? 1 << 30 : failed_rank;
    MPI_Allreduce(&mine, &lowest, 1, MPI_INT, MPI_MIN, comm);
    detail::count() = 0;
    if (lowest == 1 << 30) {
        detail::first_text().clear();
        return {};
    }
    int length = rank == lowest ? static_cast<int>(detail::first_text().size()) : 0;
    MPI_Bcast(&length, 1, MPI_INT, lowest, comm);
    std::string text = rank == lowest ? detail::first_text() : std::string(static_cast<std::size_t>(length), ' ');
    MPI_Bcast(text.data(), length, MPI_CHAR, lowest, comm);
    detail::first_text().clear();
    return text.empty() ? std::string("an MPI-IO call failed") : text;
}

}  // namespace parbench::mpi::file_errors
