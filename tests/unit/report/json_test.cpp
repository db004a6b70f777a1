// report/json.hpp: a row's Google Benchmark name says what its size counts (/bytes:X, or /n:N
// for a matrix order), from the record's size unit, whatever its class or suite.
#include <parbench/report/json.hpp>

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <unistd.h>

namespace {

struct temp_json_file {
    std::filesystem::path path = std::filesystem::temp_directory_path() /
                                 ("parbench_json_test_" + std::to_string(::getpid()) + ".json");
    ~temp_json_file() { std::filesystem::remove(path); }
};

std::string name_of(const parbench::result_record& r) {
    temp_json_file file;
    parbench::report::json_reporter out(file.path);
    out.on_result(r);
    return out.document().at("benchmarks").at(0).at("name").get<std::string>();
}

}  // namespace

TEST_CASE("JSON row names: the size's unit decides /bytes: or /n:", "[json]") {
    parbench::result_record r;
    r.suite = "paw";
    r.benchmark = "dgemm";
    r.block.title = "dgemm";
    r.block.threads = 2;
    r.bytes = 64;
    // A compute-class row whose size is a matrix order: /n:.
    r.klass = parbench::benchmark_class::compute;
    r.unit = parbench::size_unit::matrix_order;
    CHECK(name_of(r) == "paw/dgemm/np:1/threads:2/n:64");
    // The class alone says nothing about the size: bytes unless the record says otherwise.
    r.unit = parbench::size_unit::bytes;
    CHECK(name_of(r) == "paw/dgemm/np:1/threads:2/bytes:64");
    r.klass = parbench::benchmark_class::single_transfer;
    r.unit = parbench::size_unit::matrix_order;
    CHECK(name_of(r) == "paw/dgemm/np:1/threads:2/n:64");
}

TEST_CASE("JSON: a size IMB 2021's -time budget ended is listed apart from the rows", "[json]") {
    parbench::result_record r;
    r.suite = "imb-mpi1";
    r.benchmark = "PingPong";
    r.block.title = "PingPong";
    r.block.processes = 2;
    r.bytes = 4;
    temp_json_file file;
    parbench::report::json_reporter out(file.path);
    out.on_result(r);
    r.bytes = 8;
    out.on_time_out(r);
    const nlohmann::json& doc = out.document();
    // Google Benchmark's tools and `parbench compare` read every `benchmarks` entry as a time.
    REQUIRE(doc.at("benchmarks").size() == 1);  // the 4-byte row only (it has no samples)
    CHECK(doc.at("benchmarks").at(0).at("bytes") == 4);
    const nlohmann::json& outs = doc.at("context").at("parbench").at("time_outs");
    REQUIRE(outs.size() == 1);
    CHECK(outs[0].at("name") == "imb-mpi1/PingPong/np:2/bytes:8");
    CHECK(outs[0].at("bytes") == 8);
    CHECK(outs[0].at("processes") == 2);
}
