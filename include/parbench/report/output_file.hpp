// The one way parbench writes a file (JSON, CSV, PAW .dat, plot files): to regular files only,
// with every write, flush and close checked and the reason (errno text) in the message.
//
//   * A path that names a device, a FIFO, a socket or a directory is refused: opening /dev/null
//     or a FIFO for output would either damage the system (JSON is replaced by rename) or block.
//   * A symbolic link is written *through*: the file it points to is replaced or created, the
//     link itself stays (the real path is resolved first, and everything below uses it).
//   * Every output of a run is claimed in one `output_set` before it is written, so that two of
//     them (--json, --csv, the .dat files) can never be the same file, however it is spelled
//     (symbolic links, '..'). Files whose names are known only during the run (PAW's .dat
//     files) reserve their names' family beforehand.
//   * `output_file` streams (CSV, .dat): opened, truncated, written row by row. A row is one
//     write() and the file never ends inside one: a write that fails half done (a full disk)
//     is cut back to the end of the previous row before the error is reported.
//   * `write_file_atomically` (JSON) writes a temporary file beside the target and renames it
//     over the target, so readers see the old or the new complete file; the temporary file is
//     removed on every error path.
//   * `close()` / a durable atomic write flush and fsync, so what a finished run reports is on
//     disk when parbench exits.
//
// Errors are `output_error` (a std::runtime_error): the driver turns them into one
// `parbench: error:` line and stops the whole run.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace parbench::report {

class output_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

namespace detail {

[[nodiscard]] inline std::string errno_text(int error) { return std::strerror(error); }

// What kind of thing a stat() result is, for messages ("a directory", "a character device").
[[nodiscard]] inline std::string_view kind_of(mode_t mode) noexcept {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISREG(mode)) return "a regular file";
    return "not a regular file";
}

// The path with every symbolic link and '.'/'..' resolved, as far as it exists; the part that
// does not exist yet is appended lexically. Two spellings of one file give the same result. A
// link whose target does not exist yet (a dangling link) resolves to that target, which is
// where writing through it creates the file.
[[nodiscard]] inline std::filesystem::path resolved(const std::filesystem::path& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path current = fs::absolute(path, ec);
    for (int hops = 0; hops < 40; ++hops) {  // 40: Linux's own limit on nested links
        current = fs::weakly_canonical(current, ec);
        if (ec) return fs::absolute(path, ec).lexically_normal();
        if (!fs::is_symlink(fs::symlink_status(current, ec))) return current;
        const fs::path target = fs::read_symlink(current, ec);
        if (ec) return current;
        current = target.is_absolute() ? target : current.parent_path() / target;
    }
    return current;
}

// Writes all of `text`; 0 or the errno of the failing write.
[[nodiscard]] inline int write_all(int fd, std::string_view text) noexcept {
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        if (n == 0) return EIO;
        text.remove_prefix(static_cast<std::size_t>(n));
    }
    return 0;
}

// Opens `real` for writing (created 0666 & ~umask, truncated). O_NONBLOCK keeps a FIFO from
// blocking the open; whatever was opened must be a regular file, checked on the descriptor.
[[nodiscard]] inline int open_regular_for_writing(const std::filesystem::path& real,
                                                  const std::string& label, int extra_flags) {
    const int fd = ::open(real.c_str(),
                          O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | extra_flags,
                          0666);
    if (fd < 0) throw output_error(label + ": cannot open for writing: " + errno_text(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        throw output_error(label + ": is " + std::string(kind_of(st.st_mode)) +
                           ", not a regular file; parbench writes regular files only");
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

}  // namespace detail

// An output path as the user gave it and as it resolves. `label` names it in messages
// ("--json out.json").
struct output_path {
    std::string label;
    std::filesystem::path given;
    std::filesystem::path real;
};

namespace detail {

// The target of `out` (after symbolic links) is a regular file or does not exist yet.
inline void require_regular_or_new(const output_path& out) {
    struct stat st {};
    if (::stat(out.real.c_str(), &st) == 0) {
        if (!S_ISREG(st.st_mode))
            throw output_error(out.label + ": is " + std::string(kind_of(st.st_mode)) +
                               ", not a regular file; parbench writes regular files only");
    } else if (errno != ENOENT) {
        throw output_error(out.label + ": " + errno_text(errno));
    }
}

}  // namespace detail

// Checks an output file path before anything is written: not empty, the target (after symbolic
// links) is a regular file or does not exist yet, and its directory exists and accepts a new
// file (tried by creating and removing a probe, which also finds read-only and pseudo file
// systems such as /proc, and names that are too long).
[[nodiscard]] inline output_path check_output_file(const std::string& option,
                                                   const std::string& path) {
    if (path.empty()) throw output_error(option + " '': empty file name");
    output_path out{option + " " + path, path, detail::resolved(path)};
    detail::require_regular_or_new(out);
    struct stat st {};
    const auto directory = out.real.parent_path();
    if (::stat(directory.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        throw output_error(out.label + ": directory " + directory.string() + " does not exist");
    if (out.real.filename().string().size() > 255 ||
        out.real.string().size() >= 4096)  // NAME_MAX / PATH_MAX on Linux
        throw output_error(out.label + ": " + detail::errno_text(ENAMETOOLONG));
    std::string probe = (directory / ".parbench-probe.XXXXXX").string();
    const int fd = ::mkstemp(probe.data());
    if (fd < 0)
        throw output_error(out.label + ": cannot create files in " + directory.string() + ": " +
                           detail::errno_text(errno));
    ::close(fd);
    ::unlink(probe.c_str());
    return out;
}

// Checks a directory for output files (PAW .dat): not empty, a directory or creatable one, and
// writable (probed as above).
[[nodiscard]] inline output_path check_output_directory(const std::string& option,
                                                        const std::string& path) {
    if (path.empty()) throw output_error(option + " '': empty directory name");
    output_path out{option + " " + path, path, detail::resolved(path)};
    struct stat st {};
    if (::stat(out.real.c_str(), &st) == 0) {
        if (!S_ISDIR(st.st_mode))
            throw output_error(out.label + ": is " + std::string(detail::kind_of(st.st_mode)) +
                               ", not a directory");
        std::string probe = (out.real / ".parbench-probe.XXXXXX").string();
        const int fd = ::mkstemp(probe.data());
        if (fd < 0)
            throw output_error(out.label + ": cannot create files there: " +
                               detail::errno_text(errno));
        ::close(fd);
        ::unlink(probe.c_str());
        return out;
    }
    // Does not exist: created now (with its missing parents), so that a directory that cannot
    // be made stops the run before it starts rather than at its first result.
    std::error_code ec;
    std::filesystem::create_directories(out.real, ec);
    if (ec) throw output_error(out.label + ": cannot create the directory: " + ec.message());
    return out;
}

// Every file one run writes, claimed before it is written: two outputs that are one file
// (however spelled) would destroy or interleave each other, so the second claim is refused.
// Files whose names are known only during the run (PAW's .dat files: "<test>_time-np_4.dat")
// reserve their family beforehand (a directory and a name suffix): no other output may take a
// name of it, and each member is claimed when it is opened.
class output_set {
public:
    // Adds `path`, written by `owner` ("--json", "--csv", "--dat-dir"); throws output_error when
    // another output of the run is the same file, or when a name reserved by another owner's
    // family. The same owner claiming the same name again (a family member found before the
    // run, then opened) is that one output.
    void claim(const output_path& path, const std::string& owner) {
        for (const auto& c : claims_) {
            if (c.path.real != path.real) continue;
            if (c.owner == owner && c.path.given.lexically_normal() == path.given.lexically_normal())
                return;
            throw output_error(c.path.label + " and " + path.label + " name the same file (" +
                               path.real.string() + "); give each output its own file");
        }
        for (const auto& f : families_)
            if (f.owner != owner && in_family(f, path.real))
                throw output_error(path.label + ": " + f.description + " (" +
                                   path.real.string() + "); give it another name");
        claims_.push_back({path, owner});
    }

    // Reserves every name in `directory` (resolved) that ends in `suffix` for `owner`;
    // `description` says why, in messages ("PAW writes its .dat files there, --dat-dir out").
    // Outputs claimed before are checked against the family too.
    void reserve_family(const std::filesystem::path& directory, std::string suffix,
                        const std::string& owner, std::string description) {
        family f{detail::resolved(directory), std::move(suffix), owner, std::move(description)};
        for (const auto& c : claims_)
            if (c.owner != owner && in_family(f, c.path.real))
                throw output_error(c.path.label + ": " + f.description + " (" +
                                   c.path.real.string() + "); give it another name");
        families_.push_back(std::move(f));
    }

private:
    struct claimed {
        output_path path;
        std::string owner;
    };
    struct family {
        std::filesystem::path directory;
        std::string suffix;
        std::string owner;
        std::string description;
    };
    static bool in_family(const family& f, const std::filesystem::path& real) {
        const std::string name = real.filename().string();
        return real.parent_path() == f.directory && name.size() >= f.suffix.size() &&
               name.compare(name.size() - f.suffix.size(), f.suffix.size(), f.suffix) == 0;
    }

    std::vector<claimed> claims_;
    std::vector<family> families_;
};

// Two options naming the same file would lose one of them: refused before the run starts.
inline void check_distinct(const std::vector<output_path>& paths) {
    output_set set;
    for (const auto& p : paths) set.claim(p, p.label);
}

// Writes all of `text` to a descriptor parbench did not open (standard output), or throws an
// output_error naming `label` ("stdout: cannot write: No space left on device"). What a CI job
// reads from stdout must not be lost silently to a full disk or a closed descriptor.
inline void write_to_descriptor(int fd, std::string_view text, const std::string& label) {
    if (const int error = detail::write_all(fd, text))
        throw output_error(label + ": cannot write: " + detail::errno_text(error));
}

// A regular file written from the start, in order (CSV, .dat). Not copyable; movable.
class output_file {
public:
    output_file() = default;
    // Opens and truncates `path` (a symbolic link is followed to its target). `label` names the
    // file in messages.
    output_file(const std::filesystem::path& path, std::string label)
        : label_(std::move(label)) {
        fd_ = detail::open_regular_for_writing(detail::resolved(path), label_, O_TRUNC);
    }
    output_file(const output_file&) = delete;
    output_file& operator=(const output_file&) = delete;
    output_file(output_file&& other) noexcept
        : fd_(std::exchange(other.fd_, -1)), written_(std::exchange(other.written_, 0)),
          label_(std::move(other.label_)) {}
    output_file& operator=(output_file&& other) noexcept {
        if (this != &other) {
            discard();
            fd_ = std::exchange(other.fd_, -1);
            written_ = std::exchange(other.written_, 0);
            label_ = std::move(other.label_);
        }
        return *this;
    }
    ~output_file() { discard(); }

    [[nodiscard]] bool is_open() const noexcept { return fd_ >= 0; }
    [[nodiscard]] const std::string& label() const noexcept { return label_; }

    // Unbuffered: every call reaches the kernel, so a stopped run keeps every row written. One
    // call is one row (or header): when it cannot be written whole (a full disk, a file size
    // limit), what reached the file of it is cut off again, so that the file ends with the last
    // whole row; cutting frees space, so it works on a full disk.
    void write(std::string_view text) {
        if (fd_ < 0) throw output_error(label_ + ": cannot write: the file is closed");
        if (const int error = detail::write_all(fd_, text)) {
            if (::ftruncate(fd_, written_) == 0) (void)::lseek(fd_, written_, SEEK_SET);
            throw output_error(label_ + ": cannot write: " + detail::errno_text(error));
        }
        written_ += static_cast<off_t>(text.size());
    }

    // Flushes to the storage device (fsync) and closes; both checked.
    void close() {
        if (fd_ < 0) return;
        const int fd = std::exchange(fd_, -1);
        const bool synced = ::fsync(fd) == 0 || errno == EINVAL;  // EINVAL: cannot be synced
        const int sync_error = errno;
        if (::close(fd) != 0 && errno != EINTR)
            throw output_error(label_ + ": cannot close: " + detail::errno_text(errno));
        if (!synced) throw output_error(label_ + ": cannot flush to disk: " +
                                        detail::errno_text(sync_error));
    }

private:
    void discard() noexcept {
        if (fd_ >= 0) ::close(std::exchange(fd_, -1));
    }

    int fd_ = -1;
    off_t written_ = 0;  // the bytes of whole rows in the file
    std::string label_;
};

// Replaces `path` (through a symbolic link: its target) with `text`: a temporary file in the
// same directory is written, optionally fsync'ed (`durable`), and renamed over the target. The
// temporary file never outlives an error.
inline void write_file_atomically(const std::filesystem::path& path, std::string_view text,
                                  const std::string& label, bool durable) {
    const auto real = detail::resolved(path);
    struct stat st {};
    if (::stat(real.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        throw output_error(label + ": is " + std::string(detail::kind_of(st.st_mode)) +
                           ", not a regular file; parbench writes regular files only");
    std::string temporary = real.string() + ".tmp.XXXXXX";
    const int fd = ::mkostemp(temporary.data(), O_CLOEXEC);
    if (fd < 0)
        throw output_error(label + ": cannot create a temporary file beside it: " +
                           detail::errno_text(errno));
    const auto fail = [&](const std::string& what, int error) {
        ::close(fd);
        ::unlink(temporary.c_str());
        return output_error(label + ": " + what + ": " + detail::errno_text(error));
    };
    if (const int error = detail::write_all(fd, text)) throw fail("cannot write", error);
    // mkstemp creates 0600; results are meant to be shared like any file the user creates.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);
    if (durable && ::fsync(fd) != 0 && errno != EINVAL) throw fail("cannot flush to disk", errno);
    if (::close(fd) != 0 && errno != EINTR) {
        const int error = errno;
        ::unlink(temporary.c_str());
        throw output_error(label + ": cannot close: " + detail::errno_text(error));
    }
    if (::rename(temporary.c_str(), real.c_str()) != 0) {
        const int error = errno;
        ::unlink(temporary.c_str());
        throw output_error(label + ": cannot replace the file: " + detail::errno_text(error));
    }
}

}  // namespace parbench::report
