#include "io/run_directory.hpp"

#include <parbench/core/error.hpp>

#include <mpi.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

namespace parbench::mpi_plugin::io {
namespace run_directory_impl {
namespace {

namespace fs = std::filesystem;

// Rank 0's attempt: the new directory's path, or the problem (one line).
bool create_under(const std::string& parent, std::string& result) {
    const bool given = !parent.empty();
    std::string base = parent;
    if (!given) {
        const char* tmp = std::getenv("TMPDIR");
        base = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
    }
    const std::string shown = given ? "--io-dir " + base : "the temporary directory " + base;
    std::error_code ec;
    const fs::file_status status = fs::status(base, ec);
    if (ec || status.type() == fs::file_type::not_found) {
        result = shown + ": no such directory";
        return false;
    }
    if (status.type() != fs::file_type::directory) {
        result = shown + ": not a directory";
        return false;
    }
    char host[64] = {};
    ::gethostname(host, sizeof host - 1);
    std::string name = std::string(run_directory_prefix) + host + "-" +
                       std::to_string(::getpid()) + "-XXXXXX";
    std::string templ = (fs::path(base) / name).string();
    std::vector<char> buffer(templ.begin(), templ.end());
    buffer.push_back('\0');
    if (::mkdtemp(buffer.data()) == nullptr) {
        result = shown + ": cannot create the run's directory there: " + std::strerror(errno);
        return false;
    }
    result = fs::absolute(fs::path(buffer.data())).string();
    return true;
}

}  // namespace

}  // namespace run_directory_impl
run_directory::run_directory(const std::string& parent) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::string text;
    int ok = 1;
    if (rank == 0) ok = run_directory_impl::create_under(parent, text) ? 1 : 0;
    long long header[2] = {ok, static_cast<long long>(text.size())};
    MPI_Bcast(header, 2, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    text.resize(static_cast<std::size_t>(header[1]));
    MPI_Bcast(text.data(), static_cast<int>(header[1]), MPI_CHAR, 0, MPI_COMM_WORLD);
    if (header[0] == 0) throw input_error(text);
    path_ = text;
    owner_ = rank == 0;
}

run_directory::~run_directory() {
    if (!owner_) return;
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

}  // namespace parbench::mpi_plugin::io
