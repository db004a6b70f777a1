// imb-mt: the IMB-MT component of Intel(R) MPI Benchmarks 2021.11 (src_cpp/MT/): PingPongMT,
// PingPingMT, SendRecvMT, ExchangeMT, UniBandMT, BiBandMT, BarrierMT, BcastMT, ReduceMT and
// AllReduceMT run by T threads in every process at once, each thread with its own duplicate of
// MPI_COMM_WORLD (MT_types.h duplicate_comm), its own buffers and its own timed loop; the figures
// are reduced over every (process, thread) that took part (MT_benchmark.h run()):
//
//   #bytes #repetitions t_min[usec] t_max[usec] t_avg[usec] Mbytes/sec        (point-to-point)
//   #bytes #repetitions t_avg[usec] Mbytes/sec Msg/sec                        (UniBand, BiBand)
//   [#bytes] #repetitions t_min[usec] t_max[usec] t_avg[usec]                 (collectives)
//
// where #bytes is count x the datatype's size x T (IMB-MT's weak-scaling total), a time is one
// thread's loop over -repeat iterations divided by -repeat and the benchmark's divisor, and
// Mbytes/sec is 10^6 bytes per second. The threads are a fixed team of std::thread (no OpenMP):
// their number is OMP_NUM_THREADS under MPI_THREAD_MULTIPLE (-thread_level multiple), as IMB-MT's
// omp_get_num_threads(); one by default, as IMB-MT's default -thread_level single.
// docs/imb-mt.md lists what differs from IMB-MT on purpose.
#include "suites/suite.hpp"

#include <parbench/core/clock.hpp>
#include <parbench/core/error.hpp>
#include <parbench/core/names.hpp>
#include <parbench/core/options.hpp>
#include <parbench/core/text.hpp>
#include <parbench/mpi/environment.hpp>
#include <parbench/mpi/node.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/mpi/sweep.hpp>
#include <parbench/pattern/exchange.hpp>
#include <parbench/plugin/catalogue_row.hpp>
#include <parbench/policy/aggregation.hpp>
#include <parbench/report/imb_header.hpp>
#include <parbench/report/mpi_suite_context.hpp>
#include <parbench/report/stability.hpp>

#include <fmt/format.h>
#include <mpi.h>
#include <sched.h>

#include <algorithm>
#include <barrier>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

#ifndef PARBENCH_PLUGIN_VERSION
#define PARBENCH_PLUGIN_VERSION "0.0.0"
#endif

namespace parbench::mpi_plugin {
namespace imb_mt_impl {
namespace {

// --- options ---------------------------------------------------------------------------------

enum class barrier_kind { off, on, special };        // MT_types.h barropt_t
enum class malloc_kind { serial, continuous, parallel };  // MT_types.h malopt_t

struct options {
    std::vector<int> counts{1, 2, 4, 8};  // -count, elements of -datatype per thread
    int repeat = 1000;                    // -repeat
    int warmup = 100;                     // -warmup
    int window_size = 64;                 // -window_size
    barrier_kind barrier = barrier_kind::on;
    int malloc_align = 64;
    malloc_kind malloc_algo = malloc_kind::serial;
    bool int_type = true;  // -datatype int (MPI_INT) or char (MPI_CHAR)
    int stride = 0;        // -stride; 0: P/2
    bool check = false;
    std::vector<std::string> input_names;  // -input FILE
    std::vector<std::string> include;      // -include A,B (imb.cpp:98-101)
    std::vector<std::string> exclude;      // -exclude A,B
};

int parse_int_option(std::string_view name, const std::string& text, int least) {
    int value = 0;
    if (!parse_unsigned(text, value) || value < least)
        throw input_error(fmt::format("-{} {}: expected a whole number, at least {}", name, text,
                                      least));
    return value;
}

// The names of a list option or of the positional words, IMB's comma lists split
// ("PingPongMT,BcastMT": args_parser's vectors, imb.cpp:98-105); an empty name is refused.
std::vector<std::string> name_list(std::string_view what, const std::vector<std::string>& words) {
    std::vector<std::string> names;
    for (const std::string& word : words)
        for (std::string& name : split_commas(word)) {
            if (name.empty())
                throw input_error(fmt::format("{} '{}': an empty benchmark name", what, word));
            names.push_back(std::move(name));
        }
    return names;
}

// -input FILE: one benchmark name per line, '#' lines skipped (imb.cpp, "-input").
std::vector<std::string> read_input(const std::string& file) {
    std::ifstream in(file);
    if (!in) throw input_error("-input " + file + ": cannot open the file");
    std::vector<std::string> names;
    std::string line;
    while (std::getline(in, line)) {
        const auto word = trim(line);
        if (word.empty() || word.front() == '#') continue;
        names.emplace_back(word.substr(0, word.find_first_of(" \t")));
    }
    return names;
}

options parse_options(const run_request& request) {
    options o;
    o.check = request.check;
    for (const auto& [name, value] : request.options) {
        if (name == "count") {
            o.counts.clear();
            for (const std::string& word : option_words(name, value))
                for (const std::string& item : split_commas(word))
                    o.counts.push_back(parse_int_option(name, item, 0));
            continue;
        }
        if (name == "include" || name == "exclude") {
            (name == "include" ? o.include : o.exclude) =
                name_list("-" + name, option_words(name, value));
            continue;
        }
        if (name == "noheader")
            throw input_error("-noheader: parbench's console always prints its run header "
                              "(IMB-MT's -noheader drops its four-line banner, "
                              "MT_suite.cpp:179-184); --quiet prints no console tables");
        if (name == "list")
            throw input_error("-list: `parbench list imb-mt` lists the benchmarks; a run does "
                              "not");
        const std::string text = option_text(name, value);
        if (name == "repeat") {
            o.repeat = parse_int_option(name, text, 1);
        } else if (name == "warmup") {
            o.warmup = parse_int_option(name, text, 0);
        } else if (name == "window_size") {
            o.window_size = parse_int_option(name, text, 1);
        } else if (name == "malloc_align") {
            o.malloc_align = parse_int_option(name, text, 1);
        } else if (name == "stride") {
            o.stride = parse_int_option(name, text, 0);
        } else if (name == "barrier") {
            if (text == "on") o.barrier = barrier_kind::on;
            else if (text == "off") o.barrier = barrier_kind::off;
            else if (text == "special") o.barrier = barrier_kind::special;
            else throw input_error("-barrier " + text + ": expected on, off or special");
        } else if (name == "malloc_algo") {
            if (text == "serial") o.malloc_algo = malloc_kind::serial;
            else if (text == "continuous") o.malloc_algo = malloc_kind::continuous;
            else if (text == "parallel") o.malloc_algo = malloc_kind::parallel;
            else throw input_error("-malloc_algo " + text +
                                   ": expected serial, continuous or parallel");
        } else if (name == "datatype") {
            if (text == "int") o.int_type = true;
            else if (text == "char") o.int_type = false;
            else throw input_error("-datatype " + text + ": expected int or char");
        } else if (name == "input") {
            o.input_names = read_input(text);
        } else if (name == "thread_level") {
            (void)mpi::parse_thread_level(text);  // the host initialises MPI at this level
        } else {
            throw input_error("-" + name + ": not an option of suite imb-mt");
        }
    }
    if (o.counts.empty()) throw input_error("-count: give at least one element count");
    // MT_suite.cpp prepare(): "Only int data type is supported with check option".
    if (o.check && !o.int_type)
        throw input_error("-check: IMB-MT checks -datatype int only (-datatype char given)");
    return o;
}

constexpr parbench_parameter parameter_rows[] = {
    {"count", "N[,N...]", "elements of -datatype per thread and message", "1,2,4,8",
     PARBENCH_ARITY_LIST},
    {"repeat", "N", "timed iterations per size", "1000", PARBENCH_ARITY_ONE},
    {"warmup", "N", "untimed iterations before them", "100", PARBENCH_ARITY_ONE},
    {"window_size", "N", "messages in flight per iteration (UniBandMT, BiBandMT)", "64",
     PARBENCH_ARITY_ONE},
    {"barrier", "on|off|special", "barrier before a timed loop and after each collective call",
     "on", PARBENCH_ARITY_ONE},
    {"malloc_align", "BYTES", "alignment of each thread's buffers", "64", PARBENCH_ARITY_ONE},
    {"malloc_algo", "serial|continuous|parallel",
     "buffers allocated by the main thread, as one block, or by each thread", "serial",
     PARBENCH_ARITY_ONE},
    {"datatype", "int|char", "the element type (MPI_INT or MPI_CHAR)", "int", PARBENCH_ARITY_ONE},
    {"stride", "S", "point-to-point partner: rank r +/- S (0: P/2)", "0", PARBENCH_ARITY_ONE},
    {"input", "FILE", "benchmark names from a file, one per line", nullptr, PARBENCH_ARITY_ONE},
    {"include", "NAME[,NAME...]", "benchmarks to run first, before those named or the defaults",
     nullptr, PARBENCH_ARITY_LIST},
    {"exclude", "NAME[,NAME...]", "benchmarks not to run", nullptr, PARBENCH_ARITY_LIST},
    {"noheader", nullptr, "IMB-MT's -noheader: refused, parbench always prints its header",
     nullptr, PARBENCH_ARITY_FLAG},
    {"list", nullptr, "IMB 2021's -list: refused, `parbench list imb-mt` shows the benchmarks",
     nullptr, PARBENCH_ARITY_FLAG},
    {"thread_level", "single|funneled|serialized|multiple",
     "MPI_Init_thread level; OMP_NUM_THREADS threads under multiple, one otherwise", "single",
     PARBENCH_ARITY_ONE},
};

// --- the threads -----------------------------------------------------------------------------

// How many threads each process runs: OMP_NUM_THREADS (its first value) when MPI provides
// MPI_THREAD_MULTIPLE, as IMB-MT's omp_get_num_threads() inside `omp parallel` (MT_suite.cpp
// prepare()); without it the CPUs this process may run on, libgomp's default. One thread on
// MPI_COMM_WORLD otherwise (IMB-MT's mode_multiple = 0).
struct thread_count {
    int threads = 1;
    std::string source;  // "OMP_NUM_THREADS", "CPUs", "thread level"
};

thread_count threads_of(bool multiple) {
    if (!multiple) return {1, "thread level"};
    const char* env = std::getenv("OMP_NUM_THREADS");
    if (env != nullptr && *env != '\0') {
        const std::string first = split_commas(env).front();
        int n = 0;
        if (!parse_unsigned(first, n) || n < 1)
            throw input_error(fmt::format("OMP_NUM_THREADS={}: expected a whole number of "
                                          "threads, at least 1", env));
        return {n, "OMP_NUM_THREADS"};
    }
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    const int n = sched_getaffinity(0, sizeof(cpus), &cpus) == 0 ? CPU_COUNT(&cpus) : 1;
    return {std::max(1, n), "CPUs"};
}

// A fixed team of threads for the whole run, like an OpenMP team: run(job) calls job(t) for t in
// [0, T), t = 0 on the calling thread, and returns when every thread has finished; barrier() is
// the team's `omp barrier`. Made before any measurement, so that a thread that cannot start is
// known before a process enters a collective call.
class thread_team {
public:
    explicit thread_team(int size) : sync_(size) {
        workers_.reserve(static_cast<std::size_t>(size - 1));
        try {
            for (int t = 1; t < size; ++t) workers_.emplace_back([this, t] { serve(t); });
        } catch (...) {
            stop();
            throw;
        }
    }
    thread_team(const thread_team&) = delete;
    thread_team& operator=(const thread_team&) = delete;
    ~thread_team() { stop(); }

    [[nodiscard]] int size() const noexcept { return static_cast<int>(workers_.size()) + 1; }

    void run(const std::function<void(int)>& job) {
        {
            std::lock_guard lock(mutex_);
            job_ = &job;
            pending_ = size() - 1;
            error_ = nullptr;
            ++generation_;
        }
        start_.notify_all();
        std::exception_ptr mine;
        try {
            job(0);
        } catch (...) {
            mine = std::current_exception();
        }
        std::unique_lock lock(mutex_);
        done_.wait(lock, [this] { return pending_ == 0; });
        job_ = nullptr;
        if (mine) std::rethrow_exception(mine);
        if (error_) std::rethrow_exception(error_);
    }

    void barrier() { sync_.arrive_and_wait(); }

private:
    void serve(int t) {
        std::uint64_t seen = 0;
        while (true) {
            const std::function<void(int)>* job = nullptr;
            {
                std::unique_lock lock(mutex_);
                start_.wait(lock, [&] { return stopping_ || generation_ != seen; });
                if (stopping_) return;
                seen = generation_;
                job = job_;
            }
            std::exception_ptr failure;
            try {
                (*job)(t);
            } catch (...) {
                failure = std::current_exception();
            }
            std::lock_guard lock(mutex_);
            if (failure && !error_) error_ = failure;
            if (--pending_ == 0) done_.notify_one();
        }
    }

    void stop() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        start_.notify_all();
        for (std::thread& w : workers_)
            if (w.joinable()) w.join();
    }

    std::barrier<> sync_;
    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable start_;
    std::condition_variable done_;
    const std::function<void(int)>* job_ = nullptr;
    std::uint64_t generation_ = 0;
    int pending_ = 0;
    bool stopping_ = false;
    std::exception_ptr error_;
};

// Each thread's communicator: a duplicate of MPI_COMM_WORLD with info thread_id = t under
// MPI_THREAD_MULTIPLE (MT_types.h duplicate_comm), MPI_COMM_WORLD itself otherwise. Freed with
// the run.
class thread_comms {
public:
    thread_comms(int threads, bool multiple) {
        for (int t = 0; t < threads; ++t) {
            if (!multiple) {
                comms_.push_back(MPI_COMM_WORLD);
                continue;
            }
            MPI_Comm dup = MPI_COMM_NULL;
            MPI_Comm_dup(MPI_COMM_WORLD, &dup);
            MPI_Info info = MPI_INFO_NULL;
            MPI_Info_create(&info);
            MPI_Info_set(info, "thread_id", std::to_string(t).c_str());
            MPI_Comm_set_info(dup, info);
            MPI_Info_free(&info);
            comms_.push_back(dup);
            owned_ = true;
        }
    }
    thread_comms(const thread_comms&) = delete;
    thread_comms& operator=(const thread_comms&) = delete;
    ~thread_comms() {
        if (owned_)
            for (MPI_Comm& c : comms_) MPI_Comm_free(&c);
    }
    [[nodiscard]] MPI_Comm of(int t) const { return comms_[static_cast<std::size_t>(t)]; }

private:
    std::vector<MPI_Comm> comms_;
    bool owned_ = false;
};

// --- the kernels -----------------------------------------------------------------------------

// What one thread's iteration knows (IMB-MT's fn_ptr arguments and input_benchmark_data).
struct thread_context {
    MPI_Comm comm = MPI_COMM_NULL;
    int rank = 0;
    int size = 1;
    int stride = 0;  // after MT_benchmark.cpp set_stride(): P/2 for 0
    int group = 0;   // rank / stride
    int count = 0;
    MPI_Datatype type = MPI_INT;
    std::byte* in = nullptr;
    std::byte* out = nullptr;
    std::byte* out2 = nullptr;  // ExchangeMT's second receive
    int window = 0;
    MPI_Request* requests = nullptr;  // 2 x window
    thread_team* team = nullptr;
    bool multiple = false;

    [[nodiscard]] bool lower() const noexcept { return group % 2 == 0; }
    [[nodiscard]] int partner() const noexcept { return lower() ? rank + stride : rank - stride; }
    [[nodiscard]] int right() const noexcept { return (rank + stride) % size; }
    [[nodiscard]] int left() const noexcept { return (rank + size - stride) % size; }
};

// MT_benchmark.cpp set_stride(): the partner at rank +/- stride exists for this rank (the
// processes past the last whole block of 2 x stride sit out).
bool set_stride(int rank, int size, int& stride, int& group) {
    if (stride == 0) stride = size / 2;
    if (stride <= 0 || stride > size / 2) return false;
    group = rank / stride;
    return !(group / 2 == size / (2 * stride) && size % (2 * stride) != 0);
}

// One iteration of each benchmark, as in MT_benchmark.cpp (tag 0, the explicit source).
void ping_pong(const thread_context& c) {  // mt_pt2pt<true, 0>
    const int peer = c.partner();
    if (c.lower()) {
        MPI_Send(c.in, c.count, c.type, peer, 0, c.comm);
        MPI_Recv(c.out, c.count, c.type, peer, 0, c.comm, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(c.out, c.count, c.type, peer, 0, c.comm, MPI_STATUS_IGNORE);
        MPI_Send(c.in, c.count, c.type, peer, 0, c.comm);
    }
}

void ping_ping(const thread_context& c) {  // mt_ipt2pt<true, 0>
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Isend(c.in, c.count, c.type, c.partner(), 0, c.comm, &request);
    MPI_Recv(c.out, c.count, c.type, c.partner(), 0, c.comm, MPI_STATUS_IGNORE);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
}

void send_recv(const thread_context& c) {  // mt_sendrecv<true, 0>
    MPI_Sendrecv(c.in, c.count, c.type, c.right(), 0, c.out, c.count, c.type, c.left(), 0,
                 c.comm, MPI_STATUS_IGNORE);
}

void exchange(const thread_context& c) {  // mt_exchange
    MPI_Request requests[2];
    MPI_Isend(c.in, c.count, c.type, c.left(), 0, c.comm, &requests[0]);
    MPI_Isend(c.in, c.count, c.type, c.right(), 0, c.comm, &requests[1]);
    MPI_Recv(c.out, c.count, c.type, c.left(), 0, c.comm, MPI_STATUS_IGNORE);
    MPI_Recv(c.out2, c.count, c.type, c.right(), 0, c.comm, MPI_STATUS_IGNORE);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
}

void uni_band(const thread_context& c) {  // mt_uniband<true, 0>: a window, then a 1-char ack
    char ack = 0;
    const int peer = c.partner();
    if (c.lower()) {
        for (int w = 0; w < c.window; ++w)
            MPI_Isend(c.in, c.count, c.type, peer, 0, c.comm, &c.requests[w]);
        MPI_Waitall(c.window, c.requests, MPI_STATUSES_IGNORE);
        MPI_Recv(&ack, 1, MPI_CHAR, peer, 0, c.comm, MPI_STATUS_IGNORE);
    } else {
        for (int w = 0; w < c.window; ++w)
            MPI_Irecv(c.out, c.count, c.type, peer, 0, c.comm, &c.requests[w]);
        MPI_Waitall(c.window, c.requests, MPI_STATUSES_IGNORE);
        MPI_Send(&ack, 1, MPI_CHAR, peer, 0, c.comm);
    }
}

void bi_band(const thread_context& c) {  // mt_biband<true, 0>
    char ack = 0;
    const int peer = c.partner();
    for (int w = 0; w < c.window; ++w)
        MPI_Irecv(c.out, c.count, c.type, peer, 0, c.comm, &c.requests[w]);
    for (int w = 0; w < c.window; ++w)
        MPI_Isend(c.in, c.count, c.type, peer, 0, c.comm, &c.requests[c.window + w]);
    MPI_Waitall(2 * c.window, c.requests, MPI_STATUSES_IGNORE);
    if (c.lower())
        MPI_Recv(&ack, 1, MPI_CHAR, peer, 0, c.comm, MPI_STATUS_IGNORE);
    else
        MPI_Send(&ack, 1, MPI_CHAR, peer, 0, c.comm);
}

void barrier_call(const thread_context& c) {  // mt_barrier: the team's barrier is timed too
    if (c.multiple) c.team->barrier();
    MPI_Barrier(c.comm);
}

void bcast(const thread_context& c) {  // mt_bcast, root 0
    MPI_Bcast(c.rank == 0 ? c.in : c.out, c.count, c.type, 0, c.comm);
}

void reduce(const thread_context& c) {  // mt_reduce, MPI_SUM to root 0
    MPI_Reduce(c.in, c.out, c.count, c.type, MPI_SUM, 0, c.comm);
}

void all_reduce(const thread_context& c) {  // mt_allreduce, MPI_SUM
    MPI_Allreduce(c.in, c.out, c.count, c.type, MPI_SUM, c.comm);
}

// --- -check: IMB-MT's INIT_ARRAY / CHECK_ARRAY values (int elements only) --------------------

int* ints(std::byte* p) { return reinterpret_cast<int*>(p); }

// Element k of a process's send buffer: (rank + 1) k; BcastMT's root sends k.
int sent_value(std::int64_t rank_plus_one, int k) {
    return static_cast<int>(static_cast<std::uint32_t>(rank_plus_one * k));
}

std::uint64_t count_unlike(const std::byte* p, int count, const std::function<int(int)>& want) {
    std::uint64_t defects = 0;
    const int* v = reinterpret_cast<const int*>(p);
    for (int k = 0; k < count; ++k)
        if (v[k] != want(k)) ++defects;
    return defects;
}

// --- the definitions -------------------------------------------------------------------------

// How a benchmark is timed: pt2pt (one loop of -repeat iterations after -warmup and one barrier,
// MT_benchmark.h run_instance()), collective (each call timed on its own, five barriers after
// it, MT_CYCLE_END), barrier (each call timed, no barrier after it, MT_CYCLE_END_NOBARRIER).
enum class timing { loop, each_call, each_call_no_barrier };
// Who takes part: pairs at rank +/- stride (those set_stride() leaves out sit out), a ring
// (SendRecvMT, ExchangeMT ignore set_stride()'s verdict), everyone.
enum class members { pairs, ring, all };
// IMB-MT's columns (MT_benchmark.cpp init_flags).
enum class figures { times_bandwidth, window_rates, times, times_no_bytes };

struct definition {
    void (*kernel)(const thread_context&);
    timing how = timing::loop;
    members who = members::all;
    figures out = figures::times;
    double divisor = 1.0;          // TIME_DIVIDE_BY_2
    bool window = false;           // TIME_DIVIDE_BY_WINDOW_SIZE, and the window's requests
    double bandwidth_factor = 1;   // SCALE_BW_TWICE / SCALE_BW_FOUR
    bool two_receives = false;     // RECV_FROM_2
    // -check: the values this thread's receive buffers must hold after the loop.
    std::uint64_t (*verify)(const thread_context&) = nullptr;
};

std::uint64_t verify_partner(const thread_context& c) {
    return count_unlike(c.out, c.count, [&](int k) { return sent_value(c.partner() + 1, k); });
}
std::uint64_t verify_left(const thread_context& c) {
    return count_unlike(c.out, c.count, [&](int k) { return sent_value(c.left() + 1, k); });
}
std::uint64_t verify_both(const thread_context& c) {
    return verify_left(c) +
           count_unlike(c.out2, c.count, [&](int k) { return sent_value(c.right() + 1, k); });
}
std::uint64_t verify_uniband(const thread_context& c) {
    return c.lower() ? 0 : verify_partner(c);
}
std::uint64_t verify_bcast(const thread_context& c) {
    return c.rank == 0 ? 0 : count_unlike(c.out, c.count, [](int k) { return k; });
}
std::uint64_t verify_sum(const thread_context& c) {
    const std::int64_t ranks_sum = std::int64_t{c.size} * (c.size + 1) / 2;
    return count_unlike(c.out, c.count, [&](int k) { return sent_value(ranks_sum, k); });
}
std::uint64_t verify_reduce(const thread_context& c) { return c.rank == 0 ? verify_sum(c) : 0; }

constexpr auto pt2pt_class = benchmark_class::parallel_transfer;
constexpr auto collective_class = benchmark_class::collective;
// Not PARBENCH_BENCH_THREAD_MULTIPLE: IMB-MT initialises MPI at its -thread_level, "single" by
// default (imb.cpp:79), and then runs one thread (MT_suite.cpp:164-169); -thread_level multiple
// gives the OpenMP team.
constexpr std::uint32_t flags = PARBENCH_BENCH_DEFAULT;

struct benchmark {
    parbench_benchmark info;
    definition def;
};

// IMB-MT's benchmarks in MT_benchmark.cpp's order.
const benchmark catalogue[] = {
    {plugin::catalogue_row("PingPongMT", "Each thread: MPI_Send/MPI_Recv with rank r +/- stride",
                           pt2pt_class, flags),
     {.kernel = ping_pong, .who = members::pairs, .out = figures::times_bandwidth, .divisor = 2,
      .verify = verify_partner}},
    {plugin::catalogue_row("PingPingMT", "Each thread: MPI_Isend and MPI_Recv at once with its "
                           "partner", pt2pt_class, flags),
     {.kernel = ping_ping, .who = members::pairs, .out = figures::times_bandwidth,
      .verify = verify_partner}},
    {plugin::catalogue_row("SendRecvMT", "Each thread: MPI_Sendrecv to r + stride, from r - "
                           "stride", pt2pt_class, flags),
     {.kernel = send_recv, .who = members::ring, .out = figures::times_bandwidth,
      .bandwidth_factor = 2, .verify = verify_left}},
    {plugin::catalogue_row("ExchangeMT", "Each thread: two MPI_Isend and two MPI_Recv with r +/- "
                           "stride", pt2pt_class, flags),
     {.kernel = exchange, .who = members::ring, .out = figures::times_bandwidth,
      .bandwidth_factor = 4, .two_receives = true, .verify = verify_both}},
    {plugin::catalogue_row("UniBandMT", "Each thread: a window of MPI_Isend one way, then an ack",
                           pt2pt_class, flags),
     {.kernel = uni_band, .who = members::pairs, .out = figures::window_rates, .window = true,
      .verify = verify_uniband}},
    {plugin::catalogue_row("BiBandMT", "Each thread: a window of messages both ways, then an ack",
                           pt2pt_class, flags),
     {.kernel = bi_band, .who = members::pairs, .out = figures::window_rates, .divisor = 2,
      .window = true, .verify = verify_partner}},
    {plugin::catalogue_row("BarrierMT", "Each thread: MPI_Barrier on its communicator",
                           collective_class, flags | PARBENCH_BENCH_NO_VERIFY),
     {.kernel = barrier_call, .how = timing::each_call_no_barrier,
      .out = figures::times_no_bytes}},
    {plugin::catalogue_row("BcastMT", "Each thread: MPI_Bcast from root 0", collective_class,
                           flags),
     {.kernel = bcast, .how = timing::each_call, .verify = verify_bcast}},
    {plugin::catalogue_row("ReduceMT", "Each thread: MPI_Reduce (MPI_SUM) to root 0",
                           collective_class, flags),
     {.kernel = reduce, .how = timing::each_call, .verify = verify_reduce}},
    {plugin::catalogue_row("AllReduceMT", "Each thread: MPI_Allreduce (MPI_SUM)",
                           collective_class, flags),
     {.kernel = all_reduce, .how = timing::each_call, .verify = verify_sum}},
};

const std::vector<parbench_benchmark>& benchmark_rows() {
    static const std::vector<parbench_benchmark> rows = [] {
        std::vector<parbench_benchmark> out;
        for (const benchmark& b : catalogue) out.push_back(b.info);
        return out;
    }();
    return rows;
}

// --- one run ---------------------------------------------------------------------------------

struct run_state {
    const options* opts = nullptr;
    const plugin::host_channel* host = nullptr;
    thread_team* team = nullptr;
    const thread_comms* comms = nullptr;
    int threads = 1;
    bool multiple = false;
    int world = 1;
    int world_rank = 0;
};

// The barrier of -barrier (MT_benchmark.h normal_barrier, special_barrier), entered by every
// thread of the team: the team meets, thread 0 synchronises the processes, the team meets again
// (omp_aware_barrier); one thread alone without MPI_THREAD_MULTIPLE.
void process_barrier(const run_state& run, int t) {
    if (run.opts->barrier == barrier_kind::off) return;
    if (run.multiple) run.team->barrier();
    if (t == 0) {
        if (run.opts->barrier == barrier_kind::on) {
            MPI_Barrier(MPI_COMM_WORLD);
        } else {
            int dummy = 0;
            for (int mask = 1; mask < run.world; mask <<= 1)
                MPI_Sendrecv(&dummy, 0, MPI_BYTE, (run.world_rank + mask) % run.world, 1010,
                             &dummy, 0, MPI_BYTE, (run.world_rank - mask + run.world) % run.world,
                             1010, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    if (run.multiple) run.team->barrier();
}

// Who takes part on P processes with -stride S (the same for every thread of a process).
bool takes_part(const definition& d, int rank, int size, int stride) {
    if (d.who != members::pairs) return true;
    int group = 0;
    return set_stride(rank, size, stride, group);
}

// One thread's buffers: IMB-MT's AlignedAllocator, `align` bytes past an aligned boundary.
struct aligned_block {
    std::unique_ptr<std::byte[]> storage;
    std::byte* at = nullptr;

    aligned_block() = default;
    aligned_block(std::size_t bytes, std::size_t align)
        : storage(std::make_unique<std::byte[]>(bytes + align)) {
        const auto address = reinterpret_cast<std::uintptr_t>(storage.get());
        at = storage.get() + (align - address % align);
    }
};

struct thread_buffers {
    std::byte* in = nullptr;
    std::byte* out = nullptr;
    mutable std::vector<MPI_Request> requests;  // the window's, written by the kernels
};

// The family for mpi::sweep(): one count (every process), the -count list as sizes; per size
// every thread runs its loop, then each thread's figures travel to rank 0 as one rank_timing
// and the record reduces them all (IMB-MT: min, max and mean over processes x threads).
struct mt_family {
    const run_state& run;
    std::string_view name;
    const definition& def;

    struct count {
        mpi::session session;
        std::vector<aligned_block> blocks;
        std::vector<thread_buffers> buffers;  // per thread
    };

    [[nodiscard]] std::vector<int> process_counts() const { return {run.world}; }
    [[nodiscard]] std::vector<std::uint64_t> sizes() const {
        if (def.out == figures::times_no_bytes) return {0};  // SEND_0
        return {run.opts->counts.begin(), run.opts->counts.end()};
    }
    [[nodiscard]] std::size_t element_bytes() const { return run.opts->int_type ? 4 : 1; }
    [[nodiscard]] std::uint64_t total_bytes(std::uint64_t elements) const {
        return elements * element_bytes() * static_cast<std::uint64_t>(run.threads);
    }

    // Each thread's buffers for the largest count (MT_benchmark.h init()), by -malloc_algo.
    [[nodiscard]] count open(int q) const {
        count c{mpi::session(MPI_COMM_WORLD, q), {}, {}};
        const auto all = sizes();
        const std::size_t longest =
            element_bytes() * static_cast<std::size_t>(*std::max_element(all.begin(), all.end()));
        const std::size_t in_bytes = longest;
        const std::size_t out_bytes = def.two_receives ? 2 * longest : longest;
        const auto align = static_cast<std::size_t>(run.opts->malloc_align);
        const auto threads = static_cast<std::size_t>(run.threads);
        c.buffers.resize(threads);
        int failed = 0;
        try {
            const malloc_kind how = run.multiple ? run.opts->malloc_algo : malloc_kind::serial;
            if (how == malloc_kind::continuous) {
                c.blocks.emplace_back(in_bytes * threads, align);
                c.blocks.emplace_back(out_bytes * threads, align);
                for (std::size_t t = 0; t < threads; ++t) {
                    c.buffers[t].in = c.blocks[0].at + t * in_bytes;
                    c.buffers[t].out = c.blocks[1].at + t * out_bytes;
                }
            } else {
                // parallel: each thread allocates (and so first touches) its own
                c.blocks.resize(2 * threads);
                const auto place = [&](int t) {
                    const auto k = static_cast<std::size_t>(t);
                    c.blocks[2 * k] = aligned_block(in_bytes, align);
                    c.blocks[2 * k + 1] = aligned_block(out_bytes, align);
                    c.buffers[k].in = c.blocks[2 * k].at;
                    c.buffers[k].out = c.blocks[2 * k + 1].at;
                };
                if (how == malloc_kind::parallel)
                    run.team->run(place);
                else
                    for (int t = 0; t < run.threads; ++t) place(t);
            }
            if (def.window)
                for (auto& b : c.buffers)
                    b.requests.assign(2 * static_cast<std::size_t>(run.opts->window_size),
                                      MPI_REQUEST_NULL);
        } catch (const std::bad_alloc&) {
            failed = 1;
        }
        MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (failed != 0)
            throw input_error(fmt::format("{}: a process could not allocate {} bytes of buffers "
                                          "for each of its {} threads", name,
                                          in_bytes + out_bytes, run.threads));
        return c;
    }

    void progress(const count& /*c*/, std::uint64_t x) const {
        run.host->progress(name, total_bytes(x), run.world);
    }

    // One thread's loop at `elements` per message: its rank_timing (group 0: took part, -1: sat
    // out, as IMB-MT's result 0), the batches' time per iteration for parbench's statistics.
    mpi::rank_timing thread_loop(const count& c, int t, int elements) const {
        const options& o = *run.opts;
        const auto& b = c.buffers[static_cast<std::size_t>(t)];
        thread_context k;
        k.comm = run.comms->of(t);
        MPI_Comm_rank(k.comm, &k.rank);
        MPI_Comm_size(k.comm, &k.size);
        k.stride = o.stride;
        const bool member = takes_part(def, k.rank, k.size, k.stride);
        set_stride(k.rank, k.size, k.stride, k.group);
        k.count = elements;
        k.type = o.int_type ? MPI_INT : MPI_CHAR;
        k.in = b.in;
        k.out = b.out;
        k.out2 = b.out + static_cast<std::size_t>(elements) * element_bytes();
        k.window = o.window_size;
        k.requests = b.requests.data();
        k.team = run.team;
        k.multiple = run.multiple;

        if (o.check && member) {
            const int rank_plus_one = def.kernel == bcast ? 1 : k.rank + 1;
            for (int e = 0; e < elements; ++e) {
                ints(k.in)[e] = sent_value(rank_plus_one, e);
                ints(k.out)[e] = -1;
                if (def.two_receives) ints(k.out2)[e] = -1;
            }
        }
        const auto n = static_cast<std::uint64_t>(o.repeat);
        const std::vector<std::uint64_t> ends = policy::aggregation::batched{}.batch_ends(n);
        mpi::rank_timing mine;
        mine.group = member ? 0 : -1;
        mine.iterations = n;
        mine.batch_s.assign(ends.size(), 0.0);

        if (def.how == timing::loop) {
            if (member)
                for (int i = 0; i < o.warmup; ++i) def.kernel(k);
            process_barrier(run, t);
            if (member) {
                const double start = MPI_Wtime();
                double batch_start = start;
                std::uint64_t i = 0;
                for (std::size_t e = 0; e < ends.size(); ++e) {
                    const std::uint64_t first = i;
                    for (; i < ends[e]; ++i) def.kernel(k);
                    const double now = MPI_Wtime();
                    mine.batch_s[e] = (now - batch_start) / static_cast<double>(i - first);
                    batch_start = now;
                }
                mine.total_s = batch_start - start;
            }
        } else {
            const auto total = n + static_cast<std::uint64_t>(o.warmup);
            const auto skip = static_cast<std::uint64_t>(o.warmup);
            std::size_t e = 0;
            std::uint64_t first = skip;
            double batch_sum = 0.0;
            for (std::uint64_t i = 0; i < total; ++i) {
                const double begin = MPI_Wtime();
                def.kernel(k);
                const double spent = MPI_Wtime() - begin;
                if (i >= skip) {
                    mine.total_s += spent;
                    batch_sum += spent;
                    if (i + 1 - skip == ends[e]) {
                        mine.batch_s[e] = batch_sum / static_cast<double>(i + 1 - first);
                        first = i + 1;
                        batch_sum = 0.0;
                        ++e;
                    }
                }
                if (def.how == timing::each_call)
                    for (int r = 0; r < 5; ++r) process_barrier(run, t);
            }
        }
        if (o.check && member && def.verify != nullptr) mine.defects = def.verify(k);
        return mine;
    }

    [[nodiscard]] mpi::measurement measure(const count& c, std::uint64_t x) const {
        const int elements = static_cast<int>(x);
        std::vector<mpi::rank_timing> mine(static_cast<std::size_t>(run.threads));
        run.team->run(
            [&](int t) { mine[static_cast<std::size_t>(t)] = thread_loop(c, t, elements); });

        // Every thread's figures to rank 0, one gather per thread index.
        const policy::aggregation::batched batching{};
        std::vector<mpi::rank_timing> all;
        bool root = false;
        for (const mpi::rank_timing& m : mine) {
            mpi::gathered g = mpi::gather(c.session, m, batching.max_batches);
            root = g.root;
            for (mpi::rank_timing& r : g.ranks) all.push_back(std::move(r));
        }
        mpi::measurement out;
        if (!root) return out;
        std::vector<const mpi::rank_timing*> members;
        for (const mpi::rank_timing& r : all)
            if (r.group == 0) members.push_back(&r);
        if (members.empty()) return out;  // nobody took part: noted by run()
        const pattern::exchange p{.klass = def.how == timing::loop ? pt2pt_class
                                                                   : collective_class,
                                  .nmsg = 1,
                                  .time_divisor = def.divisor *
                                                  (def.window ? run.opts->window_size : 1),
                                  .throughput = pattern::throughput_rule::none};
        mpi::group_layout layout = c.session.layout();
        const auto participants = static_cast<int>(members.size());
        layout.processes = participants / run.threads;  // IMB-MT: nresults / num_threads
        result_record r = mpi::reduce_ranks(
            p,
            {.suite = "imb-mt", .benchmark = std::string(name),
             .has_bytes = def.out != figures::times_no_bytes},
            layout, total_bytes(x), run.opts->check, members, -1);
        r.block.threads = run.threads;
        // Where the processes ran: a pair benchmark's row names each pair (rank r and r + S;
        // those past the last whole block of 2 x S sit out and are not named), the others every
        // process, as reduce_ranks did.
        if (def.who == members::pairs)
            r.placement = mpi::pair_placement(layout, [&](int rank, int size) {
                int stride = run.opts->stride;
                int group = 0;
                if (!set_stride(rank, size, stride, group)) return -1;
                return group % 2 == 0 ? rank + stride : rank - stride;
            });
        if (def.verify == nullptr) r.defects.reset();  // BarrierMT moves no data: not verified
        r.metrics["participants"] = participants;
        // IMB-MT's rates (MT_benchmark.h run()): Mbytes/sec from the slowest thread, Msg/sec
        // from the mean, for nresults / 2 pairs in the window benchmarks.
        const double x_total = static_cast<double>(total_bytes(x));
        const double pairs = static_cast<double>(participants / 2);
        std::optional<double> mbytes_per_s;
        if (def.out == figures::times_bandwidth && r.t_max_us > 0.0)
            mbytes_per_s = x_total * def.bandwidth_factor / r.t_max_us;
        if (def.out == figures::window_rates) {
            if (r.t_max_us > 0.0) mbytes_per_s = x_total / run.threads * pairs / r.t_max_us;
            if (r.t_avg_us > 0.0)
                message_rates_of(r).messages_per_s = std::floor(pairs * 1e6 / r.t_avg_us);
        }
        if (mbytes_per_s) {
            message_rates_of(r).mbytes_per_s = mbytes_per_s;
            r.throughput_mib_s = *mbytes_per_s / 1.048576;
        }
        out.records.push_back(std::move(r));
        return out;
    }

    void publish(const count& /*c*/, result_record& r) const { run.host->result(r); }
    void close(const count& /*c*/, const mpi::size_notes& /*notes*/) const {}
};

// --- the suite -------------------------------------------------------------------------------

const benchmark& find_benchmark(const std::string& name) {
    const auto* b = std::find_if(std::begin(catalogue), std::end(catalogue),
                                 [&](const benchmark& c) { return same_name(name, c.info.name); });
    if (b == std::end(catalogue))
        throw input_error("suite imb-mt has no benchmark '" + name + "'");
    return *b;
}

// The run's benchmarks as IMB 2021 lists them (imb.cpp:215-233): the -include names, then those
// named on the command line and in -input, or without any all ten in IMB-MT's order, less the
// -exclude names; each once. `named`: the user asked for it (it must be able to run), not a
// default.
struct choice {
    const benchmark* bench = nullptr;
    bool named = false;
};

std::vector<choice> selected(const run_request& request, const options& o) {
    std::vector<std::string> names = name_list("benchmark list", request.benchmarks);
    names.insert(names.end(), o.input_names.begin(), o.input_names.end());
    std::vector<choice> wanted;
    for (const std::string& n : o.include) wanted.push_back({&find_benchmark(n), true});
    if (names.empty())
        for (const benchmark& b : catalogue) wanted.push_back({&b, false});
    for (const std::string& n : names) wanted.push_back({&find_benchmark(n), true});
    std::vector<const benchmark*> dropped;
    for (const std::string& n : o.exclude) dropped.push_back(&find_benchmark(n));
    std::vector<choice> out;
    for (const choice& c : wanted) {
        const auto same = [&](const choice& d) { return d.bench == c.bench; };
        if (std::find(dropped.begin(), dropped.end(), c.bench) == dropped.end() &&
            std::none_of(out.begin(), out.end(), same))
            out.push_back(c);
    }
    if (out.empty()) throw input_error("nothing to run: -exclude removed every benchmark selected");
    return out;
}

// Whether anybody takes part in `b` at P processes (the same on every process).
bool anybody(const benchmark& b, int processes, int stride) {
    for (int r = 0; r < processes; ++r)
        if (takes_part(b.def, r, processes, stride)) return true;
    return false;
}

run_start make_run_start(const options& o, const std::vector<choice>& chosen,
                         int world, const thread_count& threads, bool multiple) {
    int thread_level = MPI_THREAD_SINGLE;
    MPI_Query_thread(&thread_level);
    const auto clock = measure_clock(mpi::wtime_clock{});
    std::vector<std::string> names;
    for (const choice& c : chosen) names.emplace_back(c.bench->info.name);
    const std::uint64_t element = o.int_type ? 4 : 1;
    const auto [least, most] = std::minmax_element(o.counts.begin(), o.counts.end());
    const auto per_process = static_cast<std::uint64_t>(threads.threads) * element;
    run_start start;
    start.suite = "imb-mt";
    start.layout = "imb-p2p";  // IMB 2021's short header, then IMB's tables
    start.title = "parbench " PARBENCH_PLUGIN_VERSION
                  ", IMB-MT part (Intel(R) MPI Benchmarks 2021.11 methodology)";
    start.benchmarks = names;
    start.header = report::imb_header{
        .mpi_version = mpi::standard_version(),
        .mpi_thread_environment = std::string(mpi::thread_level_name(thread_level)),
        .min_bytes = static_cast<std::uint64_t>(*least) * per_process,
        .max_bytes = static_cast<std::uint64_t>(*most) * per_process,
        .benchmark_list = names,
        .threads = threads.threads};
    for (const choice& c : chosen) {
        std::vector<column>& cols = start.columns[c.bench->info.name];
        switch (c.bench->def.out) {
            case figures::times_bandwidth:
                cols = {{"t_min_us", "t_min[usec]"}, {"t_max_us", "t_max[usec]"},
                        {"t_avg_us", "t_avg[usec]"}, {"mbytes_per_s", "Mbytes/sec"}};
                break;
            case figures::window_rates:
                cols = {{"t_avg_us", "t_avg[usec]"}, {"mbytes_per_s", "Mbytes/sec"},
                        {"messages_per_s", "Msg/sec", 0}};
                break;
            case figures::times:
            case figures::times_no_bytes:
                cols = {{"t_min_us", "t_min[usec]"}, {"t_max_us", "t_max[usec]"},
                        {"t_avg_us", "t_avg[usec]"}};
                break;
        }
    }
    static constexpr const char* barrier_names[] = {"off", "on", "special"};
    static constexpr const char* malloc_names[] = {"serial", "continuous", "parallel"};
    start.context =
        report::mpi_suite_context{.mpi_library = mpi::library_version(), .processes = world};
    start.context.update({{"threads", threads.threads},
                          {"threads_from", threads.source},
                          {"thread_mode", multiple ? "multiple" : "single"},
                          {"thread_level", std::string(mpi::thread_level_name(thread_level))},
                          {"timer", "MPI_Wtime"},
                          {"options",
                           {{"count", o.counts},
                            {"repeat", o.repeat},
                            {"warmup", o.warmup},
                            {"window_size", o.window_size},
                            {"barrier", barrier_names[static_cast<int>(o.barrier)]},
                            {"malloc_align", o.malloc_align},
                            {"malloc_algo", malloc_names[static_cast<int>(o.malloc_algo)]},
                            {"datatype", o.int_type ? "int" : "char"},
                            {"stride", o.stride}}}});
    start.context.update(nlohmann::json(report::timer_limits::of(clock)));
    return start;
}

void run(const run_request& request, const plugin::host_channel& host) {
    run_state st;
    MPI_Comm_size(MPI_COMM_WORLD, &st.world);
    MPI_Comm_rank(MPI_COMM_WORLD, &st.world_rank);
    const options o = parse_options(request);
    const std::vector<choice> chosen = selected(request, o);
    // A benchmark named on the command line, in -input or -include must run; one of the
    // defaults that cannot is noted with IMB-MT's line.
    for (const choice& c : chosen)
        if (c.named && !anybody(*c.bench, st.world, o.stride))
            throw input_error(fmt::format(
                "{} pairs rank r with r + stride (stride {}; 0 means P/2) and needs at least "
                "2 x stride processes, stride <= P/2; the run has {}", c.bench->info.name,
                o.stride, st.world));
    int level = MPI_THREAD_SINGLE;
    MPI_Query_thread(&level);
    st.multiple = level == MPI_THREAD_MULTIPLE;
    const thread_count threads = threads_of(st.multiple);
    int least = threads.threads;
    int most = threads.threads;
    MPI_Allreduce(MPI_IN_PLACE, &least, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (least != most)
        throw input_error(fmt::format("imb-mt: the processes run {} to {} threads "
                                      "(OMP_NUM_THREADS); give every process the same number",
                                      least, most));
    st.threads = threads.threads;
    // The team before any measurement: a process that cannot start its threads says so, and
    // every process stops (none is left waiting in a collective call).
    std::optional<thread_team> team;
    std::string why;
    try {
        team.emplace(st.threads);
    } catch (const std::system_error& e) {
        why = e.what();
    }
    int failed = why.empty() ? 0 : 1;
    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (failed != 0)
        throw input_error(fmt::format("imb-mt: {} could not start {} threads{}; lower "
                                      "OMP_NUM_THREADS", why.empty() ? "another process" :
                                      fmt::format("process {}", st.world_rank), st.threads,
                                      why.empty() ? "" : " (" + why + ")"));
    const thread_comms comms(st.threads, st.multiple);
    st.opts = &o;
    st.host = &host;
    st.team = &*team;
    st.comms = &comms;
    const mpi::node_share share = mpi::busiest_node(MPI_COMM_WORLD);
    if (st.world_rank == 0) {
        host.run_started(make_run_start(o, chosen, st.world, threads, st.multiple));
        // Said once: every thread busy-polls in MPI, so more threads than CPUs time the
        // scheduler.
        if (share.cpus > 0 && share.processes * st.threads > share.cpus)
            host.warning(fmt::format(
                "oversubscribed: {} processes x {} threads share {} CPUs on a node; MPI "
                "busy-polls, so the figures time the scheduler. Run at most one thread per CPU "
                "(OMP_NUM_THREADS) for figures worth keeping", share.processes, st.threads,
                share.cpus));
    }
    for (const choice& c : chosen) {
        const benchmark& b = *c.bench;
        if (anybody(b, st.world, o.stride))
            mpi::sweep(mt_family{.run = st, .name = b.info.name, .def = b.def});
        else if (st.world_rank == 0) {
            // IMB-MT's block's two lines (MT_benchmark.h:462-470), without its rules: the
            // console prints a note as "# TEXT" after the table before it.
            host.note(fmt::format("Benchmarking {}", b.info.name));
            host.note("NO SUCCESSFUL EXECUTIONS");
        }
    }
}

const parbench_suite& info() {
    static const parbench_suite s = {
        "imb-mt",
        "IMB-MT (IMB 2021): point-to-point and collectives by every thread of every process",
        benchmark_rows().data(),
        benchmark_rows().size(),
        parameter_rows,
        std::size(parameter_rows),
        PARBENCH_SUITE_NEEDS_MPI | PARBENCH_SUITE_MULTI_NAMES};  // IMB 2021's A,B lists
    return s;
}

}  // namespace
}  // namespace imb_mt_impl

const hosted_suite suites::imb_mt = {imb_mt_impl::info(), &imb_mt_impl::run};

}  // namespace parbench::mpi_plugin
