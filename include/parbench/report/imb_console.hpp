// The IMB console layout: the header with machine and MPI information, the calling sequence and
// the benchmark list, then one table per block with figure columns from the record's class or the
// suite's declaration (report/columns.hpp). Under the IMB 2021.11 methodology (the header's
// "methodology") every line is laid out as IMB 2021.11 prints it (src_c/IMB_g_info.c,
// src_c/IMB_output.c, src_cpp/*/*_suite.cpp; the IMB-P2P and IMB-MT tables as src_c/P2P/imb_p2p.c
// and src_cpp/MT/MT_benchmark.h print theirs); under IMB 4.0 as the catalogue's §A.7 shows it.
// docs/methodology.md, "Console layout", lists what still differs and why. parbench appends the
// median and the relative half-width of its 95 % confidence interval to every table, a defects
// column in check mode, and after a row whose figures are not to be read at face value
// (report/stability.hpp) a '!' with the reason.
#pragma once

#include <parbench/report/columns.hpp>
#include <parbench/report/imb_context.hpp>
#include <parbench/report/imb_header.hpp>
#include <parbench/report/reporter.hpp>
#include <parbench/report/stability.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace parbench::report {

namespace detail {

// IMB prints every column 13 characters wide, right-aligned, times with two decimals.
inline constexpr int imb_column_width = 13;

// What IMB 2021.11 prints after a size's column where the size ran out of the block's -time
// budget (IMB_output.c:383, SAMPLE_FAILED_TIME_OUT), word for word so that readers of IMB's
// output take it as IMB's (SECS_PER_SAMPLE is IMB's compile-time default of -time).
inline constexpr const char* imb_time_out_text =
    " time-out.; Time limit (secs_per_sample * msg_sizes_list_len) is over; use \"-time X\" or "
    "SECS_PER_SAMPLE=X (IMB_settings.h) to increase time limit.";

// What IMB 2021.11 prints after a size's column where the size's buffers would exceed -mem
// (IMB_output.c:366-370, SAMPLE_FAILED_MEMORY): "needed X" is the need in GB (2^30 bytes) plus
// 0.001, as IMB writes (1000 * used_mem + 1) / 1000.
[[nodiscard]] inline std::string imb_out_of_memory_text(std::uint64_t need_bytes) {
    const double gb = static_cast<double>(need_bytes) / 1073741824.0;
    return fmt::format(" out-of-mem.; needed X={:8.3f} GB; use flag \"-mem X\" or MAX_MEM_USAGE>=X "
                       "(IMB_mem_info.h)",
                       (1000.0 * gb + 1.0) / 1000.0);
}

// The table a record belongs to: its block, with the -multi 1 group index folded into a column.
[[nodiscard]] inline block_info table_key(const result_record& r) {
    block_info key = r.block;
    key.group = -1;
    return key;
}

// Multiple mode shows single-transfer benchmarks with min/max/avg across groups, as IMB does.
[[nodiscard]] inline bool shows_spread(const result_record& r) {
    switch (r.klass) {
        case benchmark_class::single_transfer:
        case benchmark_class::multiple_transfer:
            return r.block.groups > 1 || r.block.group >= 0 || r.block.title.starts_with("Multi-");
        default: return true;
    }
}

// IMB's figure columns for a record's class: one time column "t" (the slowest rank) for single
// transfers, t_min/t_max/t_avg where the figures spread over ranks or groups, and Mbytes/sec when
// the record has a throughput (the pattern's rule decides: IMB-RMA's parallel transfers have none).
[[nodiscard]] inline std::vector<column> imb_class_columns(const result_record& r) {
    std::vector<column> columns;
    if (shows_spread(r)) {
        columns = {{"t_min_us", "t_min[usec]"}, {"t_max_us", "t_max[usec]"},
                   {"t_avg_us", "t_avg[usec]"}};
    } else {
        columns = {{"t_max_us", "t[usec]"}};
    }
    if (r.throughput_mib_s) columns.push_back({"mbytes_per_s", "Mbytes/sec"});
    return columns;
}

// One line of IMB's run header: "# Label                 : value".
inline void imb_header_line(std::ostream& out, const char* label, const std::string& value) {
    out << fmt::format("# {:<22}: {}\n", label, value);
}

// The start of every IMB component's run header (IMB_output.c, IMB-P2P's print_main_header): the
// title between rules of `rule_width` dashes, then the date, machine and MPI version lines, and
// (parbench's: one install may measure several MPI libraries, one plugin each) the first line of
// the library's MPI_Get_library_version, where the run's context has it.
inline void imb_banner(std::ostream& out, const run_start& start, const imb_header& header,
                       const imb_context& context, std::size_t rule_width) {
    const std::string rule(rule_width, '-');
    out << '#' << rule << '\n';
    out << "#    " << (start.title.empty() ? start.suite : start.title) << '\n';
    out << '#' << rule << '\n';
    // A context of the caller's own may leave a line empty (report/console_run_context.hpp).
    const console_run_context_uname uname =
        context.run.uname.value_or(console_run_context_uname{});
    imb_header_line(out, "Date", context.run.date_text.value_or(""));
    imb_header_line(out, "Machine", uname.machine);
    imb_header_line(out, "System", uname.system);
    imb_header_line(out, "Release", uname.release);
    imb_header_line(out, "Version", uname.version);
    imb_header_line(out, "MPI Version", header.mpi_version);
    if (context.mpi_library) imb_header_line(out, "MPI Library", *context.mpi_library);
}

// How IMB 2021.11 lays out the tables of a component.
enum class imb2021_tables {
    none,     // not the 2021 methodology: the IMB 4.0 layout
    classic,  // IMB_output.c: 13 x columns - 1 dashes, "# Benchmarking X " (IMB-MPI1 to MPI4)
    p2p,      // imb_p2p.c:107-110: 64 dashes, no trailing blanks
    mt,       // MT_benchmark.h:430-436: 77 dashes, "# #processes = P (threads: T)"
};

// What the run header of one IMB 2021.11 component prints differently from the others
// (src_cpp/<SUITE>/<SUITE>_suite.cpp, the block after IMB_general_info()).
struct imb2021_header_rules {
    const char* calling_tail = "";   // after the calling sequence: MPI1/RMA print "# %s \n\n"
    const char* byte_tail = " ";     // "MPI_BYTE " (every component)
    const char* float_tail = "";     // "MPI_FLOAT " in MPI1 only
    bool datatypes = true;           // IMB-IO prints no datatype lines
    const char* closing = "#\n#\n";  // "# \n# \n" in MPI1, RMA and MPI4
    bool comments = true;            // the benchmarks' comments under the list (not MPI1)
};

// The component is the header's part (report/imb_header.hpp); a header without one (a program
// built on parbench::mpi::main) prints the common lines.
[[nodiscard]] inline imb2021_header_rules imb2021_header_of(const std::optional<imb_part>& part) {
    if (!part) return {};
    switch (*part) {
        case imb_part::mpi1:  // MPI1_suite.cpp:790-811
            return {.calling_tail = " ",
                    .float_tail = " ",
                    .closing = "# \n# \n",
                    .comments = false};
        case imb_part::rma:  // RMA_suite.cpp:547-572
            return {.calling_tail = " ", .closing = "# \n# \n"};
        case imb_part::mpi4: return {.closing = "# \n# \n"};  // MPI4_suite.cpp:545-570
        case imb_part::io: return {.datatypes = false};       // IO_suite.cpp:503-524
        case imb_part::ext:                                   // EXT_suite.cpp:500-525
        case imb_part::nbc: break;                            // NBC_suite.cpp:514-539
    }
    return {};
}

// The comments IMB 2021.11 prints under a benchmark's name in the list (src_c/IMB_comments.h;
// every other benchmark has none).
[[nodiscard]] inline std::vector<std::string> imb2021_comments(const std::string& benchmark) {
    if (benchmark == "Compare_and_swap") return {"Uses MPI_INT data type"};
    if (benchmark == "Truly_passive_put")
        return {"The benchmark measures execution time of MPI_Put for 2 cases:",
                "1) The target is waiting in MPI_Barrier call (t_pure value)",
                "2) The target performs computation and then enters MPI_Barrier routine "
                "(t_ovrl value)"};
    return {};
}

// IMB 2021.11's spelling of an IMB-IO benchmark's name: the word after the second underscore
// capitalised (S_Write_Indv, P_IRead_Shared, C_Read_Expl; Open_Close as it is), as its
// catalogue declares them (src_cpp/IO/IO_benchmark.cpp:63-683) and prints them in the list and
// the block titles whatever spelling was typed (imb.cpp:242-253). parbench's names, the IMB 4.0
// guide's S_Write_indv, stay the records' identities (JSON, CSV, comparisons); a "Multi-"
// title keeps its prefix.
[[nodiscard]] inline std::string imb2021_io_name(std::string name) {
    const std::size_t last = name.rfind('_');
    if (last != std::string::npos && last != name.find('_') && last + 1 < name.size())
        name[last + 1] =
            static_cast<char>(std::toupper(static_cast<unsigned char>(name[last + 1])));
    return name;
}

// IMB_print_int_row (IMB_output.c:772-799): " %4d" each, 16 to a line, every line followed by
// "\n# " — so the ranks of a group or of a -map row end with a line "# ".
inline void imb2021_rank_rows(std::ostream& out, const std::vector<int>& ranks,
                              const std::string& after_last = {}) {
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        out << fmt::format(" {:4d}", ranks[i]);
        if ((i + 1) % 16 == 0 || i + 1 == ranks.size()) {
            if (i + 1 == ranks.size()) out << after_last;
            out << "\n# ";
        }
    }
    out << '\n';
}

}  // namespace detail

class imb_console_reporter final : public reporter {
public:
    // The defects column appears when the plugin's header or the driver context says "check".
    explicit imb_console_reporter(std::ostream& out) : out_(out) {}

    // What the tables need from the run's start (the typed header and context, the defects
    // column, the declared columns), without printing the header: for a layout that prints its
    // own header before IMB's tables (imb_p2p_console.hpp, which says `p2p_layout`). A header
    // without the fields every IMB component gives is refused (report/imb_header.hpp).
    void configure(const run_start& start, const nlohmann::json& driver_context,
                   bool p2p_layout = false) {
        header_ = start.header.get<imb_header>();            // report/imb_header.hpp
        context_ = read_imb_context(start, driver_context);  // report/imb_context.hpp
        check_ = header_.check.value_or(false) || context_.run.check;
        declared_ = start.columns;
        // IMB-P2P and IMB-MT (the imb-p2p layout; IMB-MT's header gives its threads per
        // process) exist in IMB 2021 only; the classic components follow the run's methodology.
        if (p2p_layout) {
            tables_ = header_.threads ? detail::imb2021_tables::mt : detail::imb2021_tables::p2p;
        } else if (header_.methodology == "IMB 2021.11") {
            tables_ = detail::imb2021_tables::classic;
        }
        io_names_2021_ =
            tables_ == detail::imb2021_tables::classic && header_.part == imb_part::io;
    }

    // The run's header and context, as configure() read them.
    [[nodiscard]] const imb_header& header() const { return header_; }
    [[nodiscard]] const imb_context& context() const { return context_; }

    void on_run_start(const run_start& start, const nlohmann::json& driver_context) override {
        configure(start, driver_context);
        if (tables_ == detail::imb2021_tables::classic) {
            imb2021_header(start);
            return;
        }
        const imb_header& h = header_;
        detail::imb_banner(out_, start, h, context_, 51);
        out_ << "# MPI Thread Environment: " << h.mpi_thread_environment << "\n\n";
        out_ << "# The number of iterations per message size is cut down\n"
                "# dynamically when a certain run time (per message size sample)\n"
                "# is expected to be exceeded. The time limit per sample is set\n"
                "# through the flag => -time\n\n";
        out_ << "# Calling sequence was:\n\n";
        out_ << "# " << context_.run.calling_sequence.value_or("") << "\n\n";
        if (h.lengths_user_defined.value_or(false)) {
            out_ << "# Message lengths were user defined\n";
        } else {
            // IMB-IO says "io portion" where the others say "message length".
            const std::string length = h.io ? h.io->length_name : "message length";
            out_ << "# Minimum " << length << " in bytes:   " << h.min_bytes << '\n';
            out_ << "# Maximum " << length << " in bytes:   " << h.max_bytes << '\n';
        }
        out_ << "#\n";
        // A component without datatype lines of its own prints IMB's defaults.
        const imb_header_datatypes types = h.datatypes.value_or(imb_header_datatypes{});
        out_ << "# MPI_Datatype                   :   " << types.datatype << '\n';
        out_ << "# MPI_Datatype for reductions    :   " << types.reduction_datatype << '\n';
        out_ << "# MPI_Op                         :   " << types.reduction_op << '\n';
        out_ << "#\n#\n\n";
        out_ << "# List of Benchmarks to run:\n\n";
        for (const auto& name : h.benchmark_list) out_ << "# " << name << '\n';
        out_.flush();
    }

    void on_result(const result_record& r) override {
        open_table_for(r);
        row(r);
        out_.flush();
    }

    // A size that ended its benchmark under IMB 2021 (the -time budget ran out, or its buffers
    // would exceed -mem): IMB's row, the size (after the group's column under -multi 1) and
    // IMB's text instead of figures (IMB_output.c:354-386); the table's heading first where it
    // is the block's first size, as IMB prints it (IMB_output.c:222-224).
    void on_time_out(const result_record& r) override {
        open_table_for(r);
        const std::string group = group_cells(r);  // may end the previous line first
        out_ << group << fmt::format("{:>{}}", r.bytes, detail::imb_column_width)
             << (r.over_memory_need_bytes
                     ? detail::imb_out_of_memory_text(*r.over_memory_need_bytes)
                     : std::string(detail::imb_time_out_text))
             << '\n';
        out_.flush();
    }

    void on_warning(const std::string& message) override {
        close_table();
        out_ << "# WARNING: " << message << '\n';
        out_.flush();
    }

    // IMB ends each table with an empty line, and readers of its output (docs/imb-readers.md)
    // take a table's rows up to one: a line of ours after a row ends the table first, and the
    // next row starts a new one with its heading.
    void close_table() override {
        if (!current_) return;
        out_ << '\n';
        current_.reset();
    }

    void on_run_end(bool completed) override {
        if (completed) out_ << "\n\n# All processes entering MPI_Finalize\n\n";
        out_.flush();
    }

private:
    // IMB 2021.11's run header (IMB_g_info.c:74-256, then the suite's lines after
    // IMB_general_info()). parbench's title names itself (docs/methodology.md), adds the MPI
    // library's line and prints the thread level IMB prints when built with
    // USE_MPI_INIT_THREAD (IMB_g_info.c:224-243).
    void imb2021_header(const run_start& start) {
        const imb_header& h = header_;
        const detail::imb2021_header_rules rules = detail::imb2021_header_of(h.part);
        detail::imb_banner(out_, start, h, context_, 64);
        out_ << "# MPI Thread Environment: " << h.mpi_thread_environment << '\n';
        out_ << "\n\n# Calling sequence was: \n\n";
        out_ << "# " << context_.run.calling_sequence.value_or("") << rules.calling_tail
             << "\n\n";
        const bool io = h.part == imb_part::io;
        if (h.lengths_user_defined.value_or(false)) {
            out_ << (io ? "# IO lengths were user defined\n"
                        : "# Message lengths were user defined\n");
        } else {
            const char* length = io ? "io portion" : "message length";
            out_ << "# Minimum " << length << " in bytes:   " << h.min_bytes << '\n';
            out_ << "# Maximum " << length << " in bytes:   " << h.max_bytes << '\n';
        }
        out_ << "#\n";
        if (rules.datatypes) {
            const imb_header_datatypes types = h.datatypes.value_or(imb_header_datatypes{});
            out_ << "# MPI_Datatype                   :   " << types.datatype << rules.byte_tail
                 << '\n';
            out_ << "# MPI_Datatype for reductions    :   " << types.reduction_datatype
                 << rules.float_tail << '\n';
            out_ << "# MPI_Op                         :   " << types.reduction_op << "  \n";
        }
        out_ << rules.closing << '\n';
        out_ << "# List of Benchmarks to run:\n\n";
        for (std::string name : h.benchmark_list) {
            // IMB 2021 lists the names as given, "(Multi-)" being IMB 4.0's mark of -multi.
            if (name.starts_with("(Multi-)")) name.erase(0, 8);
            if (io_names_2021_) name = detail::imb2021_io_name(std::move(name));
            out_ << "# " << name << '\n';
            if (rules.comments)
                for (const auto& line : detail::imb2021_comments(name))
                    out_ << "#     " << line << '\n';
        }
        out_.flush();
    }

    // IMB-IO 2021.11's three lines before the first table of a run with nonblocking
    // benchmarks, once (original_benchmark.h:180-188): the CPU work's rate, which the header
    // carries where the run prints them (plugins/mpi/imb/run_header.cpp).
    void cpu_exploit_lines() {
        if (cpu_exploit_shown_ || !header_.io || !header_.io->cpu_exploit_mflops) return;
        out_ << "\n\n# For nonblocking benchmarks:\n\n";
        out_ << "# Function CPU_Exploit obtains an undisturbed\n";
        out_ << fmt::format("# performance of {:7.2f} MFlops\n", *header_.io->cpu_exploit_mflops);
        cpu_exploit_shown_ = true;
    }

    // The columns IMB prints for the table: its rule is 13 characters a column, less one
    // (IMB_make_line, IMB_output.c:986-1004, line_len from IMB_print_header).
    [[nodiscard]] std::size_t imb_columns(const result_record& r) const {
        return (context_.group_mode ? 1 : 0) + (r.has_bytes ? 1 : 0) + 1 + figures_.size();
    }

    // IMB 2021.11's block title (IMB_print_header and IMB_show_procids, IMB_output.c:633-688,
    // 920-940; imb_p2p.c:107-110; MT_benchmark.h:430-436).
    void imb2021_title(const result_record& r) {
        const block_info& b = r.block;
        using detail::imb2021_tables;
        const std::size_t dashes = tables_ == imb2021_tables::mt    ? 77
                                   : tables_ == imb2021_tables::p2p ? 64
                                                                    : imb_columns(r) * 13 - 1;
        const std::string rule = '#' + std::string(dashes, '-') + '\n';
        const bool classic = tables_ == imb2021_tables::classic;
        const char* blank = classic ? " " : "";  // "# Benchmarking %s " (IMB_output.c:923-925)
        const std::vector<std::vector<int>>* nodes =
            r.placement && r.placement->run_nodes > 1 ? &r.placement->group_nodes : nullptr;
        out_ << '\n' << rule;
        out_ << "# Benchmarking " << (io_names_2021_ ? detail::imb2021_io_name(b.title) : b.title)
             << blank << '\n';
        if (b.groups > 1) {
            out_ << "# ( " << b.groups << " groups of " << b.processes
                 << " processes each running simultaneous ) \n";
            for (std::size_t g = 0; g < b.group_ranks.size(); ++g) {
                out_ << "# Group  " << g << ": ";
                std::string on_nodes;
                if (nodes != nullptr && nodes->size() == b.group_ranks.size())
                    on_nodes = "   on nodes" + fmt::format(" {}", fmt::join((*nodes)[g], " "));
                detail::imb2021_rank_rows(out_, b.group_ranks[g], on_nodes);
            }
        } else if (!b.rank_order.empty()) {
            out_ << "# #processes = " << b.processes << "; rank order (rowwise): \n";
            for (const auto& matrix_row : b.rank_order) {
                out_ << "# ";
                detail::imb2021_rank_rows(out_, matrix_row);
            }
            if (nodes != nullptr && nodes->size() == 1)
                out_ << "# ( " << r.placement->span() << ": nodes, rank order"
                     << fmt::format(" {}", fmt::join(nodes->front(), " ")) << " )\n";
        } else {
            out_ << "# #processes = " << b.processes;
            if (tables_ == imb2021_tables::mt)
                out_ << " (threads: " << std::max(b.threads, 1) << ')';
            out_ << blank << '\n';
            if (nodes != nullptr && nodes->size() == 1)
                out_ << "# ( " << r.placement->span() << ": nodes"
                     << fmt::format(" {}", fmt::join(nodes->front(), " ")) << " )\n";
        }
        if (b.threads > 0 && tables_ != imb2021_tables::mt)
            out_ << "# #threads = " << b.threads << '\n';
        if (b.waiting > 0)
            out_ << "# ( " << b.waiting << " additional process" << (b.waiting == 1 ? "" : "es")
                 << " waiting in MPI_Barrier)\n";
        // IMB-MT's windowed benchmarks (those with Msg/sec) name their window (MT_benchmark.h:434).
        const bool windowed = std::any_of(figures_.begin(), figures_.end(), [](const column& c) {
            return c.source == "messages_per_s";
        });
        if (tables_ == imb2021_tables::mt && windowed && context_.window_size > 0)
            out_ << "# window_size = " << context_.window_size << '\n';
        out_ << rule;
        if (b.mode == "aggregate") out_ << "#\n#    MODE: AGGREGATE \n#\n";
        if (b.mode == "non_aggregate") out_ << "#\n#    MODE: NON-AGGREGATE \n#\n";
    }

    void begin_table(const result_record& r) {
        if (tables_ != detail::imb2021_tables::none) {
            figures_ = figure_columns(r);
            if (io_names_2021_) cpu_exploit_lines();
            imb2021_title(r);
            headings(r);
            return;
        }
        const block_info& b = r.block;
        const std::string rule(b.groups > 1 ? 77 : 64, '-');
        out_ << "\n#" << rule << '\n';
        out_ << "# Benchmarking " << b.title << '\n';
        // In a run on more than one node, the header names each process's node (a single
        // node's runs print IMB's lines alone).
        const std::vector<std::vector<int>>* nodes =
            r.placement && r.placement->run_nodes > 1 ? &r.placement->group_nodes : nullptr;
        if (b.groups > 1) {
            out_ << "# ( " << b.groups << " groups of " << b.processes
                 << " processes each running simultaneously )\n";
            for (std::size_t g = 0; g < b.group_ranks.size(); ++g) {
                out_ << fmt::format("# Group {:2d}:", g);
                for (int rank : b.group_ranks[g]) out_ << fmt::format("{:5d}", rank);
                if (nodes != nullptr && nodes->size() == b.group_ranks.size())
                    out_ << "   on nodes" << fmt::format(" {}", fmt::join((*nodes)[g], " "));
                out_ << '\n';
            }
        } else if (!b.rank_order.empty()) {
            out_ << "# #processes = " << b.processes << "; rank order (rowwise):\n";
            for (const auto& matrix_row : b.rank_order) {
                out_ << '#';
                for (int rank : matrix_row) out_ << fmt::format("{:5d}", rank);
                out_ << '\n';
            }
            if (nodes != nullptr && nodes->size() == 1)
                out_ << "# ( " << r.placement->span() << ": nodes, rank order"
                     << fmt::format(" {}", fmt::join(nodes->front(), " ")) << " )\n";
        } else {
            out_ << "# #processes = " << b.processes << '\n';
            if (nodes != nullptr && nodes->size() == 1)
                out_ << "# ( " << r.placement->span() << ": nodes"
                     << fmt::format(" {}", fmt::join(nodes->front(), " ")) << " )\n";
        }
        if (b.threads > 0) out_ << "# #threads = " << b.threads << '\n';
        if (b.waiting > 0)
            out_ << "# ( " << b.waiting << " additional processes waiting in MPI_Barrier)\n";
        if (b.mode == "aggregate") out_ << "# ( MODE: AGGREGATE )\n";
        if (b.mode == "non_aggregate") out_ << "# ( MODE: NON-AGGREGATE )\n";
        out_ << '#' << rule << '\n';
        figures_ = figure_columns(r);
        headings(r);
    }

    // The heading line has IMB's headings only (readers of IMB output look each one up:
    // PerfKitBenchmarker's fails on any other). parbench's columns follow IMB's in every row,
    // and their headings stand above them on a '#' line, which readers skip.
    void headings(const result_record& r) {
        std::string head;
        if (tables_ == detail::imb2021_tables::classic && context_.group_mode) {
            head += cell("Group");  // "&Group" (IMB_output.c:856-859)
        } else if (r.block.group >= 0) {
            head += fmt::format("{:>7}", "#group");
        }
        if (r.has_bytes) head += cell("#bytes");
        head += cell("#repetitions");
        for (const column& c : figures_)
            head += fmt::format("{:>{}}", c.heading, column_width(c, detail::imb_column_width));
        std::string ours = fmt::format("{:>16}{:>10}", "t_median[usec]", "ci95[%]");
        if (check_) ours += fmt::format("{:>10}", "defects");
        out_ << '#' << std::string(head.size() - 1, ' ') << ours << '\n';
        out_ << head << '\n';
    }

    // The table of a record's block, begun where the record starts a new one.
    void open_table_for(const result_record& r) {
        const block_info key = detail::table_key(r);
        if (!current_ || !(*current_ == key) || current_benchmark_ != r.benchmark) {
            begin_table(r);
            current_ = key;
            current_benchmark_ = r.benchmark;
        }
    }

    // The group's cell of a -multi 1 row, where the table has one.
    std::string group_cells(const result_record& r) {
        const int w = detail::imb_column_width;
        if (tables_ == detail::imb2021_tables::classic && context_.group_mode) {
            // IMB_output.c:232-238: under -multi 1 each length's rows (one per group) follow an
            // empty line, the group's index in a 13-wide column first ("%13d").
            if (r.block.group <= 0) out_ << '\n';
            return fmt::format("{:>{}}", std::max(r.block.group, 0), w);
        }
        if (r.block.group >= 0) return fmt::format("{:>7}", r.block.group);
        return {};
    }

    void row(const result_record& r) {
        const int w = detail::imb_column_width;
        std::string text = group_cells(r);
        if (r.has_bytes) text += fmt::format("{:>{}}", r.bytes, w);
        text += fmt::format("{:>{}}", r.iterations, w);
        for (const column& c : figures_) text += column_cell(r, c, column_width(c, w));
        const summary& d = r.distribution_us;
        text += fmt::format("{:>16.2f}", d.median);
        if (d.samples > 0 && !has_ci(d)) {
            text += fmt::format("{:>10}", no_ci_cell);
        } else if (d.samples > 0 && d.median > 0.0 && std::isfinite(d.median)) {
            const double half_width = (d.ci_high - d.ci_low) / 2.0;
            text += fmt::format("{:>10.1f}", 100.0 * half_width / d.median);
        } else {
            text += fmt::format("{:>10}", "-");
        }
        if (check_) {
            if (r.defects)
                text += fmt::format("{:>10}", *r.defects);
            else
                text += r.not_verified ? std::string("  ") + not_verified_cell  // never glued
                                  : fmt::format("{:>10}", "-");
        }
        if (const stability verdict = assess_stability(r, context_.timer); !verdict.stable())
            text += "  ! " + verdict.console_note();
        out_ << text << '\n';
    }

    // What the suite declared for this benchmark, else IMB's columns for the record's class.
    [[nodiscard]] std::vector<column> figure_columns(const result_record& r) const {
        if (const auto* declared = declared_columns(declared_, r.benchmark)) return *declared;
        if (tables_ == detail::imb2021_tables::classic) {
            // IMB_output.c:208-217: a single transfer has one time column unless -multi 0
            // (group_mode 0) spreads it over the groups; IMB-RMA's one-to-all transfers
            // (MultPassiveTransfer) always have one.
            const bool multi_0 = !context_.group_mode && r.block.groups > 1;
            const bool one_time = (r.klass == benchmark_class::single_transfer && !multi_0) ||
                                  r.klass == benchmark_class::multiple_transfer;
            if (one_time) {
                std::vector<column> columns = {{"t_max_us", "t[usec]"}};
                if (r.throughput_mib_s) columns.push_back({"mbytes_per_s", "Mbytes/sec"});
                return columns;
            }
        }
        return detail::imb_class_columns(r);
    }

    static std::string cell(const char* text) {
        return fmt::format("{:>{}}", text, detail::imb_column_width);
    }

    std::ostream& out_;
    imb_header header_;    // the run's, from configure()
    imb_context context_;  // the run's, from configure()
    bool check_ = false;
    detail::imb2021_tables tables_ = detail::imb2021_tables::none;
    bool io_names_2021_ = false;  // imb-io under the 2021 layout: IMB 2021's spelling of names
    bool cpu_exploit_shown_ = false;  // imb-io under 2021: the CPU_Exploit lines printed
    std::map<std::string, std::vector<column>> declared_;
    std::vector<column> figures_;  // the current table's figure columns
    std::optional<block_info> current_;
    std::string current_benchmark_;
};

}  // namespace parbench::report
