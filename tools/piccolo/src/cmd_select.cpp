// piccolo select: which algorithm and which k, per collective, message size and scale, by
// simulating every candidate (sim/select). Prints a table, or CSV/JSON/YAML, and writes tuning
// files for MPICH, Open MPI and PICCL with --emit KIND -o FILE.
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "command_line.hpp"
#include "common_options.hpp"
#include "machine_option.hpp"
#include "mpich_detect.hpp"
#include "piccolo/cli/commands.hpp"
#include "piccolo/core/error.hpp"
#include "piccolo/core/size_parse.hpp"
#include "piccolo/emit/select_emit.hpp"
#include "piccolo/select/select.hpp"
#include "piccolo/studies/report.hpp"
#include "piccolo/topologies/machine_io.hpp"
#include "style_option.hpp"
#include "text_files.hpp"

namespace piccolo::cli {

namespace {

struct SelectOptions {
    std::string machine{default_preset_name()};
    std::vector<std::string> sets;  // --set overrides
    std::vector<std::string> collectives;
    std::vector<std::string> algorithms;
    std::vector<std::string> radices;
    std::vector<std::string> sizes;
    std::vector<std::string> nodes;
    int ppn = 0;
    int threads = 0;
    bool no_contention = false;
    bool simulate_all = false;  // no candidate left out by its lower bound
    bool quiet = false;         // nothing on stdout, no notes, no progress bar
    bool verbose = false;       // how the large candidates were replayed, and what the sweep cost
    std::string format = "table";
    std::vector<std::string> emits;
    std::vector<std::string> outputs;
    std::string piccl_size;
    std::string mpich_base;
    std::string mpich_version;  // empty: from mpichversion, else the newest known
    std::string style;          // empty: from the outputs, else the machine's, else mpi
    std::string report;         // --report FILE.html
    std::string memory_budget;  // --memory-budget SIZE; empty: the default share
    // Set by add_select_command: the options whose order pairs --emit with -o.
    const CLI::App* app = nullptr;
    const CLI::Option* emit_option = nullptr;
    const CLI::Option* output_option = nullptr;
    const CLI::Option* sizes_option = nullptr;
    const CLI::Option* ppn_option = nullptr;
    const CLI::Option* threads_option = nullptr;
    SweepHooks hooks;
};

struct Destination {
    EmitKind kind;
    std::string file;  // "-" = stdout
};

// --emit KIND -o FILE pairs, in command-line order; an -o that follows no --emit is the file of
// the main --format output.
EmitKind emit_kind(std::string_view option, const std::string& name) {
    try {
        return parse_emit_kind(name);
    } catch (const InputError& e) {
        throw InputError(fmt::format("{}: {}", option, e.what()));
    }
}

std::vector<Destination> destinations(const SelectOptions& o) {
    const EmitKind main_kind = emit_kind("--format", o.format);
    if (main_kind != EmitKind::table && main_kind != EmitKind::csv && main_kind != EmitKind::json &&
        main_kind != EmitKind::yaml)
        throw InputError(
            fmt::format("--format: '{}' is not one of table, csv, json, yaml (write "
                        "{} with --emit {} -o FILE)",
                        o.format, o.format, o.format));
    std::vector<Destination> out;
    std::size_t next_emit = 0, next_output = 0;
    std::optional<EmitKind> pending;
    std::optional<std::string> main_file;
    for (const CLI::Option* opt : o.app->parse_order()) {
        if (opt == o.emit_option) {
            if (pending)
                throw InputError(
                    fmt::format("--emit {}: give its file with -o FILE right after "
                                "it",
                                to_string(*pending)));
            pending = emit_kind("--emit", o.emits[next_emit++]);
        } else if (opt == o.output_option) {
            const std::string& file = o.outputs[next_output++];
            if (pending) {
                out.push_back({*pending, file});
                pending.reset();
            } else if (main_file) {
                throw InputError(
                    fmt::format("-o {}: the table/--format output already goes to "
                                "{}; put --emit KIND before each further -o",
                                file, *main_file));
            } else {
                main_file = file;
            }
        }
    }
    if (pending)
        throw InputError(fmt::format("--emit {}: give its file with -o FILE right after it",
                                     to_string(*pending)));
    out.insert(out.begin(), {main_kind, main_file.value_or("-")});
    return out;
}

// The style the candidates are simulated in: --style, else the one of the implementation a tuning
// file is written for (MPI libraries run the mpi style, PICCL the nccl style), else the machine's.
Style selection_style(const SelectOptions& o, const std::vector<Destination>& outputs,
                      const Machine& machine) {
    if (!o.style.empty()) return parse_style_option(o.style);
    std::optional<std::pair<Style, EmitKind>> wanted;
    for (const Destination& d : outputs) {
        std::optional<Style> style;
        if (d.kind == EmitKind::mpich_json || d.kind == EmitKind::openmpi_rules) style = Style::mpi;
        if (d.kind == EmitKind::piccl_env) style = Style::nccl;
        if (!style) continue;
        if (wanted && wanted->first != *style)
            throw InputError(fmt::format(
                "--style: --emit {} is simulated in the {} style and --emit {} in the {} style; "
                "write them in two runs, or choose one with --style",
                to_string(wanted->second), to_string(wanted->first), to_string(d.kind),
                to_string(*style)));
        wanted = std::pair(*style, d.kind);
    }
    if (wanted) return wanted->first;
    return machine.style.value_or(Style::mpi);
}

// The MPICH series an mpich-json file is written for, and why (stated with the file).
void choose_mpich_version(const SelectOptions& o, EmitOptions& options) {
    if (!o.mpich_version.empty()) {
        options.mpich_version = o.mpich_version;
        options.mpich_version_origin = "--mpich-version";
        return;
    }
    const std::string newest(mpich_series_known().back());
    const std::optional<std::string> installed = installed_mpich_release();
    const std::string series = installed ? mpich_series(*installed) : std::string();
    options.mpich_version = series.empty() ? newest : series;
    if (!series.empty())
        options.mpich_version_origin = fmt::format("mpichversion reports MPICH {}", *installed);
    else if (installed)
        options.mpich_version_origin = fmt::format(
            "mpichversion reports MPICH {}, which piccolo does not know: the newest it knows; "
            "choose with --mpich-version",
            *installed);
    else
        options.mpich_version_origin =
            "no mpichversion found: the newest piccolo knows; choose with --mpich-version";
}

// A progress bar on stderr, only for a terminal and only once the sweep has run for 2 s: short
// runs and redirected output stay clean.
class ProgressBar {
  public:
    ProgressBar(const SweepProgress& progress, bool quiet) {
        if (!quiet && isatty(STDERR_FILENO) != 0)
            thread_ =
                std::jthread([this, &progress](std::stop_token stop) { run(progress, stop); });
    }

  private:
    void run(const SweepProgress& progress, const std::stop_token& stop) {
        const auto start = std::chrono::steady_clock::now();
        bool shown = false;
        std::unique_lock lock(mutex_);
        // Wakes every 100 ms, or at once when the sweep ends (the jthread requests the stop).
        while (!wake_.wait_for(lock, stop, std::chrono::milliseconds(100), [] { return false; })) {
            if (stop.stop_requested()) break;
            if (std::chrono::steady_clock::now() - start < std::chrono::seconds(2)) continue;
            constexpr int width = 40;
            const double done = std::min(1.0, progress.fraction());
            const int filled = static_cast<int>(done * width);
            const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
            fmt::print(stderr, "\rpiccolo select: [{}{}] {:3.0f}%{}\033[K",
                       std::string(filled, '#'), std::string(width - filled, '.'), 100 * done,
                       time_left(elapsed.count(), done));
            std::fflush(stderr);
            shown = true;
        }
        if (shown) fmt::print(stderr, "\r\033[K");
    }

    // The time left if the rest goes at the pace so far (progress counts simulated tasks, so a
    // sweep's large candidates weigh what they cost); nothing until 1 % is done.
    static std::string time_left(double elapsed_seconds, double done) {
        if (done < 0.01 || done >= 1) return "";
        const double left = elapsed_seconds * (1 - done) / done;
        if (left < 90) return fmt::format(", about {:.0f} s left", left);
        if (left < 5400) return fmt::format(", about {:.0f} min left", left / 60);
        return fmt::format(", about {:.1f} h left", left / 3600);
    }

    std::mutex mutex_;
    std::condition_variable_any wake_;
    std::jthread thread_;  // last: joined before the members it uses are destroyed
};

// --verbose: one line per large candidate, then the sweep's cost (thread time summed over jobs).
void print_sweep_details(const SelectResult& result) {
    for (const std::string& line : result.engine_choices)
        fmt::print(stderr, "piccolo: engine: {}\n", line);
    const SweepStats& s = result.stats;
    fmt::print(stderr,
               "piccolo: sweep: {} candidates, {} distinct schedules, {} simulations of {} tasks "
               "in all ({} more of {} tasks left out by lower bounds, {} stopped once past what "
               "matters); generating {:.2f} s, bounding {:.2f} s, simulating {:.2f} s (thread "
               "time)\n",
               s.candidates, s.distinct_schedules, s.simulations, s.simulated_tasks, s.bounded,
               s.bounded_tasks, s.stopped, s.generate_seconds, s.bound_seconds, s.simulate_seconds);
    for (const JobCost& job : s.costliest)
        fmt::print(stderr,
                   "piccolo: sweep: {}: {:.2f} s (generating {:.2f}, bounding {:.2f}, simulating "
                   "{:.2f}; thread time), {} simulations, {} left out by lower bounds, {} "
                   "stopped\n",
                   job.candidate, job.seconds(), job.generate_seconds, job.bound_seconds,
                   job.simulate_seconds, job.simulations, job.left_out, job.stopped);
}

// The request the command line asks for; every error in it is an InputError.
SelectRequest select_request(const SelectOptions& o) {
    SelectRequest request;
    request.machine = load_machine_with(o.machine, o.sets);
    if (!o.collectives.empty()) request.collectives = parse_select_collectives(o.collectives);
    for (const std::string& name : o.algorithms)
        if (!name.empty()) request.algorithms.push_back(name);
    request.radices = parse_int_list(o.radices, "-k", false);
    if (o.sizes_option->count() > 0) request.sizes = parse_size_list(o.sizes);
    if (o.ppn_option->count() > 0 && o.ppn < 1)
        throw InputError(fmt::format("--ppn: must be >= 1 (got {})", o.ppn));
    const int ppn = o.ppn_option->count() > 0 ? o.ppn : request.machine.devices_per_node();
    std::vector<int> node_counts = parse_int_list(o.nodes, "--nodes", true);
    if (node_counts.empty())
        for (const Scale& s : default_select_scales(request.machine))
            node_counts.push_back(s.nodes);
    for (int n : node_counts) request.scales.push_back({n, ppn});
    if (o.threads_option->count() > 0 && o.threads < 1)
        throw InputError(fmt::format("--threads: must be >= 1 (got {})", o.threads));
    request.threads = o.threads_option->count() > 0 ? o.threads : 0;  // 0: every core
    request.contention = !o.no_contention;
    if (o.simulate_all) request.bound_min_tasks = 0;
    if (!o.memory_budget.empty())
        request.memory_budget = parse_bytes(o.memory_budget, "--memory-budget");
    return request;
}

// The notes go where the outputs carry them (table, JSON, YAML), else to stderr; each output is
// written, then the HTML report.
void write_outputs(const SelectOptions& o, const std::vector<Destination>& outputs,
                   const EmitOptions& emit_options, const Machine& machine, SelectResult result) {
    const bool notes_written =
        std::any_of(outputs.begin(), outputs.end(), [](const Destination& d) {
            return d.kind == EmitKind::table || d.kind == EmitKind::json ||
                   d.kind == EmitKind::yaml;
        });
    if (!o.quiet && !notes_written)
        for (const std::string& note : result.notes)
            fmt::print(stderr, "piccolo: note: {}\n", note);
    if (result.stats.memory_waits > 0)
        fmt::print(stderr,
                   "piccolo: note: the memory budget ({:.0f} MiB for the jobs) made free threads "
                   "wait {} time(s) for a job to end; a larger --memory-budget runs more jobs at "
                   "once\n",
                   static_cast<double>(result.stats.memory_budget) / (1 << 20),
                   result.stats.memory_waits);
    for (const Destination& d : outputs) {
        if (o.quiet && d.file == "-") continue;
        const Emitted emitted = emit(d.kind, result, emit_options);
        write_text_file(d.file, emitted.text);
        if (!o.quiet)
            for (const std::string& remark : emitted.remarks)
                fmt::print(stderr, "piccolo: note: {}\n", remark);
    }
    if (!o.report.empty()) {
        Comparison one;
        one.machines.push_back(machine);
        one.notes = result.notes;
        one.results.push_back(std::move(result));
        write_text_file(o.report, report_html(one, this_command_line()));
    }
}

void run_select(const SelectOptions& o) {
    // Everything that can be wrong with the command line is reported before the sweep starts.
    SelectRequest request = select_request(o);
    request.runner = o.hooks.runner;
    const bool writes = o.hooks.writes;
    EmitOptions emit_options;
    if (!o.piccl_size.empty()) emit_options.piccl_bytes = parse_bytes(o.piccl_size, "--size");
    if (!o.mpich_base.empty()) {
        emit_options.mpich_base = o.mpich_base;
        emit_options.mpich_base_text = read_text_file(o.mpich_base);
    }
    const std::vector<Destination> outputs = destinations(o);
    for (const Destination& d : outputs)
        if (d.kind == EmitKind::mpich_json && emit_options.mpich_version.empty() && writes)
            choose_mpich_version(o, emit_options);
    request.style = selection_style(o, outputs, request.machine);
    const std::vector<std::uint64_t> sizes =
        request.sizes.empty() ? default_select_sizes() : request.sizes;
    for (const Destination& d : outputs) {
        check_emit(d.kind, request.collectives, request.scales.size(), sizes, emit_options);
        if (writes) check_writable(d.file);
    }
    if (!o.report.empty() && writes) check_writable(o.report);

    SweepProgress progress;
    request.progress = &progress;
    SelectResult result;
    {
        ProgressBar bar(progress, o.quiet || !writes);
        result = select(request);
    }
    if (!writes) return;
    if (o.verbose) print_sweep_details(result);
    write_outputs(o, outputs, emit_options, request.machine, std::move(result));
}

// The options of the tuning files (--emit mpich-json, openmpi-rules, piccl-env).
void add_tuning_file_options(CLI::App& cmd, SelectOptions& o) {
    cmd.add_option("--size", o.piccl_size,
                   "piccl-env: the message size to write PICCL settings for (one of --sizes)");
    cmd.add_option("--mpich-version", o.mpich_version,
                   fmt::format("mpich-json: the MPICH to write for: {} or a release such as "
                               "4.0.2 (default: the one mpichversion reports, else the newest)",
                               fmt::join(mpich_series_known(), ", ")));
    cmd.add_option("--mpich-base", o.mpich_base,
                   "mpich-json: a tuning file whose other collectives' rules to keep instead of "
                   "the version's built-in ones (e.g. MPICH_SRC/maint/tuning/coll/mpir/"
                   "generic.json)");
}

}  // namespace

void add_select_command(CLI::App& app) {
    add_select_command_with(app, SweepHooks{});
}

void add_select_command_with(CLI::App& app, const SweepHooks& hooks) {
    auto o = std::make_shared<SelectOptions>();
    o->hooks = hooks;
    CLI::App* cmd = app.add_subcommand(
        "select",
        "Choose the algorithm and k per collective, message size and scale by simulating every "
        "candidate (defaults: delta preset, allgather and allreduce, all algorithms but bruck, "
        "every valid k, 8 B..64 MiB, 1..64 nodes; -c all adds bcast, reduce, reduce_scatter and "
        "alltoall with every algorithm that builds them)");
    cmd->add_option("--machine,-m", o->machine, "preset name or machine file (YAML, PICCL XML)")
        ->capture_default_str();
    add_set_option(*cmd, o->sets);
    cmd->add_option("--collective,-c", o->collectives,
                    "collectives, a list: allgather, allreduce, bcast, reduce, reduce_scatter, "
                    "alltoall, or all for every one (default: allgather,allreduce; bcast and "
                    "reduce at root 0)")
        ->delimiter(',');
    cmd->add_option("--algorithms,-a", o->algorithms,
                    "algorithms to rank, e.g. rm,prm,k-ring (default: every algorithm that builds "
                    "the collective, but bruck, which runs only when named; the baseline, ring "
                    "and rd, binomial or pairwise, is always simulated)")
        ->delimiter(',');
    cmd->add_option(
           "-k,--radices", o->radices,
           "candidate k for k-ring/rm/prm/bruck/knomial: list or range, e.g. 2,4,8 or 2-16 (default: "
           "every valid k)")
        ->delimiter(',');
    o->sizes_option =
        cmd->add_option("--sizes,-s", o->sizes,
                        "message sizes, MPICH's count (allgather: per-rank contribution; "
                        "allreduce, bcast, reduce: the buffer; reduce_scatter: the block each "
                        "rank ends with; alltoall: the block each rank sends each rank): list or "
                        "doubling range, e.g. 8,1KiB or 8-64MiB (default 8-64MiB)")
            ->delimiter(',');
    add_nodes_option(*cmd, o->nodes,
                     "node counts: list or doubling range, e.g. 1,4,16 or 1-64 (default 1-64)")
        ->delimiter(',');
    o->ppn_option =
        add_ppn_option(*cmd, o->ppn, "ranks per node (default: the machine's devices per node)");
    o->threads_option =
        cmd->add_option("--threads,-j", o->threads, "worker threads (default: every core)");
    cmd->add_option("--memory-budget", o->memory_budget,
                    "memory the sweep may hold, e.g. 4GiB: jobs run in parallel only while their "
                    "estimates fit, and a candidate that cannot fit alone is refused before the "
                    "sweep starts, or left out with a note when it is a default k (no -k) of "
                    "k-ring, rm or prm (default: half of the available memory)");
    add_style_option(*cmd, o->style,
                     "mpi when writing an MPI tuning file, nccl for piccl-env, else the machine's "
                     "style, else mpi");
    cmd->add_flag("--no-contention", o->no_contention,
                  "no queueing: as many device slots as a rank sends at once (a reused slot keeps "
                  "its gap g), unlimited lanes and capacities, offloaded overheads");
    cmd->add_flag(
        "--simulate-all", o->simulate_all,
        "simulate every candidate at every size, also the large ones whose makespan lower "
        "bound shows they are neither the best nor the runner-up (slower; JSON then "
        "lists every k's time)");
    add_format_option(*cmd, o->format, "stdout/-o format: table, csv, json or yaml");
    o->output_option = cmd->add_option(
        "-o,--output", o->outputs,
        "file for the --format output, or, right after --emit KIND, for that output");
    o->emit_option = cmd->add_option("--emit,-e", o->emits,
                                     "also write KIND to the -o FILE that follows: table, csv, "
                                     "json, yaml, mpich-json, openmpi-rules, piccl-env "
                                     "(repeatable)");
    add_tuning_file_options(*cmd, *o);
    cmd->add_option("--report", o->report,
                    "also write a self-contained HTML report: best choice maps, speedup curves, "
                    "the machine's parameters");
    cmd->add_flag("--verbose,-v", o->verbose,
                  "also print on stderr how each large candidate was simulated (through the exact "
                  "symmetry reduction, or in full and why) and what the sweep cost");
    add_quiet_flag(*cmd, o->quiet,
                   "print nothing on stdout (files given with -o are still written) and no notes "
                   "or progress on stderr; errors and warnings still go to stderr");
    o->app = cmd;
    cmd->callback([o] { run_select(*o); });
}

}  // namespace piccolo::cli
