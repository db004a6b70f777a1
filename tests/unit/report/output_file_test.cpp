// report/output_file.hpp: the one way parbench writes files.
#include <parbench/report/console_layouts.hpp>
#include <parbench/report/output_file.hpp>
#include <parbench/report/paw_dat.hpp>

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

TEST_CASE("a row that cannot be written whole is cut off: the file ends with the last whole row",
          "[output]") {
    scratch_dir d;
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit old{};
    REQUIRE(::getrlimit(RLIMIT_FSIZE, &old) == 0);
    parbench::report::output_file f(d.path / "out.csv", "--csv out.csv");
    const std::string row = std::string(99, 'r') + "\n";  // 100 bytes a row
    f.write(row);
    f.write(row);
    rlimit small = old;
    small.rlim_cur = 250;  // room for half of the third row, as a full disk leaves it
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
    CHECK_THROWS_WITH(f.write(row), "--csv out.csv: cannot write: File too large");
    ::setrlimit(RLIMIT_FSIZE, &old);
    f.close();
    CHECK(slurp(d.path / "out.csv") == row + row);
}

TEST_CASE("every output of a run is claimed once, .dat names included", "[output]") {
    using parbench::report::output_set;
    scratch_dir d;
    fs::create_directory(d.path / "dat");
    fs::create_directory(d.path / "dat" / "sub");
    const auto file = [&](const std::string& option, const std::string& path) {
        return parbench::report::check_output_file(option, (d.path / path).string());
    };
    const auto dat_dir = [&] {
        return parbench::report::check_output_directory("--dat-dir", (d.path / "dat").string());
    };

    SECTION("a --json named like a .dat file in --dat-dir, however spelled") {
        output_set outputs;
        outputs.claim(file("--json", "dat/sub/../dgemm_time-np_1.dat"), "--json");
        CHECK_THROWS_WITH(parbench::report::reserve_paw_dat_files(outputs, dat_dir()),
                          Contains("--json ") && Contains("PAW writes its .dat files"));
    }
    SECTION("--csv beside --dat-dir or with another suffix is its own file") {
        output_set outputs;
        outputs.claim(file("--csv", "out.dat"), "--csv");
        outputs.claim(file("--json", "dat/out.json"), "--json");
        CHECK_NOTHROW(parbench::report::reserve_paw_dat_files(outputs, dat_dir()));
    }
    SECTION("a .dat entry that is a directory, a device or a link to another output") {
        fs::create_directory(d.path / "dat" / "dgemm_time-np_1.dat");
        output_set outputs;
        CHECK_THROWS_WITH(parbench::report::reserve_paw_dat_files(outputs, dat_dir()),
                          Contains("dgemm_time-np_1.dat: is a directory, not a regular file"));
        fs::remove(d.path / "dat" / "dgemm_time-np_1.dat");
        fs::create_symlink("/dev/null", d.path / "dat" / "dgemv_time-np_1.dat");
        output_set again;
        CHECK_THROWS_WITH(parbench::report::reserve_paw_dat_files(again, dat_dir()),
                          Contains("is a character device"));
        fs::remove(d.path / "dat" / "dgemv_time-np_1.dat");
        fs::create_symlink("../out.json", d.path / "dat" / "sgemm_time-np_1.dat");
        output_set third;
        third.claim(file("--json", "out.json"), "--json");
        CHECK_THROWS_WITH(parbench::report::reserve_paw_dat_files(third, dat_dir()),
                          Contains("name the same file"));
    }
    SECTION("an existing .dat file is claimed before the run and opened during it") {
        std::ofstream(d.path / "dat" / "dgemm_time-np_1.dat") << "old";
        output_set outputs;
        parbench::report::reserve_paw_dat_files(outputs, dat_dir());
        const auto again = file("--dat-dir", "dat/dgemm_time-np_1.dat");
        parbench::report::output_path same{again.label, d.path / "dat" / "dgemm_time-np_1.dat",
                                           again.real};
        CHECK_NOTHROW(outputs.claim(same, parbench::report::paw_dat_owner));
    }
    CHECK_FALSE(leftovers(d.path));
}

namespace {

parbench::result_record blas_record(std::uint64_t n) {
    parbench::result_record r;
    r.suite = "paw";
    r.benchmark = "dgemm";
    r.klass = parbench::benchmark_class::compute;
    r.statistics = parbench::time_statistics::over_repetitions;
    r.bytes = n;
    r.block.threads = 1;
    r.block.processes = 1;
    r.t_min_us = r.t_max_us = r.t_avg_us = 1.0;
    r.paw_rates = parbench::paw_rate_figures{.flops_paw = 1000.0};
    return r;
}

}  // namespace

TEST_CASE("a .dat file is claimed when opened: two names of one file are refused", "[output]") {
    scratch_dir d;
    // dgemm's rate file is a link to its time file: the two would interleave.
    fs::create_symlink("dgemm_time-np_1.dat", d.path / "dgemm_flops-np_1.dat");
    parbench::report::paw_dat_reporter files(d.path);
    files.on_run_start({}, nlohmann::json::object());
    CHECK_THROWS_WITH(files.on_result(blas_record(8)), Contains("name the same file"));
}

TEST_CASE("the .dat files are written by a file reporter, with or without a console",
          "[output]") {
    scratch_dir d;
    parbench::report::output_set outputs;
    auto files = parbench::report::make_layout_files("paw", {.directory = d.path,
                                                             .outputs = &outputs});
    REQUIRE(files != nullptr);
    CHECK(parbench::report::make_layout_files("imb", {.directory = d.path}) == nullptr);
    parbench::run_start start;
    start.layout = "paw";
    files->on_run_start(start, nlohmann::json::object());
    files->on_result(blas_record(8));
    files->on_run_end(true);
    CHECK(slurp(d.path / "dgemm_time-np_1.dat").find("       8 1.000000e-06") !=
          std::string::npos);
    CHECK(slurp(d.path / "dgemm_flops-np_1.dat").find("       8 1.000000e+00") !=
          std::string::npos);  // 1000 flops in 1 us = 10^9 flop/s = 1 GFlop/s
}
