// Persistent requests on message buffers (MPI_Send_init / MPI_Recv_init, MPI-4's MPI_*_init
// collectives): a resource (mpi/resource.hpp) that takes message buffers and, once they are set
// up, has a definition make its requests on them — per size, outside the timed region — and
// frees them at teardown. Kernels see the buffers and the requests:
//
//   const auto make = [](const kernel_context& c, const message_buffers<fixed_slots>& b,
//                        std::vector<MPI_Request>& requests) {
//       requests.resize(1);
//       MPI_Allreduce_init(b.send(0), b.recv(0), n, MPI_FLOAT, MPI_SUM, c.comm, MPI_INFO_NULL,
//                          requests.data());
//   };
//   // kernel(context, i, view): MPI_Start(&view.requests[0]); MPI_Wait(&view.requests[0], ...);
//
// A request is bound to one address, so the buffers never rotate (no -off_cache here).
#pragma once

#include <parbench/mpi/communicator.hpp>
#include <parbench/mpi/message_buffers.hpp>
#include <parbench/mpi/resource.hpp>
#include <parbench/mpi/timed_loop.hpp>

#include <mpi.h>

#include <concepts>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace parbench::mpi {

// What a kernel on persistent requests sees: the buffers the requests were made on, and them.
struct persistent_view {
    message_buffers<fixed_slots> buffers;
    std::span<MPI_Request> requests;
    [[nodiscard]] std::byte* send(std::uint64_t i) const noexcept { return buffers.send(i); }
    [[nodiscard]] std::byte* recv(std::uint64_t i) const noexcept { return buffers.recv(i); }
};

// make(context, buffers, requests) creates this process's requests (collectively where the
// operation is a collective's); a process with none leaves the vector empty. The resource keeps
// `make` at one address as long as the requests (the runner moves resources after setup): arrays
// they read (counts, displacements, datatypes of the v- and w-collectives) can live in it.
template <class Make>
concept request_maker =
    std::invocable<Make&, const kernel_context&, const message_buffers<fixed_slots>&,
                   std::vector<MPI_Request>&>;

template <request_maker Make>
class persistent_requests {
public:
    persistent_requests(message_resource buffers, const kernel_context& context, Make make)
        : buffers_(std::move(buffers)),
          context_(context),
          make_(std::make_unique<Make>(std::move(make))) {}
    persistent_requests(persistent_requests&&) noexcept = default;
    persistent_requests& operator=(persistent_requests&&) = delete;
    persistent_requests(const persistent_requests&) = delete;
    persistent_requests& operator=(const persistent_requests&) = delete;
    ~persistent_requests() { teardown(); }

    [[nodiscard]] std::size_t footprint() const noexcept { return buffers_.footprint(); }
    void allocate() { buffers_.allocate(); }
    void setup(const communicator& group) {
        buffers_.setup(group);
        buffers_.visit([&](const auto& view) {
            if constexpr (std::same_as<std::remove_cvref_t<decltype(view)>,
                                       message_buffers<fixed_slots>>) {
                view_ = view;
                (*make_)(context_, view_, requests_);
            }
        });
    }
    void begin_access() const noexcept {}
    void end_access() const noexcept {}
    // Local (MPI_Request_free); idempotent.
    void teardown() noexcept {
        for (MPI_Request& r : requests_)
            if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
        requests_.clear();
    }

    template <class Check>
    void prepare_check(const Check& check, const kernel_context& context) {
        buffers_.prepare_check(check, context);
    }
    template <class Check>
    [[nodiscard]] check::findings count_defects(const Check& check, const kernel_context& context,
                                                std::uint64_t n) {
        return buffers_.count_defects(check, context, n);
    }

    template <class F>
    void visit(F&& f) {
        f(persistent_view{view_, requests_});
    }

private:
    message_resource buffers_;
    kernel_context context_;
    std::unique_ptr<Make> make_;
    message_buffers<fixed_slots> view_{};
    std::vector<MPI_Request> requests_;
};

}  // namespace parbench::mpi
