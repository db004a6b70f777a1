// A seeded random fuzzer for the option parsers and the -msglen/-input readers: for a bounded
// time, random text (digits, signs, separators, huge numbers, control characters, bytes above
// 0x7f) goes into every parser. Each call must either return a sane value or throw
// parbench::input_error with a non-empty message — never another exception, a crash, an
// overflow (the sanitizer build runs this too) or a hang.
//
//   fuzz_parsers [--seconds S] [--seed N]
#include "config.hpp"             // plugins/blas
#include "imb/options.hpp"         // plugins/mpi

#include <parbench/core/buffers.hpp>
#include <parbench/core/error.hpp>
#include <parbench/core/input_file.hpp>
#include <parbench/core/sizes.hpp>
#include <parbench/mpi/active_set.hpp>
#include <parbench/core/options.hpp>
#include <parbench/policy/iterations.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

std::mt19937_64 rng;
std::size_t calls = 0;
std::size_t rejected = 0;

[[noreturn]] void die(const std::string& what, const std::string& input) {
    std::string shown;
    for (const unsigned char c : input)
        shown += (c < 0x20 || c >= 0x7f) ? "\\x" + std::to_string(c) + ";"
                                         : std::string(1, static_cast<char>(c));
    std::fprintf(stderr, "FAILED: %s\n  input: '%s'\n", what.c_str(), shown.c_str());
    std::exit(1);
}

std::size_t pick(std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
}

// Random text built from pieces that parsers care about.
std::string random_text(std::size_t max_pieces = 6) {
    static const std::vector<std::string> pieces = {
        "0", "1", "2", "7", "16", "22", "40", "41", "64", "128", "1024", "46340", "46341",
        "2147483647", "2147483648", "4294967296", "18446744073709551615",
        "18446744073709551616", "99999999999999999999999", "1e300", "1e-300", "1e999", "inf",
        "nan", "-1", "-0", "+3", "0.5", "2.5", ".", ":", ",", "x", "+", "-", " ", "\t", "\n",
        "\r", "\x1b[31m", "#", "\x7f", "\xc3\xa9", "\xff", "", "PingPong", "pingpong",
        "Multi-Allreduce", "dynamic", "off", "auto", "multiple_np", "single", "multiple",
        "abc", "MB", "e", "E5", "0x10", "00000000000000000000001"};
    std::string text;
    const std::size_t n = pick(max_pieces + 1);
    for (std::size_t i = 0; i < n; ++i) {
        if (pick(8) == 0)
            text += static_cast<char>(pick(256));  // any byte, NUL included
        else
            text += pieces[pick(pieces.size())];
    }
    return text;
}

// `call` must return normally or throw input_error with a message.
void expect_clean(const char* parser, const std::string& input, const std::function<void()>& call) {
    ++calls;
    try {
        call();
    } catch (const parbench::input_error& e) {
        ++rejected;
        if (std::string(e.what()).empty()) die(std::string(parser) + ": empty message", input);
    } catch (const std::exception& e) {
        die(std::string(parser) + ": threw " + typeid(e).name() + ": " + e.what(), input);
    }
}

void fuzz_one_round(const std::string& scratch_file) {
    using namespace parbench;
    const std::string text = random_text();
    expect_clean("parse_msglog", text, [&] {
        const auto r = parse_msglog(text);
        if (r.min_log > r.max_log || r.max_log > max_supported_msglog)
            die("parse_msglog accepted an invalid range", text);
    });
    expect_clean("parse_off_cache", text, [&] {
        const auto c = parse_off_cache(text);
        if (c.enabled && (c.cache_bytes() == 0 || c.line_bytes == 0))
            die("parse_off_cache accepted an empty cache", text);
        // The rotation built from any accepted value must not overflow.
        const message_rotation rotation(std::size_t{1} << 22, c);
        if (rotation.region_bytes() < (std::size_t{1} << 22))
            die("rotation region smaller than one message (overflow)", text);
    });
    expect_clean("parse_mem_gib", text, [&] {
        const double g = parse_mem_gib(text);
        if (!(g > 0.0) || g > 1e9) die("parse_mem_gib accepted " + std::to_string(g), text);
    });
    expect_clean("parse_imb_iter", text, [&] {
        (void)policy::iterations::parse_imb_iter(text, policy::iterations::imb_volume{});
    });
    expect_clean("parse_iter_policy_option", text,
                 [&] { (void)policy::iterations::parse_iter_policy_option(text); });
    expect_clean("parse_seconds", text, [&] {
        const double s = parbench::parse_seconds("-time", text);
        if (!(s > 0.0) || s > 1e9) die("parse_seconds accepted " + std::to_string(s), text);
    });
    expect_clean("parse_map", text, [&] { (void)mpi::parse_map(text); });
    expect_clean("size_progression", text, [&] {
        const auto sizes = blas::size_progression(1 + pick(100), 1 + pick(100000), text);
        if (sizes.size() > 200000) die("size_progression: too many sizes", text);
    });

    // Multi-line files: -msglen and -input parsers, directly and through the bounded reader.
    std::string file;
    const std::size_t lines = pick(12);
    for (std::size_t i = 0; i < lines; ++i) file += random_text(3) + (pick(6) == 0 ? "\r\n" : "\n");
    expect_clean("parse_msglen", file, [&] {
        const auto sizes = parse_msglen(file, "fuzz");
        if (sizes.empty()) die("parse_msglen returned no sizes", file);
    });
    expect_clean("parse_input_file", file, [&] {
        const auto names = imb::parse_input_file(file, "fuzz");
        if (names.empty()) die("parse_input_file returned no names", file);
    });
    {
        std::ofstream out(scratch_file, std::ios::binary | std::ios::trunc);
        out << file;
    }
    expect_clean("read_input_file", file, [&] {
        const std::string content = read_input_file("-msglen", scratch_file, 4096);
        if (content != file) die("read_input_file changed the content", file);
        (void)parse_msglen(content, scratch_file);
    });

    // PAW's options and environment variables.
    run_request request;
    request.suite = "paw";
    static const char* const options[] = {"threads", "min_size", "med_size", "max_size", "sizes",
                                          "size_step", "nreps", "nloop_max", "nloop_min", "time",
                                          "min_loop_time"};
    const std::size_t given = pick(4);
    for (std::size_t i = 0; i < given; ++i) request.options[options[pick(11)]] = random_text(3);
    const std::string env_value = random_text(2);
    const char* env_name = pick(2) == 0 ? "MAX_BLAS_SIZE" : "NREPS";
    const blas::env_lookup env = [&](const char* name) -> std::optional<std::string> {
        if (std::string(name) == env_name) return env_value;
        return std::nullopt;
    };
    std::string shown = std::string(env_name) + "=" + env_value;
    for (const auto& [name, value] : request.options)
        shown += " --" + name + " " + value.get<std::string>();
    expect_clean("blas::parse_config", shown, [&] {
        const auto cfg = blas::parse_config(request, env, 1);
        for (const auto n : cfg.sizes)
            if (n == 0 || n > 46340) die("parse_config accepted order " + std::to_string(n), shown);
    });
}

}  // namespace

int main(int argc, char** argv) {
    double seconds = 20.0;
    unsigned long long seed = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--seconds") seconds = std::atof(argv[i + 1]);
        if (flag == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);
    }
    rng.seed(seed);
    char scratch[] = "/tmp/parbench-fuzz-XXXXXX";
    const int fd = ::mkstemp(scratch);
    if (fd < 0) return 1;
    ::close(fd);
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    std::size_t rounds = 0;
    while (std::chrono::steady_clock::now() < end) {
        for (int k = 0; k < 100; ++k) fuzz_one_round(scratch);
        rounds += 100;
    }
    ::unlink(scratch);
    std::printf("fuzz: seed %llu, %zu rounds, %zu parser calls (%zu rejected with input_error) in "
                "%.0f s\n",
                seed, rounds, calls, rejected, seconds);
    return 0;
}
