// report/output_file.hpp: the one way parbench writes files.
#include <parbench/report/output_file.hpp>

#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;
using parbench::report::output_error;
using Catch::Matchers::Contains;

namespace {

struct scratch_dir {
    fs::path path;
    scratch_dir() {
        std::string t = (fs::temp_directory_path() / "pb-output-XXXXXX").string();
        path = ::mkdtemp(t.data());
    }
    ~scratch_dir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

bool leftovers(const fs::path& dir) {
    for (const auto& e : fs::directory_iterator(dir)) {
        const auto name = e.path().filename().string();
        if (name.find(".tmp.") != std::string::npos || name.rfind(".parbench-probe", 0) == 0)
            return true;
    }
    return false;
}

}  // namespace

TEST_CASE("output paths: regular files or new ones; everything else refused", "[output]") {
    scratch_dir d;
    CHECK_THROWS_WITH(parbench::report::check_output_file("--json", ""),
                      "--json '': empty file name");
    CHECK_THROWS_WITH(parbench::report::check_output_file("--json", "/dev/null"),
                      Contains("is a character device, not a regular file"));
    CHECK_THROWS_WITH(parbench::report::check_output_file("--csv", d.path.string()),
                      Contains("is a directory"));
    REQUIRE(::mkfifo((d.path / "fifo").c_str(), 0600) == 0);
    CHECK_THROWS_WITH(parbench::report::check_output_file("--csv", (d.path / "fifo").string()),
                      Contains("is a FIFO"));
    CHECK_THROWS_WITH(
        parbench::report::check_output_file("--csv", (d.path / "no" / "x.csv").string()),
        Contains("does not exist"));
    CHECK_NOTHROW(parbench::report::check_output_file("--csv", (d.path / "new.csv").string()));
    CHECK_FALSE(fs::exists(d.path / "new.csv"));  // checking creates nothing
    CHECK_FALSE(leftovers(d.path));
}

TEST_CASE("the same real file under two spellings is refused", "[output]") {
    scratch_dir d;
    fs::create_directory(d.path / "sub");
    fs::create_symlink("x", d.path / "link");
    const auto a = parbench::report::check_output_file("--json", (d.path / "x").string());
    const auto b = parbench::report::check_output_file("--csv", (d.path / "sub/../x").string());
    const auto c = parbench::report::check_output_file("--csv", (d.path / "link").string());
    const auto e = parbench::report::check_output_file("--csv", (d.path / "y").string());
    CHECK_THROWS_WITH(parbench::report::check_distinct({a, b}), Contains("name the same file"));
    CHECK_THROWS_WITH(parbench::report::check_distinct({a, c}), Contains("name the same file"));
    CHECK_NOTHROW(parbench::report::check_distinct({a, e}));
}

TEST_CASE("a symbolic link is written through; the link stays", "[output]") {
    scratch_dir d;
    fs::create_symlink("target.json", d.path / "link.json");
    parbench::report::write_file_atomically(d.path / "link.json", "{}\n", "--json link", true);
    CHECK(fs::is_symlink(d.path / "link.json"));
    CHECK(slurp(d.path / "target.json") == "{}\n");
    parbench::report::write_file_atomically(d.path / "link.json", "[]\n", "--json link", false);
    CHECK(slurp(d.path / "target.json") == "[]\n");
    CHECK_FALSE(leftovers(d.path));

    fs::create_symlink("rows.csv", d.path / "link.csv");
    {
        parbench::report::output_file f(d.path / "link.csv", "--csv link");
        f.write("a,b\r\n");
        f.close();
    }
    CHECK(fs::is_symlink(d.path / "link.csv"));
    CHECK(slurp(d.path / "rows.csv") == "a,b\r\n");
}

TEST_CASE("a failed write names the file and the reason; no temporary file survives",
          "[output]") {
    scratch_dir d;
    // A file size limit fails writes with EFBIG, as a full disk fails them with ENOSPC.
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit old{};
    REQUIRE(::getrlimit(RLIMIT_FSIZE, &old) == 0);
    rlimit small = old;
    small.rlim_cur = 1000;
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
    const std::string big(5000, 'x');
    CHECK_THROWS_WITH(
        parbench::report::write_file_atomically(d.path / "out.json", big, "--json out.json", true),
        "--json out.json: cannot write: File too large");
    parbench::report::output_file f(d.path / "out.csv", "--csv out.csv");
    CHECK_THROWS_WITH(f.write(big), "--csv out.csv: cannot write: File too large");
    ::setrlimit(RLIMIT_FSIZE, &old);
    CHECK_FALSE(fs::exists(d.path / "out.json"));
    CHECK_FALSE(leftovers(d.path));
}

TEST_CASE("output directories: created when missing, refused when not directories",
          "[output]") {
    scratch_dir d;
    CHECK_THROWS_WITH(parbench::report::check_output_directory("--dat-dir", ""),
                      "--dat-dir '': empty directory name");
    std::ofstream(d.path / "file") << "keep";
    CHECK_THROWS_WITH(
        parbench::report::check_output_directory("--dat-dir", (d.path / "file").string()),
        Contains("is a regular file, not a directory"));
    CHECK(slurp(d.path / "file") == "keep");
    CHECK_NOTHROW(parbench::report::check_output_directory("--dat-dir", (d.path / "a/b").string()));
    CHECK(fs::is_directory(d.path / "a/b"));
    CHECK_FALSE(leftovers(d.path / "a/b"));
}
