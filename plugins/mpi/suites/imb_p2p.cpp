// imb-p2p: the IMB-P2P component of Intel(R) MPI Benchmarks 2021.11 (src_c/P2P/): PingPong,
// PingPing, Unirandom, Birandom, Corandom, Stencil2D, Stencil3D and SendRecv_Replace, every
// process taking part, with IMB-P2P's iteration rule (n = round(numerator / X), at most max;
// n / 10 warm-up iterations), its pairings (its own random generator and seed), its barrier
// (zero-byte MPI_Sendrecv, p2p_barrier below), its options (-msglog, -msglen, -msgsz, -iter,
// -msgwr, -msgrd, -pause) and its table
//
//   #bytes #repetitions t[usec] Mbytes/sec Msg/sec
//
// where t is the mean over the processes of their time per message, and Mbytes/sec (10^6) and
// Msg/sec count every message of every process against the slowest process's time.
//
// The suite is a family for mpi::sweep (one active set: all processes), one kernel per benchmark
// (below, with IMB's source files) and the imb-p2p console layout (IMB-P2P's run header, IMB's
// tables) with the figures as declared columns.
// docs/imb-p2p.md lists what differs from IMB-P2P on purpose.
#include "suites/suite.hpp"

#include <parbench/core/clock.hpp>
#include <parbench/core/error.hpp>
#include <parbench/core/names.hpp>
#include <parbench/core/options.hpp>
#include <parbench/core/text.hpp>
#include <parbench/mpi/communicator.hpp>
#include <parbench/mpi/environment.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/mpi/sweep.hpp>
#include <parbench/pattern/exchange.hpp>
#include <parbench/plugin/catalogue_row.hpp>
#include <parbench/report/imb_header.hpp>
#include <parbench/report/mpi_suite_context.hpp>
#include <parbench/report/stability.hpp>

#include <fmt/format.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#ifndef PARBENCH_PLUGIN_VERSION
#define PARBENCH_PLUGIN_VERSION "0.0.0"
#endif

namespace parbench::imb_p2p {
namespace imb_p2p_impl {
namespace {

// IMB-P2P's iteration rule (imb_p2p.h get_iters): n = round(numerator / X) within [1, max]
// (max for X = 0), and n / 10 warm-up iterations (at least one when n > 1). Defaults from
// imb_p2p.c loading(): -iter 100000,800.
struct p2p_iterations {
    std::uint64_t max = 100000;
    std::uint64_t numerator = std::uint64_t{800} << 20;

    [[nodiscard]] std::uint64_t n_sample(std::uint64_t bytes, bool /*aggregate*/ = true) const {
        if (bytes == 0) return max;
        const auto n = static_cast<std::uint64_t>(
            std::round(static_cast<double>(numerator) / static_cast<double>(bytes)));
        return std::clamp<std::uint64_t>(n, 1, max);
    }
    [[nodiscard]] std::uint64_t warmup(std::uint64_t bytes, bool aggregate = true) const {
        const std::uint64_t n = n_sample(bytes, aggregate);
        return n / 10 == 0 && n > 1 ? 1 : n / 10;
    }
    [[nodiscard]] static constexpr double warmup_budget_s() noexcept {
        return std::numeric_limits<double>::infinity();
    }
    [[nodiscard]] std::uint64_t decide(std::uint64_t bytes, bool aggregate, double, int,
                                       bool) const {
        return n_sample(bytes, aggregate);
    }
};
static_assert(policy::iteration_policy<p2p_iterations>);

struct options {
    std::vector<std::uint64_t> sizes;  // in IMB-P2P's order (a -msglen file's may be unsorted)
    p2p_iterations iterations{};
    bool write_send = true;   // -msgwr
    bool read_recv = true;    // -msgrd
    int pause_us = 100000;    // -pause; < 0: none
};

// A whole decimal int, optionally negative (-pause -1); false on anything else.
bool parse_int(std::string_view text, int& value) {
    text = trim(text);
    const bool negative = !text.empty() && text.front() == '-';
    unsigned magnitude = 0;
    if (!parse_unsigned(negative ? text.substr(1) : text, magnitude) || magnitude > INT_MAX)
        return false;
    value = negative ? -static_cast<int>(magnitude) : static_cast<int>(magnitude);
    return true;
}

// The largest message an MPI count of MPI_BYTE holds: IMB-P2P passes its size_t lengths as int.
constexpr std::uint64_t max_message = INT_MAX;

std::uint64_t checked_size(std::string_view option, std::uint64_t x, std::string_view text) {
    if (x > max_message)
        throw input_error(fmt::format("-{} {}: {} bytes exceed an MPI count ({})", option, text,
                                      x, max_message));
    return x;
}

// "4097", "5k", "2M", "1g" (imb_p2p.c's sscanf("%d%s") and its K/M/G suffixes); nothing when the
// text is not such a length.
std::optional<std::uint64_t> parse_length(std::string_view text) {
    std::size_t p = 0;
    while (p < text.size() && std::isspace(static_cast<unsigned char>(text[p]))) ++p;
    const std::size_t digits = p;
    while (p < text.size() && std::isdigit(static_cast<unsigned char>(text[p]))) ++p;
    if (p == digits || p - digits > 10) return std::nullopt;
    std::uint64_t x = 0;
    for (std::size_t k = digits; k < p; ++k) x = 10 * x + static_cast<std::uint64_t>(text[k] - '0');
    if (x > INT_MAX) return std::nullopt;  // %d
    while (p < text.size() && std::isspace(static_cast<unsigned char>(text[p]))) ++p;
    if (p == text.size()) return x;
    switch (std::tolower(static_cast<unsigned char>(text[p]))) {
        case 'k': return x << 10;
        case 'm': return x << 20;
        case 'g': return x << 30;
        default: return std::nullopt;
    }
}

// -msglog N: 0, 1, 2, 4, ..., 2^N; -msglog K:N: 2^K, ..., 2^N (imb_p2p.c, "-msglog").
std::vector<std::uint64_t> parse_msglog(const std::string& text) {
    const auto colon = text.find(':');
    int lo = 0;
    int hi = 0;
    const bool pair = colon != std::string::npos;
    const bool ok = pair ? parse_int(text.substr(0, colon), lo) &&
                               parse_int(text.substr(colon + 1), hi)
                         : parse_int(text, hi);
    if (!ok || lo < 0 || hi < lo || hi > 30)
        throw input_error("-msglog " + text +
                          ": expected N or K:N, whole numbers with 0 <= K <= N <= 30");
    std::vector<std::uint64_t> sizes;
    if (!pair) sizes.push_back(0);
    for (int k = pair ? lo : 0; k <= hi; ++k) sizes.push_back(std::uint64_t{1} << k);
    return sizes;
}

// -msglen FILE: one length per line, '#' lines skipped (imb_p2p.c, "-msglen").
std::vector<std::uint64_t> read_msglen(const std::string& file) {
    std::ifstream in(file);
    if (!in) throw input_error("-msglen " + file + ": cannot open the file");
    std::vector<std::uint64_t> sizes;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (!line.empty() && line.front() == '#') continue;
        const auto x = parse_length(line);
        if (!x)
            throw input_error(fmt::format("-msglen {}: line {} '{}' is not a length (N, Nk, Nm "
                                          "or Ng)", file, number, line));
        sizes.push_back(checked_size("msglen", *x, file));
    }
    if (sizes.empty()) throw input_error("-msglen " + file + ": the file names no length");
    return sizes;
}

// IMB's words for true and false (imb_p2p.c is_true / is_false).
bool parse_switch(std::string_view option, const std::string& text) {
    std::string t = text;
    std::transform(t.begin(), t.end(), t.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    for (const char* w : {"1", "on", "enable", "yes", "true"})
        if (t == w) return true;
    for (const char* w : {"0", "off", "disable", "no", "false"})
        if (t == w) return false;
    throw input_error(fmt::format("-{} {}: expected 0, 1, false, true, disable, enable, off, on, "
                                  "no or yes", option, text));
}

// Validates the request's options; the same on every rank.
options parse_options(const run_request& request) {
    if (request.check)
        throw input_error("-check: IMB-P2P does not validate data, and suite imb-p2p neither");
    options o;
    int lists = 0;
    for (const auto& [name, value] : request.options) {
        if (name == "msgsz") {
            ++lists;
            for (const std::string& item : option_words(name, value)) {
                const auto x = parse_length(item);
                if (!x) throw input_error("-msgsz " + item + ": not a length (N, Nk, Nm or Ng)");
                o.sizes.push_back(checked_size(name, *x, item));
            }
            continue;
        }
        if (name == "list")  // a flag: no value
            throw input_error("-list: parbench lists every suite's benchmarks and their "
                              "descriptions with `parbench list`; a run does not");
        const std::string text = option_text(name, value);
        if (name == "msglog") {
            ++lists;
            o.sizes = parse_msglog(text);
        } else if (name == "msglen") {
            ++lists;
            o.sizes = read_msglen(text);
        } else if (name == "iter") {
            const auto comma = text.find(',');
            std::uint64_t max = 0;
            std::uint64_t mib = o.iterations.numerator >> 20;
            const bool ok = comma == std::string::npos
                                ? parse_unsigned(text, max)
                                : parse_unsigned(text.substr(0, comma), max) &&
                                      parse_unsigned(text.substr(comma + 1), mib);
            if (!ok || max == 0 || mib == 0 || max > INT_MAX || mib > INT_MAX)
                throw input_error("-iter " + text + ": expected MAX or MAX,NUMERATOR (MiB), "
                                  "whole numbers above 0");
            o.iterations = {.max = max, .numerator = mib << 20};
        } else if (name == "msgwr") {
            o.write_send = parse_switch(name, text);
        } else if (name == "msgrd") {
            o.read_recv = parse_switch(name, text);
        } else if (name == "pause") {
            if (!parse_int(text, o.pause_us))
                throw input_error("-pause " + text + ": expected microseconds (a whole number)");
        } else if (name == "time") {
            throw input_error("-time: IMB-P2P has no time limit; its repetitions follow -iter "
                              "only");
        } else if (name == "mem") {
            throw input_error("-mem: IMB-P2P has no memory limit; its buffers hold the sizes "
                              "asked for");
        } else if (name == "iter_policy") {
            throw input_error("-iter_policy: IMB-P2P has one repetition rule, -iter "
                              "MAX[,NUMERATOR]");
        } else {
            throw input_error("-" + name + ": not an option of suite imb-p2p");
        }
    }
    if (lists > 1) throw input_error("-msglog, -msglen and -msgsz: give one of them");
    if (lists == 0) o.sizes = parse_msglog("22");  // IMB_P2P_DEFAULT_MAX_MESSAGE_SIZE, 4 MiB
    return o;
}

constexpr parbench_parameter parameter_rows[] = {
    {"msglog", "N|K:N", "lengths 0, 1, 2, ..., 2^N, or 2^K, ..., 2^N", "22", PARBENCH_ARITY_ONE},
    {"msglen", "FILE", "lengths from a file, one per line (suffixes K, M, G)", nullptr,
     PARBENCH_ARITY_ONE},
    {"msgsz", "SIZE...", "these lengths (suffixes K, M, G)", nullptr, PARBENCH_ARITY_LIST},
    {"iter", "MAX[,NUMERATOR]", "iterations round(NUMERATOR MiB / X), at most MAX",
     "100000,800", PARBENCH_ARITY_ONE},
    {"msgwr", "BOOL", "write a byte of each cache line of a message before sending it", "true",
     PARBENCH_ARITY_ONE},
    {"msgrd", "BOOL", "read a byte of each cache line of a message after receiving it", "true",
     PARBENCH_ARITY_ONE},
    {"pause", "USEC", "sleep before and after each size's timing (< 0: none)", "100000",
     PARBENCH_ARITY_ONE},
    {"list", nullptr, "IMB-P2P's -list (imb_p2p.c:743-757): refused, `parbench list` shows the "
     "benchmarks", nullptr, PARBENCH_ARITY_FLAG},
    // IMB-MPI1's, which IMB-P2P does not have: declared so that the refusal can say why.
    {"time", "SECONDS", "IMB-MPI1's time limit: refused, IMB-P2P has none", nullptr,
     PARBENCH_ARITY_ONE},
    {"mem", "GB", "IMB-MPI1's memory limit: refused, IMB-P2P has none", nullptr,
     PARBENCH_ARITY_ONE},
    {"iter_policy", "POLICY", "IMB-MPI1's repetition policy: refused, IMB-P2P has none", nullptr,
     PARBENCH_ARITY_ONE},
};

// --- the kernels -----------------------------------------------------------------------------

// imb_p2p.h touch_send_buff / touch_recv_buff: one byte per 64-byte cache line, in the timing.
struct touch {
    bool write = true;
    bool read = true;
    std::size_t dummy = 0;

    void send(std::byte* p, std::size_t n) {
        if (!write) return;
        for (std::size_t k = 0; k < n; k += 64) p[k] = static_cast<std::byte>(dummy++);
    }
    void recv(const std::byte* p, std::size_t n) {
        if (!read) return;
        for (std::size_t k = 0; k < n; k += 64)
            dummy += static_cast<std::size_t>(static_cast<signed char>(p[k]));
    }
};

// imb_p2p.h get_next_random: IMB-P2P's generator, seeded 0 before the warm-up and the timing.
std::uint32_t next_random(std::uint64_t& seed) {
    seed = seed * 7560690468208412377ull + 4343336064253945357ull;
    return static_cast<std::uint32_t>(seed >> 24);
}

int random_rank(std::uint64_t& seed, int size) {
    return static_cast<int>(next_random(seed) % static_cast<std::uint32_t>(size));
}

// imb_p2p_pingpong.c: rank r and r + P/2; the lower half sends first.
struct ping_pong {
    touch t;
    void operator()(const mpi::kernel_context& c, std::uint64_t i, const auto& b) {
        const int n = static_cast<int>(c.bytes);
        const int half = c.size / 2;
        const int partner = (c.rank + half) % c.size;
        if (c.rank < half) {
            t.send(b.send(i), c.bytes);
            MPI_Send(b.send(i), n, MPI_BYTE, partner, 0, c.comm);
            MPI_Recv(b.recv(i), n, MPI_BYTE, partner, 0, c.comm, MPI_STATUS_IGNORE);
            t.recv(b.recv(i), c.bytes);
        } else {
            MPI_Recv(b.recv(i), n, MPI_BYTE, partner, 0, c.comm, MPI_STATUS_IGNORE);
            t.recv(b.recv(i), c.bytes);
            t.send(b.send(i), c.bytes);
            MPI_Send(b.send(i), n, MPI_BYTE, partner, 0, c.comm);
        }
    }
};

// imb_p2p_pingping.c: rank r and r + P/2, both at once.
struct ping_ping {
    touch t;
    void operator()(const mpi::kernel_context& c, std::uint64_t i, const auto& b) {
        const int n = static_cast<int>(c.bytes);
        const int partner = (c.rank + c.size / 2) % c.size;
        MPI_Request request = MPI_REQUEST_NULL;
        MPI_Irecv(b.recv(i), n, MPI_BYTE, partner, 0, c.comm, &request);
        t.send(b.send(i), c.bytes);
        MPI_Send(b.send(i), n, MPI_BYTE, partner, 0, c.comm);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
        t.recv(b.recv(i), c.bytes);
    }
};

// imb_p2p_unirandom.c / imb_p2p_birandom.c: P random pairs per iteration (IMB-P2P runs P x n
// steps); in each, the first sends to the second (Birandom: and the second to the first).
template <bool Both>
struct random_pairs {
    touch t;
    std::uint64_t seed = 0;
    void operator()(const mpi::kernel_context& c, std::uint64_t i, const auto& b) {
        if (i == 0) seed = 0;
        const int n = static_cast<int>(c.bytes);
        for (int step = 0; step < c.size; ++step) {
            const int from = random_rank(seed, c.size);
            int to = random_rank(seed, c.size);
            while (to == from) to = random_rank(seed, c.size);
            if (c.rank != from && c.rank != to) continue;
            const int other = c.rank == from ? to : from;
            if constexpr (Both) {
                MPI_Request request = MPI_REQUEST_NULL;
                MPI_Irecv(b.recv(i), n, MPI_BYTE, other, 0, c.comm, &request);
                t.send(b.send(i), c.bytes);
                MPI_Send(b.send(i), n, MPI_BYTE, other, 0, c.comm);
                MPI_Wait(&request, MPI_STATUS_IGNORE);
                t.recv(b.recv(i), c.bytes);
            } else if (c.rank == from) {
                t.send(b.send(i), c.bytes);
                MPI_Send(b.send(i), n, MPI_BYTE, other, 0, c.comm);
            } else {
                MPI_Recv(b.recv(i), n, MPI_BYTE, other, 0, c.comm, MPI_STATUS_IGNORE);
                t.recv(b.recv(i), c.bytes);
            }
        }
    }
};

// imb_p2p_corandom.c: each iteration shuffles a ring of all processes; each receives from its
// left and sends to its right.
struct corandom {
    touch t;
    std::uint64_t seed = 0;
    std::vector<int> ring;
    void operator()(const mpi::kernel_context& c, std::uint64_t i, const auto& b) {
        const auto size = static_cast<std::size_t>(c.size);
        if (i == 0) {
            seed = 0;
            ring.resize(size);
            std::iota(ring.begin(), ring.end(), 0);
        }
        for (std::size_t k = 0; k < size; ++k)
            std::swap(ring[k], ring[static_cast<std::size_t>(random_rank(seed, c.size))]);
        const auto at = static_cast<std::size_t>(
            std::find(ring.begin(), ring.end(), c.rank) - ring.begin());
        const int left = ring[(at + size - 1) % size];
        const int right = ring[(at + 1) % size];
        const int n = static_cast<int>(c.bytes);
        MPI_Request request = MPI_REQUEST_NULL;
        MPI_Irecv(b.recv(i), n, MPI_BYTE, left, 0, c.comm, &request);
        t.send(b.send(i), c.bytes);
        MPI_Send(b.send(i), n, MPI_BYTE, right, 0, c.comm);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
        t.recv(b.recv(i), c.bytes);
    }
};

// IMB-P2P's process grids: imb_p2p_stencil2d.c (x by y) and imb_p2p_stencil3d.c (x by y by z),
// x fastest; invalid unless every side is at least 2 and the product is P.
struct grid {
    int x = 0;
    int y = 0;
    int z = 1;
    [[nodiscard]] bool valid(int processes, bool three) const noexcept {
        return x >= 2 && y >= 2 && (!three || z >= 2) && x * y * z == processes;
    }
};

grid grid_2d(int n) {
    grid g{2, 2, 1};
    while (g.x * g.y < n) ++g.x, ++g.y;
    if (g.x * g.y > n) {
        while (g.y > 1 && n % g.y != 0) --g.y;
        g.x = n / g.y;
    }
    return g;
}

grid grid_3d(int n) {
    grid g{2, 2, 2};
    while (g.x * g.y * g.z < n) ++g.x, ++g.y, ++g.z;
    while (g.x * g.y * g.z > n) {
        --g.z;
        while (g.z > 1 && n % g.z != 0) --g.z;
        const grid plane = grid_2d(g.z != 0 ? n / g.z : 0);
        if (plane.y >= g.z) g.x = plane.x, g.y = plane.y;
    }
    return g;
}

// Stencil2D / Stencil3D: Irecv from and Isend to each neighbour (-x, +x, -y, +y, -z, +z, with
// wrap-around), then one Waitall; message k at offset k X of the iteration's buffers.
template <int Neighbours>
struct stencil {
    touch t;
    std::array<int, Neighbours> to{};
    void operator()(const mpi::kernel_context& c, std::uint64_t i, const auto& b) {
        const int n = static_cast<int>(c.bytes);
        std::array<MPI_Request, 2 * Neighbours> requests;
        for (std::size_t k = 0; k < to.size(); ++k) t.send(b.send(i) + k * c.bytes, c.bytes);
        for (std::size_t k = 0; k < to.size(); ++k)
            MPI_Irecv(b.recv(i) + k * c.bytes, n, MPI_BYTE, to[k], 0, c.comm, &requests[k]);
        for (std::size_t k = 0; k < to.size(); ++k)
            MPI_Isend(b.send(i) + k * c.bytes, n, MPI_BYTE, to[k], 0, c.comm,
                      &requests[Neighbours + k]);
        MPI_Waitall(2 * Neighbours, requests.data(), MPI_STATUSES_IGNORE);
        for (std::size_t k = 0; k < to.size(); ++k) t.recv(b.recv(i) + k * c.bytes, c.bytes);
    }
};

std::array<int, 6> neighbours(const grid& g, int rank) {
    const int z = rank / (g.x * g.y);
    const int y = (rank % (g.x * g.y)) / g.x;
    const int x = rank % g.x;
    const auto at = [&](int dx, int dy, int dz) {
        return g.x * g.y * ((z + dz + g.z) % g.z) + g.x * ((y + dy + g.y) % g.y) +
               (x + dx + g.x) % g.x;
    };
    return {at(-1, 0, 0), at(1, 0, 0), at(0, -1, 0), at(0, 1, 0), at(0, 0, -1), at(0, 0, 1)};
}

// imb_p2p_sendrecv_replace.c: MPI_Sendrecv_replace to r + 1, from r - 1. The buffer's cache
// lines are read once after each loop (:69, :77), not after each call: after the last of the
// size's `warmup` untimed iterations and after the last of its `timed` ones, inside the timing.
struct sendrecv_replace {
    touch t;
    std::uint64_t warmup = 0;
    std::uint64_t timed = 0;
    std::uint64_t done = 0;
    void operator()(const mpi::kernel_context& c, std::uint64_t i, const auto& b) {
        t.send(b.send(i), c.bytes);
        MPI_Sendrecv_replace(b.send(i), static_cast<int>(c.bytes), MPI_BYTE,
                             (c.rank + 1) % c.size, 0, (c.rank + c.size - 1) % c.size, 0, c.comm,
                             MPI_STATUS_IGNORE);
        ++done;
        if (done == warmup || done == warmup + timed) t.recv(b.send(i), c.bytes);
    }
};

// --- the family ------------------------------------------------------------------------------

// What differs between the benchmarks besides the kernel: the messages of one iteration per
// process for the figures (IMB's number_of_messages / n, after its division by 2: `msgs`), the
// divisor of the mean time (`per`: PingPong's half round trip), the buffers, who may run it.
enum class shape { pairs_even, any, grid_2d, grid_3d };

struct benchmark_spec {
    double msgs = 1.0;   // Mbytes/sec = msgs P X / t_max, Msg/sec = msgs P / t_max
    double per = 1.0;    // t = t_avg / per
    int buffers = 1;     // messages of X bytes in each of the send and receive buffers
    shape who = shape::any;
    // IMB-P2P's barrier between the warm-up and the timed loop: every benchmark's but
    // SendRecv_Replace's, which starts its clock right after its warm-up
    // (imb_p2p_sendrecv_replace.c:61-70; imb_p2p_pingpong.c:73, imb_p2p_pingping.c:73, ...)
    bool barrier_before_timing = true;
};

// IMB-P2P's synchronisation (imb_p2p.c:114-129, imb_p2p_barrier): ceil(log2 P) zero-byte
// MPI_Sendrecv to r + 2^k from r - 2^k, tag 1000, where parbench's runner calls MPI_Barrier
// twice. As the runner's sync policy it aligns the processes before the warm-up and before the
// timed loop; `enabled` false: neither (SendRecv_Replace, whose one barrier before the warm-up
// p2p_family::measure() makes itself).
struct p2p_barrier {
    bool enabled = true;
    template <class Comm>
    void before_timing(Comm& comm) const {
        if (enabled) comm.dissemination_barrier();
    }
};

constexpr pattern::exchange p2p_pattern{.nmsg = 1,
                                       .throughput = pattern::throughput_rule::none};

// A benchmark's pattern: its time divisor is `per`, so that every time figure of its records
// (t_min/t_max/t_avg, the median, the CI, the distribution) is per message like IMB-P2P's t[usec]
// — PingPong's half round trip, as imb-mpi1's PingPong.
constexpr pattern::exchange pattern_of(const benchmark_spec& spec) {
    pattern::exchange p = p2p_pattern;
    p.time_divisor = spec.per;
    return p;
}

// The benchmark's grid on P processes (z = 1 for 2-D), or x = 0 where it has none.
grid grid_of(shape who, int processes) {
    if (who == shape::grid_2d) return grid_2d(processes);
    if (who == shape::grid_3d) return grid_3d(processes);
    return {};
}

bool runs_on(shape who, int processes) {
    switch (who) {
        case shape::pairs_even: return processes >= 2 && processes % 2 == 0;
        case shape::any: return processes >= 2;
        case shape::grid_2d: return grid_2d(processes).valid(processes, false);
        case shape::grid_3d: return grid_3d(processes).valid(processes, true);
    }
    return false;
}

// IMB-P2P's title of a table: "Stencil2D (2 x 2)" (y x x), "Stencil3D (2 x 2 x 2)" (z x y x x).
std::string title_of(std::string_view name, shape who, int processes) {
    const grid g = grid_of(who, processes);
    if (who == shape::grid_2d) return fmt::format("{} ({} x {})", name, g.y, g.x);
    if (who == shape::grid_3d) return fmt::format("{} ({} x {} x {})", name, g.z, g.y, g.x);
    return std::string(name);
}

struct run_state {
    const options* opts = nullptr;
    const plugin::host_channel* host = nullptr;
    int world = 1;
};

void pause_for(const options& o) {
    if (o.pause_us >= 0) ::usleep(static_cast<useconds_t>(o.pause_us));
}

// The family for mpi::sweep(): one active set, every process; the run's sizes in their order;
// per size IMB-P2P's pause, its iteration rule and the kernel; each record with IMB-P2P's
// figures: t_usec as a metric, Mbytes/sec and Msg/sec as its message_rates.
template <class Kernel>
struct p2p_family {
    const run_state& run;
    std::string_view name;
    benchmark_spec spec;

    struct count {
        mpi::session session;
    };

    [[nodiscard]] std::vector<int> process_counts() const { return {run.world}; }
    [[nodiscard]] const std::vector<std::uint64_t>& sizes() const { return run.opts->sizes; }
    [[nodiscard]] count open(int q) const { return {mpi::session(MPI_COMM_WORLD, q)}; }
    void progress(const count& /*c*/, std::uint64_t x) const {
        run.host->progress(name, x, run.world);
    }
    [[nodiscard]] Kernel make_kernel(const mpi::kernel_context& context) const {
        Kernel k{};
        k.t = {.write = run.opts->write_send, .read = run.opts->read_recv};
        if constexpr (requires { k.to; }) {
            const auto all = neighbours(grid_of(spec.who, context.size), context.rank);
            std::copy_n(all.begin(), k.to.size(), k.to.begin());
        }
        if constexpr (requires { k.timed; }) {  // the runner's counts are IMB-P2P's get_iters
            k.warmup = run.opts->iterations.warmup(context.bytes);
            k.timed = run.opts->iterations.n_sample(context.bytes);
        }
        return k;
    }
    [[nodiscard]] mpi::measurement measure(const count& c, std::uint64_t x) const {
        const auto bytes = static_cast<std::size_t>(x);
        const auto each = static_cast<std::size_t>(spec.buffers) * bytes;
        // IMB-P2P per size: pause, barrier, warm-up, barrier (not SendRecv_Replace's), timed
        // loop, pause, barrier (e.g. imb_p2p_pingping.c:64-84).
        pause_for(*run.opts);
        if (!spec.barrier_before_timing) mpi::dissemination_barrier(MPI_COMM_WORLD);
        mpi::measurement m = mpi::measure(
            c.session,
            mpi::measure_config{
                .pattern = pattern_of(spec),
                .labels = {.suite = "imb-p2p", .benchmark = std::string(name)},
                .bytes = x,
                .resource = mpi::messages{.layout = {each, each}},
                .kernel = make_kernel(c.session.context(bytes)),
                .plan = mpi::timing_plan<p2p_iterations, p2p_barrier>{
                    .iterations = run.opts->iterations,
                    .sync = {.enabled = spec.barrier_before_timing}}});
        pause_for(*run.opts);
        mpi::dissemination_barrier(MPI_COMM_WORLD);
        return m;
    }
    void publish(const count& /*c*/, result_record& r) const {
        const double scale = spec.msgs * static_cast<double>(run.world);
        // The record's times are per message (pattern_of); IMB-P2P's rates divide by the slowest
        // process's time per iteration.
        const double t_iteration_max_us = r.t_max_us * spec.per;
        const double mbytes = t_iteration_max_us > 0.0
                                  ? scale * static_cast<double>(r.bytes) / t_iteration_max_us
                                  : 0.0;
        r.block.title = title_of(name, spec.who, run.world);
        r.metrics["t_usec"] = r.t_avg_us;
        r.message_rates = message_rate_figures{
            .mbytes_per_s = mbytes,
            .messages_per_s = t_iteration_max_us > 0.0 ? scale * 1e6 / t_iteration_max_us : 0.0};
        r.throughput_mib_s = mbytes / 1.048576;
        run.host->result(r);
    }
    void close(const count& /*c*/, const mpi::size_notes& notes) const {
        if (notes.allocation_failed)
            run.host->warning(fmt::format("{}: some sizes not run: a process could not allocate "
                                          "its message buffers", name));
    }
};

template <class Kernel>
void run_benchmark(const run_state& st, std::string_view name, const benchmark_spec& spec) {
    mpi::sweep(p2p_family<Kernel>{.run = st, .name = name, .spec = spec});
}

// --- the suite -------------------------------------------------------------------------------

struct benchmark {
    parbench_benchmark info;
    benchmark_spec spec;
    void (*run)(const run_state&, std::string_view, const benchmark_spec&);
};

constexpr std::uint32_t all = PARBENCH_BENCH_DEFAULT;
constexpr auto klass = p2p_pattern.klass;

// IMB-P2P's benchmarks, in its order (imb_p2p.c initialization()).
constexpr benchmark catalogue[] = {
    {plugin::catalogue_row("PingPong", "Rank r and r+P/2 send a message back and forth", klass,
                           all),
     {.msgs = 1, .per = 2, .who = shape::pairs_even}, &run_benchmark<ping_pong>},
    {plugin::catalogue_row("PingPing", "Rank r and r+P/2 send to each other at once", klass, all),
     {.who = shape::pairs_even}, &run_benchmark<ping_ping>},
    {plugin::catalogue_row("Unirandom", "P random pairs per iteration, one message each", klass,
                           all),
     {}, &run_benchmark<random_pairs<false>>},
    {plugin::catalogue_row("Birandom", "P random pairs per iteration, a message each way", klass,
                           all),
     {.msgs = 2, .per = 2}, &run_benchmark<random_pairs<true>>},
    {plugin::catalogue_row("Corandom", "A random ring per iteration: receive left, send right",
                           klass, all),
     {}, &run_benchmark<corandom>},
    {plugin::catalogue_row("Stencil2D", "Exchange with 4 neighbours on a periodic 2-D grid",
                           klass, all),
     {.msgs = 4, .per = 4, .buffers = 4, .who = shape::grid_2d}, &run_benchmark<stencil<4>>},
    {plugin::catalogue_row("Stencil3D", "Exchange with 6 neighbours on a periodic 3-D grid",
                           klass, all),
     {.msgs = 6, .per = 6, .buffers = 6, .who = shape::grid_3d}, &run_benchmark<stencil<6>>},
    {plugin::catalogue_row("SendRecv_Replace", "MPI_Sendrecv_replace to r+1 from r-1", klass,
                           all),
     {.barrier_before_timing = false}, &run_benchmark<sendrecv_replace>},
};

constexpr std::array<parbench_benchmark, std::size(catalogue)> benchmark_rows = [] {
    std::array<parbench_benchmark, std::size(catalogue)> rows{};
    for (std::size_t n = 0; n < rows.size(); ++n) rows[n] = catalogue[n].info;
    return rows;
}();

// The benchmarks a request names, in its order (imb_p2p.c runs them as named), each once; all
// of them, in IMB-P2P's order, without names.
std::vector<const benchmark*> selected(const run_request& request) {
    std::vector<const benchmark*> out;
    if (request.benchmarks.empty()) {
        for (const benchmark& b : catalogue) out.push_back(&b);
        return out;
    }
    for (const std::string& n : request.benchmarks) {
        const auto* b = std::find_if(std::begin(catalogue), std::end(catalogue),
                                     [&](const benchmark& c) { return same_name(n, c.info.name); });
        if (b == std::end(catalogue))
            throw input_error("suite imb-p2p has no benchmark '" + n + "'");
        if (std::find(out.begin(), out.end(), b) == out.end()) out.push_back(b);
    }
    return out;
}

// Why a benchmark cannot run on P processes.
std::string needs(const benchmark& b, int processes) {
    switch (b.spec.who) {
        case shape::pairs_even:
            return fmt::format("{} pairs rank r with r+P/2 and needs an even number of processes, "
                               "at least 2; the run has {}", b.info.name, processes);
        case shape::any:
            return fmt::format("{} needs at least 2 processes; the run has {}", b.info.name,
                               processes);
        case shape::grid_2d:
            return fmt::format("{} needs P = x y processes with x, y >= 2 (4, 6, 8, 9, ...); the "
                               "run has {}", b.info.name, processes);
        case shape::grid_3d:
            return fmt::format("{} needs P = x y z processes with x, y, z >= 2 (8, 12, 16, ...) "
                               "by IMB-P2P's factoring; the run has {}", b.info.name, processes);
    }
    return {};
}

run_start make_run_start(const options& o, const std::vector<const benchmark*>& chosen,
                         int world) {
    int thread_level = MPI_THREAD_SINGLE;
    MPI_Query_thread(&thread_level);
    const auto clock = measure_clock(mpi::wtime_clock{});
    std::vector<std::string> names;
    for (const benchmark* b : chosen) names.emplace_back(b->info.name);
    run_start start;
    start.suite = "imb-p2p";
    start.layout = "imb-p2p";
    start.title = "parbench " PARBENCH_PLUGIN_VERSION
                  ", IMB-P2P part (Intel(R) MPI Benchmarks 2021.11 methodology)";
    start.benchmarks = names;
    start.header = report::imb_header{
        .mpi_version = mpi::standard_version(),
        // IMB-P2P prints the label alone (imb_p2p.c:234: MPI_Init, no level asked); the level
        // is the context's thread_level
        .mpi_thread_environment = {},
        .min_bytes = *std::min_element(o.sizes.begin(), o.sizes.end()),
        .max_bytes = *std::max_element(o.sizes.begin(), o.sizes.end()),
        .benchmark_list = names};
    const std::vector<column> columns = {{"t_usec", "t[usec]"},
                                         {"mbytes_per_s", "Mbytes/sec"},
                                         {"messages_per_s", "Msg/sec", 0}};
    for (const std::string& n : names) start.columns[n] = columns;
    start.context =
        report::mpi_suite_context{.mpi_library = mpi::library_version(), .processes = world};
    start.context.update({{"thread_level", std::string(mpi::thread_level_name(thread_level))},
                          {"timer", "MPI_Wtime"},
                          {"options",
                           {{"sizes", o.sizes},
                            {"iter_max", o.iterations.max},
                            {"iter_numerator_bytes", o.iterations.numerator},
                            {"msgwr", o.write_send},
                            {"msgrd", o.read_recv},
                            {"pause_us", o.pause_us}}}});
    start.context.update(nlohmann::json(report::timer_limits::of(clock)));
    return start;
}

void run(const run_request& request, const plugin::host_channel& host) {
    int world = 1;
    int rank = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const options o = parse_options(request);
    const std::vector<const benchmark*> chosen = selected(request);
    if (world < 2)
        throw input_error("suite imb-p2p needs at least 2 processes (every benchmark of IMB-P2P "
                          "does); the run has 1 (mpiexec -n 2 or more)");
    // A benchmark named on the command line must run; one of the defaults that cannot is
    // skipped with IMB-P2P's line.
    if (!request.benchmarks.empty())
        for (const benchmark* b : chosen)
            if (!runs_on(b->spec.who, world)) throw input_error(needs(*b, world));
    const run_state st{.opts = &o, .host = &host, .world = world};
    if (rank == 0) host.run_started(make_run_start(o, chosen, world));
    for (const benchmark* b : chosen) {
        if (runs_on(b->spec.who, world))
            b->run(st, b->info.name, b->spec);
        else if (rank == 0)
            host.note(fmt::format("!! Benchmark {} is invalid for {} processes !!", b->info.name,
                                  world));
    }
    mpi::dissemination_barrier(MPI_COMM_WORLD);  // imb_p2p.c:630, before the footer
}

const parbench_suite& info() {
    static const parbench_suite s = {
        "imb-p2p",
        "IMB-P2P (IMB 2021): point-to-point patterns on every process at once",
        benchmark_rows.data(),
        benchmark_rows.size(),
        parameter_rows,
        std::size(parameter_rows),
        PARBENCH_SUITE_NEEDS_MPI};
    return s;
}

}  // namespace
}  // namespace imb_p2p_impl
}  // namespace parbench::imb_p2p

namespace parbench::mpi_plugin {
const hosted_suite suites::imb_p2p = {imb_p2p::imb_p2p_impl::info(),
                                      &imb_p2p::imb_p2p_impl::run};
}  // namespace parbench::mpi_plugin
