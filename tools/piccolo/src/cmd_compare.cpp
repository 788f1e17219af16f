// piccolo compare: one selector sweep per machine (presets, files, what-if variants of the first
// machine, or points along one parameter with --vary), then each machine's best choice side by
// side and the points where it changes (sim/compare).
#include <CLI/CLI.hpp>

#include <fmt/format.h>

#include <memory>

#include "command_line.hpp"
#include "common_options.hpp"
#include "machine_option.hpp"
#include "piccolo/cli/commands.hpp"
#include "piccolo/core/error.hpp"
#include "piccolo/core/size_parse.hpp"
#include "piccolo/studies/compare.hpp"
#include "piccolo/studies/report.hpp"
#include "piccolo/topologies/machine_io.hpp"
#include "piccolo/topologies/machine_override.hpp"
#include "style_option.hpp"
#include "text_files.hpp"

namespace piccolo::cli {

namespace {

struct CompareOptions {
    std::vector<std::string> machines;
    std::vector<std::string> sets;
    std::vector<std::string> variants;
    std::string vary;
    std::vector<std::string> collectives, algorithms, radices, sizes, nodes;
    int ppn = 0;
    int threads = 0;
    bool no_contention = false;
    std::string style;
    std::string format = "table";
    std::string output = "-";
    std::string report;
    const CLI::Option* ppn_option = nullptr;
    const CLI::Option* threads_option = nullptr;
    SweepHooks hooks;
};

std::vector<MachineOverride> parse_all(const std::vector<std::string>& texts) {
    std::vector<MachineOverride> out;
    for (const std::string& text : texts) out.push_back(parse_override(text));
    return out;
}

// "system.G*0.5,system.L*0.5" or the same separated by spaces.
std::vector<std::string> variant_overrides(const std::string& variant) {
    std::vector<std::string> texts = split_overrides(variant);
    if (texts.empty())
        throw InputError(
            fmt::format("--variant '{}': give overrides such as system.G*0.5", variant));
    return texts;
}

// The machines in order: each --machine (all with --set), then the first machine with each
// --variant's overrides added, then one machine per --vary point. With --vary the first machine
// is only the base of the points: the first point is the reference.
std::vector<Machine> compare_machines(const CompareOptions& o) {
    const std::vector<std::string> names =
        o.machines.empty() ? std::vector<std::string>{std::string(default_preset_name())}
                           : o.machines;
    const std::vector<MachineOverride> sets = parse_all(o.sets);
    const Machine first = load_machine_and_warn(names.front());
    std::vector<Machine> out;
    if (o.vary.empty()) out.push_back(apply_overrides(first, sets));
    for (std::size_t i = 1; i < names.size(); ++i)
        out.push_back(apply_overrides(load_machine_and_warn(names[i]), sets));
    for (const std::string& variant : o.variants) {
        std::vector<MachineOverride> all = sets;
        for (MachineOverride& extra : parse_all(variant_overrides(variant)))
            all.push_back(std::move(extra));
        out.push_back(apply_overrides(first, all));
    }
    if (!o.vary.empty())
        for (const MachineOverride& point : parse_vary(o.vary)) {
            std::vector<MachineOverride> all = sets;
            all.push_back(point);
            out.push_back(apply_overrides(first, all));
        }
    return out;
}

CompareRequest compare_request(const CompareOptions& o) {
    CompareRequest request;
    request.machines = compare_machines(o);
    SelectRequest& sweep = request.sweep;
    if (!o.collectives.empty()) sweep.collectives = parse_select_collectives(o.collectives);
    for (const std::string& name : o.algorithms)
        if (!name.empty()) sweep.algorithms.push_back(name);
    sweep.radices = parse_int_list(o.radices, "-k", false);
    if (!o.sizes.empty()) sweep.sizes = parse_size_list(o.sizes);
    const bool ppn_given = o.ppn_option->count() > 0;
    if (ppn_given && o.ppn < 1)
        throw InputError(fmt::format("--ppn: must be >= 1 (got {})", o.ppn));
    request.ranks_per_node = ppn_given ? o.ppn : 0;
    int ppn = request.ranks_per_node;
    if (ppn == 0) {
        ppn = request.machines.front().devices_per_node();
        for (const Machine& m : request.machines) ppn = std::min(ppn, m.devices_per_node());
    }
    for (int n : parse_int_list(o.nodes, "--nodes", true)) sweep.scales.push_back({n, ppn});
    const bool threads_given = o.threads_option->count() > 0;
    if (threads_given && o.threads < 1)
        throw InputError(fmt::format("--threads: must be >= 1 (got {})", o.threads));
    sweep.threads = threads_given ? o.threads : 0;
    sweep.contention = !o.no_contention;
    sweep.style = o.style.empty() ? request.machines.front().style.value_or(Style::mpi)
                                  : parse_style_option(o.style);
    return request;
}

void run_compare(const CompareOptions& o) {
    // Everything that can be wrong with the command line is reported before the sweeps start.
    if (o.format != "table" && o.format != "csv" && o.format != "json")
        throw InputError(fmt::format("--format: '{}' is not one of table, csv, json", o.format));
    CompareRequest request = compare_request(o);
    request.sweep.runner = o.hooks.runner;
    if (o.hooks.writes) {
        check_writable(o.output);
        if (!o.report.empty()) check_writable(o.report);
    }
    const Comparison comparison = compare(request);
    if (!o.hooks.writes) return;
    const std::string text = o.format == "csv"    ? emit_compare_csv(comparison)
                             : o.format == "json" ? emit_compare_json(comparison)
                                                  : emit_compare_table(comparison);
    write_text_file(o.output, text);
    if (!o.report.empty()) write_text_file(o.report, report_html(comparison, this_command_line()));
}

}  // namespace

void add_compare_command(CLI::App& app) {
    add_compare_command_with(app, SweepHooks{});
}

void add_compare_command_with(CLI::App& app, const SweepHooks& hooks) {
    auto o = std::make_shared<CompareOptions>();
    o->hooks = hooks;
    CLI::App* cmd = app.add_subcommand(
        "compare",
        "Compare the best algorithm and k across machines or what-if variants (e.g. "
        "--variant system.G*0.5, --vary system.G=0.25x..4x:5): one sweep per machine, choices "
        "side by side, and where they change");
    cmd->add_option("--machine,-m", o->machines,
                    "preset or machine file; repeatable, the first is the reference (default "
                    "delta)");
    add_set_option(*cmd, o->sets);
    cmd->add_option("--variant", o->variants,
                    "the first machine with these overrides as one more machine, e.g. "
                    "\"system.G*0.5,system.L*0.5\"; repeatable");
    cmd->add_option("--vary", o->vary,
                    "PATH=A..B:N: N machines from the first machine with PATH from A to B "
                    "(factors Ax..Bx geometrically, values evenly); the first point is the "
                    "reference");
    cmd->add_option("--collective,-c", o->collectives,
                    "collectives as for select: allgather, allreduce, bcast, reduce, "
                    "reduce_scatter, alltoall or all (default: allgather,allreduce)")
        ->delimiter(',');
    cmd->add_option("--algorithms,-a", o->algorithms, "algorithms to rank (default: all)")
        ->delimiter(',');
    cmd->add_option("-k,--radices", o->radices, "candidate k: list or range, e.g. 2,4,8 or 2-16")
        ->delimiter(',');
    cmd->add_option("--sizes,-s", o->sizes, "message sizes: list or doubling range (8-64MiB)")
        ->delimiter(',');
    add_nodes_option(*cmd, o->nodes,
                     "node counts: list or doubling range (default: 1-64, those every machine "
                     "holds)")
        ->delimiter(',');
    o->ppn_option =
        add_ppn_option(*cmd, o->ppn, "ranks per node (default: the fewest devices per node)");
    o->threads_option =
        cmd->add_option("--threads,-j", o->threads, "worker threads (default: every core)");
    add_style_option(*cmd, o->style, "the first machine's style, else mpi");
    cmd->add_flag("--no-contention", o->no_contention, "no queueing (as select --no-contention)");
    add_format_option(*cmd, o->format, "table, csv or json");
    cmd->add_option("-o,--output", o->output, "file for the --format output (default stdout)");
    cmd->add_option("--report", o->report,
                    "also write a self-contained HTML report (maps, speedup curves, differences, "
                    "machine parameters)");
    cmd->callback([o] { run_compare(*o); });
}

}  // namespace piccolo::cli
