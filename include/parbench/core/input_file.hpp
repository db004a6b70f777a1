// Reading a small input file that the user names (-msglen, -input): a regular file of bounded
// size, or a clear input_error. /dev/zero, /dev/urandom, a FIFO, a directory or a huge file would
// otherwise grow memory without bound or block forever.
#pragma once

#include <parbench/core/error.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

namespace parbench {

// Input files list names or sizes, one a line: 1 MiB is thousands of times what they need.
inline constexpr std::size_t max_input_file_bytes = std::size_t{1} << 20;

// The whole content of `path`. `option` ("-msglen") names it in messages. An empty file is an
// error too: it would silently mean "the defaults".
[[nodiscard]] inline std::string read_input_file(std::string_view option, const std::string& path,
                                                 std::size_t max_bytes = max_input_file_bytes) {
    const std::string shown = std::string(option) + " " + path;
    if (path.empty()) throw input_error(std::string(option) + " '': empty file name");
    // O_NONBLOCK: opening a FIFO must not wait for a writer; the type is checked right after.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) throw input_error(shown + ": cannot open for reading: " + std::strerror(errno));
    struct fd_closer {
        int fd;
        ~fd_closer() { ::close(fd); }
    } closer{fd};
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        throw input_error(shown + ": cannot read: " + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) throw input_error(shown + ": is a directory, not a file");
    if (!S_ISREG(st.st_mode))
        throw input_error(shown + ": not a regular file (a device, FIFO or socket)");
    if (static_cast<unsigned long long>(st.st_size) > max_bytes)
        throw input_error(shown + ": larger than " + std::to_string(max_bytes) +
                          " bytes, the limit for this input");
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    std::string text;
    char buffer[65536];
    while (true) {  // read to the end, never past max_bytes (the file may grow meanwhile)
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw input_error(shown + ": cannot read: " + std::strerror(errno));
        }
        if (n == 0) break;
        text.append(buffer, static_cast<std::size_t>(n));
        if (text.size() > max_bytes)
            throw input_error(shown + ": larger than " + std::to_string(max_bytes) +
                              " bytes, the limit for this input");
    }
    if (text.empty()) throw input_error(shown + ": the file is empty");
    return text;
}

}  // namespace parbench
