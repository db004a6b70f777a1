// C++ side of the plugin ABI, for plugin authors: turns exceptions into status codes and
// messages, and wraps the host's callbacks in typed calls. Nothing here crosses the boundary.
#pragma once

#include <parbench/core/error.hpp>
#include <parbench/plugin/abi.h>
#include <parbench/report/result.hpp>

#include <algorithm>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>
#include <utility>

namespace parbench::plugin {

// Copies a one-line message into the caller's buffer, always NUL-terminated; newlines become
// spaces. A message longer than the buffer loses its middle, marked " [...] ", never its end: the
// reason comes last ("-msglen 'very long...': not a regular file").
inline void write_message(char* buffer, std::size_t size, std::string_view message) noexcept {
    if (buffer == nullptr || size == 0) return;
    const auto copy = [](char* to, std::string_view from) {
        std::memcpy(to, from.data(), from.size());
        std::replace(to, to + from.size(), '\n', ' ');
        return to + from.size();
    };
    const std::size_t capacity = size - 1;
    constexpr std::string_view cut = " [...] ";
    const auto continuation = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; };
    if (message.size() <= capacity || capacity < 3 * cut.size()) {
        *copy(buffer, message.substr(0, std::min(capacity, message.size()))) = '\0';
        return;
    }
    // A third of the room for the beginning, the rest for the end; never inside a UTF-8
    // character.
    std::size_t head = (capacity - cut.size()) / 3;
    while (head > 0 && continuation(message[head])) --head;
    std::size_t tail_from = message.size() - (capacity - cut.size() - head);
    while (tail_from < message.size() && continuation(message[tail_from])) ++tail_from;
    char* out = copy(buffer, message.substr(0, head));
    out = copy(out, cut);
    *copy(out, message.substr(tail_from)) = '\0';
}

// Runs `body`; an input_error becomes PARBENCH_BAD_INPUT, anything else PARBENCH_ERROR, each
// with its message. Use it as the whole body of every exported callback.
template <class Body>
parbench_status guarded(char* error, std::size_t error_size, Body&& body) noexcept {
    try {
        std::forward<Body>(body)();
        return PARBENCH_OK;
    } catch (const input_error& e) {
        write_message(error, error_size, e.what());
        return PARBENCH_BAD_INPUT;
    } catch (const std::exception& e) {
        write_message(error, error_size, e.what());
        return PARBENCH_ERROR;
    } catch (...) {
        write_message(error, error_size, "unknown error");
        return PARBENCH_ERROR;
    }
}

// Typed access to what the host offers during run().
class host_channel {
public:
    explicit host_channel(const parbench_host* host) noexcept : host_(host) {}
    // `plugin_context`: fields the plugin adds to the context of every run_start its suites send
    // (the MPI plugin's mpi_init_ms), so that no suite's header code has to know them.
    host_channel(const parbench_host* host, nlohmann::json plugin_context)
        : host_(host), plugin_context_(std::move(plugin_context)) {}

    void run_started(const run_start& start) const {
        nlohmann::json event(start);
        for (const auto& [key, value] : plugin_context_.items()) event["context"][key] = value;
        emit("run_start", std::move(event));
    }
    void result(const result_record& record) const { emit("result", nlohmann::json(record)); }
    // A size not measured because IMB 2021's -time budget of its block ran out (a "time-out."
    // row): the record says where it would have been (benchmark, block, size, the columns of its
    // table) and holds no figures. Consoles print IMB's row; the JSON lists it apart from the
    // measured rows (docs/methodology.md).
    void time_out(const result_record& row) const { emit("time_out", nlohmann::json(row)); }
    void warning(std::string_view text) const {
        emit("warning", nlohmann::json{{"message", std::string(text)}});
    }
    // A benchmark that will not run, and why ("needs 2 processes and the run has 1"): a warning
    // "<benchmark> <reason>; skipped" that the host also reads, so that a run says at the end
    // what it skipped and a run that skipped everything ends with an error.
    void skipped(std::string_view benchmark, std::string_view reason) const {
        emit("warning",
             nlohmann::json{{"message", std::string(benchmark) + " " + std::string(reason) +
                                            "; skipped"},
                            {"skipped", {{"benchmark", std::string(benchmark)},
                                         {"reason", std::string(reason)}}}});
    }
    // An informational line for the console (not a problem: no warning).
    void note(std::string_view text) const {
        emit("note", nlohmann::json{{"message", std::string(text)}});
    }
    void progress(std::string_view benchmark, std::uint64_t bytes, int processes) const {
        if (host_ != nullptr && host_->progress != nullptr)
            host_->progress(host_->context, std::string(benchmark).c_str(), bytes, processes);
    }
    [[nodiscard]] const parbench_comm_service* comm() const noexcept {
        return host_ != nullptr ? host_->comm : nullptr;
    }

private:
    void emit(std::string_view kind, nlohmann::json payload) const {
        if (host_ == nullptr || host_->emit == nullptr) return;
        const std::string text = make_event(kind, std::move(payload));
        host_->emit(host_->context, text.c_str());
    }
    const parbench_host* host_;
    nlohmann::json plugin_context_ = nlohmann::json::object();
};

}  // namespace parbench::plugin

// Defines the plugin's entry symbol. Use once per plugin, at namespace scope:
//   PARBENCH_PLUGIN_ENTRY(my_descriptor)
#define PARBENCH_PLUGIN_ENTRY(descriptor)                                                   \
    extern "C" __attribute__((visibility("default"))) const parbench_plugin*               \
    parbench_plugin_entry_v1(void) {                                                         \
        return &(descriptor);                                                                \
    }
