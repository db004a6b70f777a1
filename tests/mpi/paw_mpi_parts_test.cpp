// PAW's MPI parts without MPI calls: the reduction across tasks (MIN, MAX for Bcast/Scatter), the
// -check sums of the reductions, and how the PAW reporter names a record's files and rate.
#include <catch2/catch.hpp>

#include <parbench/suites/paw/messages.hpp>

#include <parbench/mpi/reduction.hpp>
#include <parbench/report/paw.hpp>

#include <vector>

// A namespace of the file's own: the test program is a unity build (tests/mpi/meson.build), and
// its using-directives must not reach the files compiled after it.
namespace paw_mpi_parts_test {

using namespace parbench;

namespace {

mpi::gathered two_tasks() {
    mpi::gathered g;
    g.root = true;
    g.ranks.resize(2);
    g.ranks[0] = {.group = 0, .iterations = 12, .batch_s = {4e-6, 2e-6, 9e-6}};
    g.ranks[1] = {.group = 0, .iterations = 12, .batch_s = {3e-6, 5e-6, 6e-6}};
    return g;
}

result_record mpi_record(benchmark_class klass, const char* title, int processes) {
    result_record r;
    r.suite = "paw";
    r.benchmark = title;
    r.klass = klass;
    r.block.title = title;
    r.block.processes = processes;
    return r;
}

}  // namespace

TEST_CASE("PAW's collectives: MAX across tasks per repetition for col_bct and col_sct", "[paw]") {
    mpi::group_layout layout;
    layout.processes = 2;
    const auto records =
        mpi::reduce_per_repetition(paw_mpi::bcast::descriptor, {"paw", "col_bct"}, layout, 8,
                                   false, two_tasks(), mpi::across_tasks::maximum);
    REQUIRE(records.size() == 1);
    const result_record& r = records.front();
    // per repetition: max(4, 3) = 4, max(2, 5) = 5, max(9, 6) = 9 us
    CHECK(r.samples_us == std::vector<double>{4.0, 5.0, 9.0});
    CHECK(r.t_min_us == Approx(4.0));
    CHECK(r.t_max_us == Approx(9.0));
    CHECK(r.t_avg_us == Approx(6.0));
    CHECK(r.iterations == 4);  // NLOOP = 12 calls / 3 repetitions
    CHECK(r.klass == benchmark_class::collective);
    const auto least = mpi::reduce_per_repetition(paw_mpi::bcast::descriptor, {"paw", "col_ardc"},
                                                  layout, 8, false, two_tasks(),
                                                  mpi::across_tasks::minimum);
    CHECK(least.front().samples_us == std::vector<double>{3.0, 2.0, 6.0});
}

TEST_CASE("PAW's reductions sum unsigned chars modulo 256", "[paw]") {
    // byte j of rank r is 1 + (37 r + 11 j + j / 256) mod 251 (mpi/check.hpp)
    CHECK(paw_mpi::byte_sum(1, 0) == std::byte{1});
    CHECK(paw_mpi::byte_sum(2, 0) == std::byte{1 + 38});
    CHECK(paw_mpi::byte_sum(2, 10) == std::byte{(111 + 148) % 256});  // 111 + 148 wraps to 3
}

TEST_CASE("What PAW's MPI tests move per iteration", "[paw]") {
    CHECK(paw_mpi::send_recv::work_of(100, 128).bytes_per_iteration == 200.0);  // there and back
    CHECK(paw_mpi::isend_ping::work_of(100, 128).bytes_per_iteration == 100.0);  // one way
    CHECK(paw_mpi::message_window<false>::work_of(10, 128).messages_per_iteration == 128.0);
    CHECK(paw_mpi::message_window<true>::work_of(10, 128).messages_per_iteration == 256.0);
    CHECK(paw_mpi::message_window<true>::work_of(10, 128).bytes_per_iteration == 2560.0);
    CHECK(paw_mpi::latency::work_of(1, 128).bytes_per_iteration == 0.0);  // time only
    CHECK(paw_mpi::scatter::layout(8, 4).send_bytes == 32);
    CHECK(paw_mpi::alltoall::layout(8, 4).recv_bytes == 32);
}

TEST_CASE("The PAW reporter names files by what a record carries", "[paw]") {
    using report::paw_dat_names;
    using report::paw_row;
    using report::paw_row_of;
    auto send = mpi_record(benchmark_class::parallel_transfer, "send", 4);
    send.repetitions = repetition_figures{.nreps = 2, .bytes_per_iteration = 2.0};
    CHECK(paw_row_of(send) == paw_row::bandwidth);
    CHECK(paw_dat_names(send) == std::pair<std::string, std::string>{"send_time-np_4.dat",
                                                                     "send_bw-np_4.dat"});
    auto mrate = mpi_record(benchmark_class::parallel_transfer, "mrate_bidir", 2);
    mrate.repetitions = repetition_figures{
        .nreps = 2, .bytes_per_iteration = 256.0, .messages_per_iteration = 256.0};
    CHECK(paw_row_of(mrate) == paw_row::message_rate);
    CHECK(paw_dat_names(mrate) == std::pair<std::string, std::string>{
                                      "mrate_bidir_time-np_2.dat", "mrate_bidir_rate-np_2.dat"});
    // The row's kind is its typed figures', never a metric's of the same name.
    auto named_only = send;
    named_only.repetitions.reset();
    named_only.metrics["bytes_per_iteration"] = 2.0;
    CHECK(paw_row_of(named_only) == paw_row::time_only);
    const auto ardc = mpi_record(benchmark_class::collective, "col_ardc", 8);
    CHECK(paw_row_of(ardc) == paw_row::time_only);
    CHECK(paw_dat_names(ardc) ==
          std::pair<std::string, std::string>{"col_ardc_time-np_8.dat", ""});
    const auto latency = mpi_record(benchmark_class::single_transfer, "latency", 2);
    CHECK(paw_dat_names(latency) == std::pair<std::string, std::string>{"latency.dat", ""});
    auto dgemm = mpi_record(benchmark_class::compute, "dgemm", 1);
    dgemm.block.threads = 8;
    CHECK(paw_row_of(dgemm) == paw_row::blas);
    CHECK(paw_dat_names(dgemm) == std::pair<std::string, std::string>{"dgemm_time-np_8.dat",
                                                                      "dgemm_flops-np_8.dat"});
}

}  // namespace paw_mpi_parts_test
