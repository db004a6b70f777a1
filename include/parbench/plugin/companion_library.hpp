// A heavy library a plugin loads on first use, from the plugin's own directory.
//
// Without a fresh plugin manifest (plugin/manifest.hpp), every rank of every run probes every
// plugin file (plugin/registry.hpp), and `parbench list` always does, so whatever a plugin links
// is mapped that many times over: cuBLAS alone adds about 150 MiB per process, the OpenMP
// offload runtime about 50 MiB. A plugin therefore links only what describing itself needs and
// puts the heavy calls behind a small C surface in a companion library, installed beside it and
// opened with dlopen when a benchmark that needs it starts. The plugin finds that file next to
// itself (dladdr on an address inside the plugin), not through LD_LIBRARY_PATH.
#pragma once

#include <dlfcn.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace parbench::plugin {

// Opening a companion library or one of its functions failed. what() is one line that starts
// with the file's path.
class companion_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// An opened companion library. It is never closed: the libraries behind it (CUDA, the OpenMP
// offload runtime) register handlers and threads that outlive any one benchmark, and a process
// opens each companion once.
class companion_library {
public:
    // Opens `file` with RTLD_NOW | RTLD_LOCAL, as the plugins themselves are opened.
    explicit companion_library(std::filesystem::path file) : file_(std::move(file)) {
        ::dlerror();
        handle_ = ::dlopen(file_.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (handle_ == nullptr) fail("cannot be loaded (" + loader_text() + ")");
    }

    // Opens `file_name` in the directory of the shared object that contains `anchor`: pass the
    // address of a function or object defined in the plugin.
    [[nodiscard]] static companion_library beside(const void* anchor, std::string_view file_name) {
        return companion_library(directory_of(anchor) / file_name);
    }

    // The directory of the shared object (or executable) that contains `anchor`.
    [[nodiscard]] static std::filesystem::path directory_of(const void* anchor) {
        Dl_info info{};
        if (::dladdr(anchor, &info) == 0 || info.dli_fname == nullptr)
            throw companion_error("cannot tell which file holds the plugin (dladdr failed)");
        return std::filesystem::path(info.dli_fname).parent_path();
    }

    // The function `name` of the library, as a pointer of type Function.
    template <class Function>
    [[nodiscard]] Function function(const char* name) const {
        ::dlerror();
        void* symbol = ::dlsym(handle_, name);
        if (symbol == nullptr) fail(std::string("has no function ") + name);
        return reinterpret_cast<Function>(symbol);
    }

    [[nodiscard]] const std::filesystem::path& file() const noexcept { return file_; }

private:
    [[noreturn]] void fail(const std::string& problem) const {
        throw companion_error(file_.string() + ": " + problem);
    }
    // dlerror() without the file name it usually starts with (the message names the file once).
    [[nodiscard]] std::string loader_text() const {
        const char* text = ::dlerror();
        std::string s = text != nullptr ? text : "unknown dynamic loader error";
        const std::string prefix = file_.string() + ": ";
        if (s.starts_with(prefix)) s.erase(0, prefix.size());
        return s;
    }

    std::filesystem::path file_;
    void* handle_ = nullptr;
};

}  // namespace parbench::plugin
