// The run_start event of an imb-* run: the title and part of the suite, IMB's header fields
// (MPI version, thread level, lengths, datatypes, benchmark list), the effective options and the
// run context.
#pragma once

#include "imb/driver.hpp"
#include "imb/suite.hpp"

#include <parbench/mpi/node.hpp>
#include <parbench/report/result.hpp>

#include <string>
#include <vector>

namespace parbench::imb {

// Rank 0 only (it asks MPI for the thread level and measures the clock).
[[nodiscard]] run_start make_run_start(const suite_spec& spec, const run_state& st,
                                       const std::vector<std::string>& listed,
                                       const mpi::node_share& share);

// Whether a list of benchmarks has IMB-IO's nonblocking flavours (S_IWrite_indv ... C_IRead_shared).
[[nodiscard]] bool lists_io_nonblocking(const std::vector<std::string>& listed);

// Rank 0, for the suites with IMB-NBC's overlap benchmarks (imb-nbc, imb-mpi4): the imb-nbc
// console layout, the CPU load's rate on this process (the run's probe under IMB 2021) and the
// asynchronous-progress setting, in the header and the context.
void add_overlap_header(run_start& start, const run_state& st);

}  // namespace parbench::imb
