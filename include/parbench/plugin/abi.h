/* parbench plugin ABI — pure C, stable across compilers and standard libraries.
 *
 * A plugin is a shared module that exports exactly one symbol, PARBENCH_ENTRY_SYMBOL, a function
 * returning a pointer to a static parbench_plugin descriptor. No C++ types and no exceptions
 * cross this boundary: every callback returns a parbench_status and, on failure, writes a
 * one-line, NUL-terminated message into the caller's buffer.
 *
 * Structured data (run requests, results, run-start headers) crosses as UTF-8 JSON text whose
 * schema is versioned by PARBENCH_EVENT_SCHEMA (see docs/plugin-authors.md). Keeping the C
 * surface this small is what lets the host accept plugins built by a different compiler.
 *
 * Versioning: a host accepts a plugin when abi_major matches exactly and struct_size is at least
 * the size of the fields the host reads. Minor versions only append fields (use the reserved
 * slots first); a host reads appended fields only when abi_minor says they exist.
 *
 * ABI 1.1 gave two of parbench_plugin's reserved slots to parameter_types (the value type of
 * suite parameters). A 1.0 plugin still loads: its parameters are plain text, as before. */
#ifndef PARBENCH_PLUGIN_ABI_H
#define PARBENCH_PLUGIN_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PARBENCH_ABI_MAJOR 1u
#define PARBENCH_ABI_MINOR 1u
#define PARBENCH_ENTRY_SYMBOL "parbench_plugin_entry_v1"
#define PARBENCH_EVENT_SCHEMA 1

typedef enum parbench_status {
    PARBENCH_OK = 0,
    PARBENCH_ERROR = 1,     /* the plugin or its backend failed */
    PARBENCH_BAD_INPUT = 2, /* the user's request is invalid; the message says why */
} parbench_status;

/* How many values a suite parameter takes on the command line. */
typedef enum parbench_arity {
    PARBENCH_ARITY_FLAG = 0, /* -check */
    PARBENCH_ARITY_ONE = 1,  /* -msglog 0:20 */
    PARBENCH_ARITY_LIST = 2, /* -include A B C (until the next option) */
    /* A flag that may carry one value, attached, never the next word (getopt's optional
     * argument, "c::"): -c, -c=VALUE, --c=VALUE, and for a one-letter name -cVALUE (OSU's
     * -clog:DIR). The plugin receives true, or the value. A host older than this arity refuses
     * the plugin naming it. */
    PARBENCH_ARITY_ATTACHED = 3,
} parbench_arity;

/* ABI 1.1: the type of a suite parameter's value. The host validates every value of a typed
 * parameter before the run (one line "-NAME VALUE: why" and exit status 2 otherwise), shows its
 * choices in --help, and hands the plugin the value as typed JSON (see docs/plugin-authors.md). */
typedef enum parbench_value_kind {
    PARBENCH_VALUE_TEXT = 0,    /* any text; the plugin judges it (every ABI 1.0 parameter) */
    PARBENCH_VALUE_COUNT = 1,   /* a whole number -> JSON unsigned integer */
    PARBENCH_VALUE_BYTES = 2,   /* a whole number of bytes -> JSON unsigned integer */
    PARBENCH_VALUE_SECONDS = 3, /* a number of seconds -> JSON number */
    PARBENCH_VALUE_RANGE = 4,   /* [MIN:]MAX of whole numbers -> {"min": MIN (if given), "max": MAX} */
    PARBENCH_VALUE_CHOICE = 5,  /* one of choices, as spelt there -> JSON string */
    PARBENCH_VALUE_SWITCH = 6,  /* 0|1, off|on, no|yes, false|true -> JSON boolean */
} parbench_value_kind;

enum {
    PARBENCH_TYPE_MIN = 1u << 0, /* min is an inclusive lower bound */
    PARBENCH_TYPE_MAX = 1u << 1, /* max is an inclusive upper bound */
};

/* One typed parameter. A list parameter (PARBENCH_ARITY_LIST) types each of its words; a flag
 * takes no type. Parameters without a row stay text. */
typedef struct parbench_parameter_type {
    const char* suite;     /* parbench_suite.name */
    const char* parameter; /* parbench_parameter.name in that suite */
    uint32_t kind;         /* parbench_value_kind */
    uint32_t flags;        /* PARBENCH_TYPE_*: which bounds hold (count, bytes, seconds, range) */
    double min;
    double max;
    const char* const* choices; /* CHOICE: the accepted words */
    size_t choice_count;
    void* reserved[2];
} parbench_parameter_type;

typedef struct parbench_parameter {
    const char* name;         /* without dashes: "msglog"; accepted as -msglog and --msglog */
    const char* metavar;      /* "[MIN:]MAX"; may be NULL */
    const char* description;  /* one line */
    const char* default_text; /* shown in help; NULL when there is none */
    uint32_t arity;           /* parbench_arity */
} parbench_parameter;

enum {
    PARBENCH_BENCH_DEFAULT = 1u << 0,   /* part of the suite's default run */
    PARBENCH_BENCH_TEST_ONLY = 1u << 1, /* fault-injection kernels: hidden from list and defaults */
    PARBENCH_BENCH_NO_VERIFY = 1u << 2, /* has no data verification: -check has nothing to check
                                           (the host refuses or names it before the run) */
    PARBENCH_BENCH_THREAD_MULTIPLE = 1u << 3, /* calls MPI from several threads at once: when it
                                           is chosen and -thread_level is not given, the host
                                           initialises MPI at MPI_THREAD_MULTIPLE */
};

typedef struct parbench_benchmark {
    const char* name;        /* canonical spelling, matched case-insensitively */
    const char* description; /* one line */
    const char* klass;       /* "single_transfer", "parallel_transfer", "collective", "compute", ... */
    uint32_t flags;          /* PARBENCH_BENCH_* */
} parbench_benchmark;

enum {
    PARBENCH_SUITE_NEEDS_MPI = 1u << 0,    /* cannot run without the communication service */
    PARBENCH_SUITE_MULTI_NAMES = 1u << 1,  /* a benchmark name may carry IMB's "Multi-" prefix
                                              (multiple mode), e.g. Multi-PingPong, and names
                                              may come as IMB 2021's comma list, A,B */
    PARBENCH_SUITE_DAT_FILES = 1u << 2,    /* its console layout writes files of its own into
                                              --dat-dir (PAW's .dat files): the driver checks
                                              that directory and reserves their names before
                                              the run, --dat-dir given or not */
};

typedef struct parbench_suite {
    const char* name;        /* "imb-mpi1" */
    const char* description; /* one line */
    const parbench_benchmark* benchmarks;
    size_t benchmark_count;
    const parbench_parameter* parameters; /* the suite's own options, on top of the common ones */
    size_t parameter_count;
    uint32_t flags; /* PARBENCH_SUITE_* */
} parbench_suite;

enum { PARBENCH_OP_SUM = 0, PARBENCH_OP_MIN = 1, PARBENCH_OP_MAX = 2 };

/* The communication service: offered by the MPI plugin, used by the host and other plugins to
 * combine statistics and agree on decisions. All calls are collective over all processes of the
 * run except rank/size/wtime/abort. Valid between the offering plugin's init and finalize. */
typedef struct parbench_comm_service {
    uint32_t struct_size;
    int (*rank)(void);
    int (*size)(void);
    int (*barrier)(void);
    int (*broadcast)(void* data, size_t bytes, int root);
    int (*allreduce_f64)(double* inout, size_t count, int op); /* PARBENCH_OP_* */
    /* recv holds size()*bytes at root (ignored elsewhere) */
    int (*gather_bytes)(const void* send, size_t bytes, void* recv, int root);
    void (*abort)(int exit_code); /* tears down every process of the run; does not return */
    double (*wtime)(void);
    /* Processes of the run on this process's node, as MPI sees nodes (MPI_Comm_split_type).
     * Collective. In 1.1's reserved room: NULL from an MPI plugin that predates it. */
    int (*processes_on_node)(void);
    void* reserved[3];
} parbench_comm_service;

/* What the host offers a plugin during run(). */
typedef struct parbench_host {
    uint32_t struct_size;
    void* context;
    /* A JSON event: {"event":"run_start"|"result"|"warning"|"note", ...}. Results are emitted on
     * rank 0 of the run (after cross-rank reduction); warnings on any rank. */
    void (*emit)(void* context, const char* event_json);
    /* Called on every rank before each measurement starts; arms the time limit and progress. */
    void (*progress)(void* context, const char* benchmark, uint64_t bytes, int processes);
    /* NULL when the run is single-process (no MPI plugin loaded). */
    const parbench_comm_service* comm;
    void* reserved[4];
} parbench_host;

typedef struct parbench_init_args {
    uint32_t struct_size;
    int* argc;                /* may be NULL */
    char*** argv;             /* may be NULL */
    const char* thread_level; /* "single", "funneled", "serialized", "multiple"; NULL: default */
    const parbench_comm_service* comm; /* another plugin's service, or NULL */
    void* reserved[4];
} parbench_init_args;

typedef struct parbench_plugin {
    uint32_t abi_major;   /* PARBENCH_ABI_MAJOR */
    uint32_t abi_minor;   /* PARBENCH_ABI_MINOR */
    uint32_t struct_size; /* sizeof(parbench_plugin) as the plugin was built */
    const char* name;     /* "mpi" */
    const char* version;  /* "0.1.0" */
    /* Text about the backend (library versions, configuration). Callable before init. */
    const char* (*backend_info)(void);
    /* PARBENCH_ERROR: the plugin or its backend failed ("FILE: init failed: MESSAGE", exit
     * status 1). PARBENCH_BAD_INPUT: it refuses to start as launched, before touching its
     * backend, as every process of the run would ("FILE: MESSAGE", said once, exit status 2, as
     * the host's own refusals); a host older than this comment treats it as PARBENCH_ERROR. */
    parbench_status (*init)(const parbench_init_args* args, char* error, size_t error_size);
    parbench_status (*finalize)(char* error, size_t error_size);
    const parbench_suite* suites;
    size_t suite_count;
    /* The plugin's communication service after init, or NULL if it offers none. May be NULL. */
    const parbench_comm_service* (*comm_service)(void);
    /* Runs the request (JSON, see docs/plugin-authors.md) and reports through host->emit. */
    parbench_status (*run)(const char* request_json, const parbench_host* host, char* error,
                           size_t error_size);
    /* ABI 1.1 (read only when abi_minor >= 1): value types of suite parameters. May be NULL. */
    const parbench_parameter_type* parameter_types;
    size_t parameter_type_count;
    void* reserved[6];
} parbench_plugin;

typedef const parbench_plugin* (*parbench_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* PARBENCH_PLUGIN_ABI_H */
