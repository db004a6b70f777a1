// Completion: what ends an operation inside the timed region. A completion has open() and
// close(); the aggregation policy places them (mpi/timed_loop.hpp):
//
//   non-aggregate   every iteration:  open; kernel(i); close        (IMB's M = 1)
//   aggregate       once per timing:  open; kernel(i) x M; close    (IMB's M = n_sample)
//
// open() starts what close() ends when the operation needs an epoch per completion (PSCW's
// start/post, a lock per transfer); it does nothing where the epoch is held by the resource.
// Message passing completes inside its kernels: no_completion, the default, compiles to nothing.
// One-sided completions live in mpi/rma_completion.hpp and only accept RMA window views.
#pragma once

#include <parbench/mpi/timed_loop.hpp>

#include <concepts>
#include <type_traits>

namespace parbench::mpi {

template <class Completion, class View>
concept completion_for = requires(Completion& c, const kernel_context& k, const View& v) {
    c.open(k, v);
    c.close(k, v);
};

struct no_completion {
    template <class View>
    void open(const kernel_context& /*context*/, const View& /*view*/) const noexcept {}
    template <class View>
    void close(const kernel_context& /*context*/, const View& /*view*/) const noexcept {}
};

// Whether a completion does anything: an aggregate timing with a real completion is one
// sample (the M transfers complete as a whole), so the runner cannot cut it into batches.
template <class Completion>
inline constexpr bool completes = !std::is_same_v<std::remove_cvref_t<Completion>, no_completion>;

}  // namespace parbench::mpi
