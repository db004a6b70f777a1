// Everything of parbench that needs no MPI, in one include: the clock, sizes, buffers and
// statistics; the pattern descriptors; the sync, aggregation and iteration policies; the result
// model and the reporters. MPI-facing code adds <parbench/mpi/runner.hpp> (it brings <mpi.h>);
// plugin authors add <parbench/plugin/export.hpp>. The docs include leaf headers, so that a
// reader sees where each name lives.
#pragma once

#include <parbench/core/buffers.hpp>
#include <parbench/core/clock.hpp>
#include <parbench/core/error.hpp>
#include <parbench/core/options.hpp>
#include <parbench/core/sizes.hpp>
#include <parbench/core/statistics.hpp>
#include <parbench/core/text.hpp>

#include <parbench/pattern/collective.hpp>
#include <parbench/pattern/compute.hpp>
#include <parbench/pattern/exchange.hpp>
#include <parbench/pattern/pattern.hpp>
#include <parbench/pattern/ping_pong.hpp>

#include <parbench/policy/aggregation.hpp>
#include <parbench/policy/iterations.hpp>
#include <parbench/policy/paw_nloop.hpp>
#include <parbench/policy/sync.hpp>

#include <parbench/report/csv.hpp>
#include <parbench/report/imb_console.hpp>
#include <parbench/report/json.hpp>
#include <parbench/report/paw.hpp>
#include <parbench/report/reporter.hpp>
#include <parbench/report/result.hpp>
