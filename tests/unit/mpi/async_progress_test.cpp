// mpi/async_progress.hpp without MPI calls: which variable is read, which values mean "on", the
// thread level a progress thread needs, and what the header and the JSON context say.
#include <parbench/mpi/async_progress.hpp>

#include <catch2/catch.hpp>

#include <map>
#include <string>

using parbench::mpi::async_progress;
using parbench::mpi::detect_async_progress;

namespace {
struct fake_environment {
    std::map<std::string, std::string> values;
    const char* operator()(const char* name) const {
        const auto it = values.find(name);
        return it == values.end() ? nullptr : it->second.c_str();
    }
};
}  // namespace

TEST_CASE("nothing set: off") {
    const async_progress p = detect_async_progress(fake_environment{}, MPI_THREAD_MULTIPLE);
    CHECK_FALSE(p.requested);
    CHECK_FALSE(p.enabled());
    CHECK(p.variable.empty());
    CHECK(parbench::mpi::describe(p) == "off (no progress-thread variable set)");
}

TEST_CASE("MPICH's variable set to 1 at MPI_THREAD_MULTIPLE: on") {
    const async_progress p = detect_async_progress(
        fake_environment{{{"MPIR_CVAR_ASYNC_PROGRESS", "1"}}}, MPI_THREAD_MULTIPLE);
    CHECK(p.requested);
    CHECK(p.enabled());
    CHECK(p.variable == "MPIR_CVAR_ASYNC_PROGRESS");
    CHECK(p.read_by == "MPICH");
    CHECK(parbench::mpi::describe(p) ==
          "on (MPIR_CVAR_ASYNC_PROGRESS=1, MPI_THREAD_MULTIPLE)");
    const auto j = parbench::mpi::to_json(p);
    CHECK(j["enabled"] == true);
    CHECK(j["variable"] == "MPIR_CVAR_ASYNC_PROGRESS");
    CHECK(j["value"] == "1");
    CHECK(j["thread_level"] == "MPI_THREAD_MULTIPLE");
    CHECK(j["thread_level_needed"] == "MPI_THREAD_MULTIPLE");
}

TEST_CASE("requested below MPI_THREAD_MULTIPLE: requested, not enabled, and the header says why") {
    const async_progress p = detect_async_progress(
        fake_environment{{{"I_MPI_ASYNC_PROGRESS", "yes"}}}, MPI_THREAD_SINGLE);
    CHECK(p.requested);
    CHECK_FALSE(p.enabled());
    CHECK(p.read_by == "Intel MPI");
    CHECK(parbench::mpi::describe(p).find("needs MPI_THREAD_MULTIPLE") != std::string::npos);
    CHECK(parbench::mpi::to_json(p)["enabled"] == false);
}

TEST_CASE("boolean spellings the libraries accept, and the ones they do not") {
    for (const char* on : {"1", "yes", "YES", "true", "True", "on", "enable"})
        CHECK(parbench::mpi::truthy(on));
    for (const char* off : {"0", "no", "false", "off", "", "2", "maybe"})
        CHECK_FALSE(parbench::mpi::truthy(off));
    const async_progress p = detect_async_progress(
        fake_environment{{{"MPIR_CVAR_ASYNC_PROGRESS", "0"}}}, MPI_THREAD_MULTIPLE);
    CHECK_FALSE(p.requested);
    CHECK(p.variable == "MPIR_CVAR_ASYNC_PROGRESS");
    CHECK(parbench::mpi::describe(p) == "off (MPIR_CVAR_ASYNC_PROGRESS=0)");
}

TEST_CASE("MPICH's older name is read too") {
    const async_progress p = detect_async_progress(
        fake_environment{{{"MPICH_ASYNC_PROGRESS", "1"}}}, MPI_THREAD_MULTIPLE);
    CHECK(p.enabled());
    CHECK(p.variable == "MPICH_ASYNC_PROGRESS");
}

TEST_CASE("the seed's MPI_ASYNC_PROGRESS is reported but read by no library") {
    const async_progress p = detect_async_progress(
        fake_environment{{{"MPI_ASYNC_PROGRESS", "1"}}}, MPI_THREAD_MULTIPLE);
    CHECK_FALSE(p.requested);
    CHECK(p.variable == "MPI_ASYNC_PROGRESS");
    CHECK(parbench::mpi::describe(p) == "off (MPI_ASYNC_PROGRESS=1 is read by no MPI library)");
}

TEST_CASE("a recognised variable that is on wins over an unrecognised one") {
    const async_progress p = detect_async_progress(
        fake_environment{{{"MPI_ASYNC_PROGRESS", "1"}, {"I_MPI_ASYNC_PROGRESS", "1"}}},
        MPI_THREAD_MULTIPLE);
    CHECK(p.enabled());
    CHECK(p.variable == "I_MPI_ASYNC_PROGRESS");
}

// MPICH 4.0.2 tried value by value (MPI_Init_thread of a small program): these it accepts, the
// others make MPI_Init abort ("Unable to parse environment variable").
TEST_CASE("the progress variables are checked against what their reader accepts") {
    using parbench::mpi::boolean_spelling;
    using parbench::mpi::parse_boolean;
    for (const char* ok : {"1", "yes", "YES", "true", "TRUE", "on", "ON"})
        CHECK(parse_boolean(boolean_spelling::mpich, ok) == true);
    for (const char* ok : {"0", "no", "NO", "false", "FALSE", "off", "OFF"})
        CHECK(parse_boolean(boolean_spelling::mpich, ok) == false);
    for (const char* bad : {"Yes", "True", "On", "enable", "2", "-1", " 1", "1 ", "", "0x1",
                            "010", "banana", "+1"})
        CHECK_FALSE(parse_boolean(boolean_spelling::mpich, bad).has_value());
    CHECK(parse_boolean(boolean_spelling::words, "Enable") == true);
    CHECK(parse_boolean(boolean_spelling::words, "disable") == false);
    CHECK_FALSE(parse_boolean(boolean_spelling::words, "maybe").has_value());

    const auto problem = parbench::mpi::progress_environment_problem(
        fake_environment{{{"MPIR_CVAR_ASYNC_PROGRESS", "banana"}}});
    REQUIRE(problem.has_value());
    CHECK(problem->starts_with("environment MPIR_CVAR_ASYNC_PROGRESS 'banana': expected 1, 0,"));
    CHECK_FALSE(parbench::mpi::progress_environment_problem(
                    fake_environment{{{"MPICH_ASYNC_PROGRESS", "on"},
                                      {"I_MPI_ASYNC_PROGRESS", "enable"}}})
                    .has_value());
    // "Yes" was reported as a request, and MPICH refused it: it is now neither.
    CHECK(parbench::mpi::progress_environment_problem(
              fake_environment{{{"MPIR_CVAR_ASYNC_PROGRESS", "Yes"}}})
              .has_value());
    CHECK_FALSE(detect_async_progress(fake_environment{{{"MPIR_CVAR_ASYNC_PROGRESS", "Yes"}}},
                                      MPI_THREAD_MULTIPLE)
                    .requested);
}
