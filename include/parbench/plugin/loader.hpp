// Loading one plugin file: dlopen, find the entry symbol, validate the descriptor against the ABI
// this host reads, and (on request) initialise and finalise it. Every failure is a plugin_error
// whose one-line message names the file; nothing here aborts the process.
#pragma once

#include <parbench/plugin/abi.h>
#include <parbench/plugin/parameter_type.hpp>

#include <dlfcn.h>

#include <cstddef>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

namespace parbench::plugin {

// The room the host gives a plugin's error message: long enough for a message that quotes a
// long value (a path of PATH_MAX bytes) whole; a longer one loses its middle, not its reason
// (write_message, plugin/export.hpp).
inline constexpr std::size_t message_capacity = 16 * 1024;

// A plugin could not be loaded, validated, initialised or finalised. what() is one line and
// starts with the file's path.
class plugin_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A plugin's init refused to start (PARBENCH_BAD_INPUT from init): not a failure of the plugin
// but a run it cannot serve as launched (the MPI plugin with another MPI's libmpi preloaded).
// The driver says it as it says its own refusals: one line, exit status 2. what() is
// "<file>: <the plugin's message>".
class plugin_refusal : public plugin_error {
public:
    using plugin_error::plugin_error;
};

namespace detail {

[[nodiscard]] inline std::string dl_error_text() {
    const char* text = ::dlerror();
    return text != nullptr ? std::string(text) : std::string("unknown dynamic loader error");
}

// The part of parbench_plugin this host reads: everything up to and including run. Fields after
// it (the reserved slots) are read only when abi_minor says they exist.
inline constexpr std::size_t plugin_fields_read =
    offsetof(parbench_plugin, run) + sizeof(parbench_plugin::run);

// ABI 1.1's parameter_types, read only from a plugin that says it has them.
inline constexpr std::size_t typed_fields_read =
    offsetof(parbench_plugin, parameter_type_count) + sizeof(parbench_plugin::parameter_type_count);

[[nodiscard]] inline bool has_parameter_types(const parbench_plugin& d) noexcept {
    return d.abi_minor >= 1 && d.struct_size >= typed_fields_read && d.parameter_types != nullptr;
}

[[nodiscard]] inline bool empty(const char* text) noexcept {
    return text == nullptr || *text == '\0';
}

// Checks what the host relies on; returns an empty string when the descriptor is usable.
[[nodiscard]] inline std::string validate(const parbench_plugin& d) {
    if (d.abi_major != PARBENCH_ABI_MAJOR)
        return "built for ABI " + std::to_string(d.abi_major) + "." + std::to_string(d.abi_minor) +
               ", this parbench reads ABI " + std::to_string(PARBENCH_ABI_MAJOR) + ".x";
    if (d.struct_size < plugin_fields_read)
        return "descriptor is " + std::to_string(d.struct_size) + " bytes, ABI " +
               std::to_string(PARBENCH_ABI_MAJOR) + " needs at least " +
               std::to_string(plugin_fields_read);
    if (empty(d.name)) return "descriptor has no name";
    if (empty(d.version)) return "descriptor has no version";
    if (d.init == nullptr) return "descriptor has no init function";
    if (d.run == nullptr) return "descriptor has no run function";
    if (d.suite_count > 0 && d.suites == nullptr) return "descriptor lists suites but has none";
    for (std::size_t s = 0; s < d.suite_count; ++s) {
        const parbench_suite& suite = d.suites[s];
        if (empty(suite.name)) return "suite " + std::to_string(s) + " has no name";
        const std::string where = "suite '" + std::string(suite.name) + "'";
        if (suite.benchmark_count > 0 && suite.benchmarks == nullptr)
            return where + " lists benchmarks but has none";
        if (suite.parameter_count > 0 && suite.parameters == nullptr)
            return where + " lists parameters but has none";
        for (std::size_t b = 0; b < suite.benchmark_count; ++b) {
            const parbench_benchmark& bench = suite.benchmarks[b];
            if (empty(bench.name)) return where + ": benchmark " + std::to_string(b) + " has no name";
            if (empty(bench.klass))
                return where + ": benchmark '" + bench.name + "' has no class";
        }
        for (std::size_t p = 0; p < suite.parameter_count; ++p) {
            const parbench_parameter& param = suite.parameters[p];
            if (empty(param.name)) return where + ": parameter " + std::to_string(p) + " has no name";
            if (param.arity > PARBENCH_ARITY_ATTACHED)
                return where + ": parameter '" + param.name + "' has unknown arity " +
                       std::to_string(param.arity);
        }
    }
    if (has_parameter_types(d)) {
        for (std::size_t t = 0; t < d.parameter_type_count; ++t) {
            const parbench_parameter_type& type = d.parameter_types[t];
            const std::string row = "parameter type " + std::to_string(t);
            if (empty(type.suite) || empty(type.parameter)) return row + " names no suite or parameter";
            const parbench_suite* suite = nullptr;
            for (std::size_t s = 0; s < d.suite_count; ++s)
                if (std::string_view(type.suite) == d.suites[s].name) suite = &d.suites[s];
            if (suite == nullptr) return row + " names unknown suite '" + type.suite + "'";
            const parbench_parameter* param = nullptr;
            for (std::size_t p = 0; p < suite->parameter_count; ++p)
                if (std::string_view(type.parameter) == suite->parameters[p].name)
                    param = &suite->parameters[p];
            if (param == nullptr)
                return row + " names unknown parameter '" + type.parameter + "' of suite '" +
                       type.suite + "'";
            if (std::string problem = type_problem(type, *param); !problem.empty())
                return "suite '" + std::string(type.suite) + "': " + problem;
        }
    }
    return {};
}

}  // namespace detail

// An open plugin file (RAII over the dlopen handle). Move-only. Finalises on destruction when it
// was initialised and not finalised explicitly, then dlcloses.
class loaded_plugin {
public:
    // Loads and validates `path`. `global` selects RTLD_GLOBAL (the MPI plugin, whose symbols
    // other plugins' MPI must resolve against) instead of RTLD_LOCAL.
    explicit loaded_plugin(std::filesystem::path path, bool global = false)
        : path_(std::move(path)) {
        ::dlerror();
        handle_ = ::dlopen(path_.c_str(), RTLD_NOW | (global ? RTLD_GLOBAL : RTLD_LOCAL));
        if (handle_ == nullptr) fail(detail::dl_error_text());
        global_ = global;
        ::dlerror();
        void* symbol = ::dlsym(handle_, PARBENCH_ENTRY_SYMBOL);
        if (symbol == nullptr) {
            const std::string text = detail::dl_error_text();
            close();
            fail("no entry symbol " PARBENCH_ENTRY_SYMBOL " (" + text + ")");
        }
        auto entry = reinterpret_cast<parbench_entry_fn>(symbol);
        descriptor_ = entry();
        if (descriptor_ == nullptr) {
            close();
            fail(PARBENCH_ENTRY_SYMBOL " returned no descriptor");
        }
        if (std::string problem = detail::validate(*descriptor_); !problem.empty()) {
            close();
            fail(problem);
        }
    }

    loaded_plugin(loaded_plugin&& other) noexcept
        : path_(std::move(other.path_)),
          handle_(std::exchange(other.handle_, nullptr)),
          descriptor_(std::exchange(other.descriptor_, nullptr)),
          initialised_(std::exchange(other.initialised_, false)),
          global_(other.global_),
          keep_mapped_(other.keep_mapped_) {}
    loaded_plugin& operator=(loaded_plugin&& other) noexcept {
        if (this != &other) {
            release();
            path_ = std::move(other.path_);
            handle_ = std::exchange(other.handle_, nullptr);
            descriptor_ = std::exchange(other.descriptor_, nullptr);
            initialised_ = std::exchange(other.initialised_, false);
            global_ = other.global_;
            keep_mapped_ = other.keep_mapped_;
        }
        return *this;
    }
    loaded_plugin(const loaded_plugin&) = delete;
    loaded_plugin& operator=(const loaded_plugin&) = delete;
    ~loaded_plugin() { release(); }

    [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }
    [[nodiscard]] const parbench_plugin& descriptor() const noexcept { return *descriptor_; }
    [[nodiscard]] std::string_view name() const noexcept { return descriptor_->name; }
    [[nodiscard]] std::string_view version() const noexcept { return descriptor_->version; }
    [[nodiscard]] bool initialised() const noexcept { return initialised_; }
    [[nodiscard]] bool global() const noexcept { return global_; }

    // Text about the backend; empty when the plugin offers none.
    [[nodiscard]] std::string backend_info() const {
        if (descriptor_->backend_info == nullptr) return {};
        const char* text = descriptor_->backend_info();
        return text != nullptr ? std::string(text) : std::string{};
    }

    [[nodiscard]] const parbench_suite* find_suite(std::string_view suite) const noexcept {
        for (std::size_t s = 0; s < descriptor_->suite_count; ++s)
            if (suite == descriptor_->suites[s].name) return &descriptor_->suites[s];
        return nullptr;
    }

    // The value types of `suite`'s parameters by name (ABI 1.1); empty for an ABI 1.0 plugin,
    // whose parameters are all text.
    [[nodiscard]] std::map<std::string, const parbench_parameter_type*> parameter_types(
        std::string_view suite) const {
        std::map<std::string, const parbench_parameter_type*> types;
        if (!detail::has_parameter_types(*descriptor_)) return types;
        for (std::size_t t = 0; t < descriptor_->parameter_type_count; ++t)
            if (suite == descriptor_->parameter_types[t].suite)
                types[descriptor_->parameter_types[t].parameter] = &descriptor_->parameter_types[t];
        return types;
    }

    // Whether the plugin offers the communication service (the MPI plugin does).
    [[nodiscard]] bool offers_comm() const noexcept { return descriptor_->comm_service != nullptr; }

    // Re-opens the already loaded file with RTLD_GLOBAL so that its symbols (and its MPI
    // library's) become visible to plugins loaded later.
    void promote_global() {
        if (global_) return;
        ::dlerror();
        void* again = ::dlopen(path_.c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
        if (again == nullptr) fail("cannot make symbols global: " + detail::dl_error_text());
        // The extra reference is dropped again; the promotion to global scope stays.
        ::dlclose(again);
        global_ = true;
    }

    void init(const parbench_init_args& args) {
        std::string message(message_capacity, '\0');
        const parbench_status status =
            descriptor_->init(&args, message.data(), message.size());
        message.resize(std::strlen(message.c_str()));
        // From here on the file stays mapped: a backend that ran (MPI, UCX threads, atexit
        // handlers) may still hold code pointers into it after finalize.
        keep_mapped_ = true;
        if (status == PARBENCH_BAD_INPUT)
            throw plugin_refusal(path_.string() + ": " +
                                 (!message.empty() ? message : std::string("refused to start")));
        if (status != PARBENCH_OK)
            fail("init failed: " + (!message.empty() ? message : std::string("no message")));
        initialised_ = true;
    }

    // The communication service after init; NULL when the plugin offers none.
    [[nodiscard]] const parbench_comm_service* comm() const {
        if (!initialised_ || descriptor_->comm_service == nullptr) return nullptr;
        return descriptor_->comm_service();
    }

    void finalize() {
        if (!initialised_) return;
        initialised_ = false;
        if (descriptor_->finalize == nullptr) return;
        std::string message(message_capacity, '\0');
        if (descriptor_->finalize(message.data(), message.size()) != PARBENCH_OK)
            fail(std::string("finalize failed: ") + message.c_str());
    }

private:
    [[noreturn]] void fail(const std::string& problem) const {
        throw plugin_error(path_.string() + ": " + problem);
    }
    void close() noexcept {
        if (handle_ != nullptr && !keep_mapped_) ::dlclose(handle_);
        handle_ = nullptr;
        descriptor_ = nullptr;
    }
    void release() noexcept {
        if (initialised_) {
            try {
                finalize();
            } catch (...) {  // a destructor cannot report; callers finalise explicitly to see it
            }
        }
        close();
    }

    std::filesystem::path path_;
    void* handle_ = nullptr;
    const parbench_plugin* descriptor_ = nullptr;
    bool initialised_ = false;
    bool global_ = false;
    bool keep_mapped_ = false;
};

}  // namespace parbench::plugin
