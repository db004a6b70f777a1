// An imb-* suite: its catalogue of benchmark definitions and what differs from the other imb-*
// suites (name, title part, defaults). Everything else — options, selection, run header, the
// -mem default, the oversubscription warning, driving each benchmark — is IMB's and shared here.
#pragma once

#include "imb/driver.hpp"
#include "imb/options.hpp"
#include "imb/parameters.hpp"

#include <parbench/plugin/abi.h>
#include <parbench/plugin/export.hpp>
#include <parbench/plugin/request.hpp>
#include <parbench/report/imb_header.hpp>

#include <span>
#include <vector>

namespace parbench::imb {

struct suite_spec {
    const char* name = nullptr;             // "imb-mpi1"
    const char* description = nullptr;      // one line, for parbench list
    const char* compatible_with = nullptr;  // "IMB-MPI1", in the run title
    report::imb_part part = report::imb_part::mpi1;  // the header's part, "MPI-1 part" in titles
    suite_defaults defaults{};
    // IMB 2021's default benchmark list in its run order, where it differs from the catalogue's
    // flags and order (IMB-IO: imb::methodology::io_nonblocking_by_default); used under
    // -methodology 2021 only.
    std::span<const std::string_view> imb2021_list{};
    // Rank 0, after IMB's run_start is built and before it is sent: what a suite adds to the
    // header and context, or another console layout (imb-nbc: the CPU-load rate, async progress).
    void (*extend_run_start)(run_start& start, const run_state& st) = nullptr;
};

class suite {
public:
    // `test_only`: fault-injection benchmarks (PARBENCH_BENCH_TEST_ONLY) appended to the
    // reference catalogue in builds with the testing module.
    suite(const suite_spec& spec, std::span<const benchmark> reference,
          std::span<const benchmark> test_only = {});
    suite(const suite&) = delete;
    suite& operator=(const suite&) = delete;

    // Points into this object: valid as long as it lives.
    [[nodiscard]] parbench_suite info() const noexcept;

    // The whole run: options, selection, header on rank 0, every selected benchmark.
    // Collective over MPI_COMM_WORLD.
    void run(const run_request& request, const plugin::host_channel& host) const;

private:
    suite_spec spec_;
    std::vector<benchmark> catalogue_;
    std::vector<parbench_benchmark> table_;  // catalogue_'s infos, contiguous for the ABI
    parameter_table parameters_;
};

}  // namespace parbench::imb
