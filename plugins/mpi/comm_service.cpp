#include "comm_service.hpp"

#include <parbench/mpi/comm_service.hpp>

#include <mpi.h>

#include "placement.hpp"

namespace parbench::mpi_plugin {
namespace comm_service_impl {
namespace {

int comm_processes_on_node() { return mpi::index_of_node(MPI_COMM_WORLD).processes_on_node; }

constexpr parbench_comm_service service = mpi::world_comm_service(&comm_processes_on_node);

}  // namespace

}  // namespace comm_service_impl
const parbench_comm_service* comm_service() { return &comm_service_impl::service; }

}  // namespace parbench::mpi_plugin
