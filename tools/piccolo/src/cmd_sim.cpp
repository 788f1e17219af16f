// piccolo sim: simulate one schedule (from a file, or generated in memory) on a machine.
#include <tbb/parallel_invoke.h>

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "common_options.hpp"
#include "machine_option.hpp"
#include "piccolo/cli/commands.hpp"
#include "piccolo/core/error.hpp"
#include "piccolo/core/size_parse.hpp"
#include "piccolo/engine/engine.hpp"
#include "piccolo/engine/lower_bound.hpp"
#include "piccolo/engine/trace.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/schedule_xml.hpp"
#include "piccolo/schedules/verify.hpp"
#include "piccolo/topologies/machine_io.hpp"
#include "radix_option.hpp"
#include "style_option.hpp"
#include "text_files.hpp"

namespace piccolo::cli {

namespace {

// What --bytes counts (MPICH's count argument of each collective).
struct SimCommand {
    std::string schedule_file;
    std::string machine{default_preset_name()};
    std::vector<std::string> sets;  // --set overrides
    int nodes = 0;
    int ranks = 0;  // with --algorithm: p (default nodes x ppn)
    int ppn = 0;
    std::string placement;
    bool no_contention = false;
    std::string trace_file;
    std::string format = "table";
    bool json = false;  // the older spelling of --format json
    // In-memory generation.
    std::string collective = "allgather";
    int root = 0;
    std::string algorithm;
    std::optional<int> k;  // -k: absent for algorithms without a radix
    std::string bytes;
    std::string style;  // empty: the machine's style, else mpi
};

// A file that does not say (PICCL's) has no style.
std::string style_label(const Schedule& s) {
    return s.style.empty() ? "unspecified" : s.style;
}

std::string seconds(double s) {
    if (s >= 1) return fmt::format("{:.6g} s", s);
    if (s >= 1e-3) return fmt::format("{:.6g} ms", s * 1e3);
    return fmt::format("{:.6g} us", s * 1e6);
}

nlohmann::ordered_json to_json(const Schedule& s, const Machine& m, const RankLayout& layout,
                               const SimResult& r, const MakespanBound& bound, bool contention) {
    nlohmann::ordered_json j;
    j["machine"] = m.name;
    j["collective"] = to_string(s.shape.collective);
    j["algorithm"] = s.algorithm;
    j["k"] = s.k;
    j["ranks"] = s.shape.ranks;
    j["nodes"] = layout.nodes();
    j["bytes"] = s.shape.bytes;
    j["bytes_meaning"] = size_meaning(s.shape.collective);
    j["style"] = style_label(s);
    j["contention"] = contention;
    j["makespan_s"] = r.makespan;
    j["lower_bound_s"] = bound.seconds;
    j["lower_bound_limit"] = bound.limit;
    j["transfers"] = r.transfers;
    j["computes"] = r.computes;
    j["compute_time_s"] = r.compute_time;
    auto& levels = j["levels"] = nlohmann::ordered_json::array();
    for (const LevelStats& l : r.levels)
        levels.push_back({{"name", l.name},
                          {"transfers", l.transfers},
                          {"bytes", l.bytes},
                          {"wire_time_s", l.wire_time}});
    auto& queueing = j["queueing"] = nlohmann::ordered_json::array();
    for (const QueueingStats& q : r.queueing)
        queueing.push_back({{"point", q.point},
                            {"delayed_transfers", q.delayed},
                            {"total_delay_s", q.total_delay},
                            {"max_delay_s", q.max_delay}});
    j["rank_finish_s"] = r.rank_finish;
    return j;
}

void print_table(const Schedule& s, const Machine& m, const RankLayout& layout, const SimResult& r,
                 const MakespanBound& bound, bool contention) {
    fmt::print("{} {}{} on {}: p = {} on {}, {} = {} bytes, {} style, contention {}\n",
               to_string(s.shape.collective), s.algorithm.empty() ? "(unnamed)" : s.algorithm,
               s.k > 0 ? fmt::format(" k={}", s.k) : "", m.name, count_of(s.shape.ranks, "rank"),
               count_of(layout.nodes(), "node"), size_meaning(s.shape.collective), s.shape.bytes,
               style_label(s), contention ? "on" : "off");
    fmt::print("makespan          {}\n", seconds(r.makespan));
    fmt::print("lower bound       {} ({})\n", seconds(bound.seconds), bound.limit);
    fmt::print("transfers         {}   computes {} ({} of compute)\n", r.transfers, r.computes,
               seconds(r.compute_time));
    double first = r.rank_finish.empty() ? 0 : r.rank_finish[0], last = first;
    for (double f : r.rank_finish) {
        first = std::min(first, f);
        last = std::max(last, f);
    }
    fmt::print("rank finish       earliest {}, latest {}\n", seconds(first), seconds(last));
    fmt::print("\n{:<10} {:>12} {:>16} {:>14}\n", "level", "transfers", "bytes", "wire time");
    for (const LevelStats& l : r.levels)
        fmt::print("{:<10} {:>12} {:>16} {:>14}\n", l.name, l.transfers, l.bytes,
                   seconds(l.wire_time));
    fmt::print("\n{:<24} {:>10} {:>14} {:>14}\n", "queueing at", "delayed", "total delay",
               "max delay");
    for (const QueueingStats& q : r.queueing)
        fmt::print("{:<24} {:>10} {:>14} {:>14}\n", q.point, q.delayed, seconds(q.total_delay),
                   seconds(q.max_delay));
}

// The rank count of a generated schedule: --ranks, else --nodes x ranks per node.
int generated_ranks(const SimCommand& c, int ppn) {
    if (c.ranks != 0) {
        if (c.ranks < 2)
            throw InputError(fmt::format("-p/--ranks: need at least 2 (got {})", c.ranks));
        if (c.nodes > 0 && c.ranks > static_cast<long long>(c.nodes) * ppn)
            throw InputError(fmt::format(
                "-p/--ranks: {} do not fit on {} x {} per node (raise --nodes or --ppn, or "
                "leave --nodes out)",
                count_of(c.ranks, "rank"), count_of(c.nodes, "node"), count_of(ppn, "rank")));
        return c.ranks;
    }
    if (c.nodes <= 0)
        throw InputError("--nodes: required with --algorithm (at least 1), or give -p/--ranks");
    return c.nodes * ppn;
}

// The schedule of --algorithm, built in memory, with payload only where a level prices reclaim
// (which reductions write sent pieces); the replay needs nothing else of it.
Schedule generated_schedule(const SimCommand& c, const Machine& machine, int ppn) {
    if (c.algorithm.empty())
        throw InputError("give a schedule file, or --algorithm (with -k, --bytes) to generate one");
    if (c.bytes.empty()) throw InputError("--bytes: required with --algorithm");
    GenerateRequest request;
    request.collective = parse_collective(c.collective);
    request.algorithm = c.algorithm;
    request.k = radix_for(c.k, c.algorithm, request.collective);
    request.ranks = generated_ranks(c, ppn);
    request.bytes = parse_bytes(c.bytes, "--bytes");
    request.payload = prices_reclaim(machine);
    request.root = c.root;
    request.style =
        c.style.empty() ? machine.style.value_or(Style::mpi) : parse_style_option(c.style);
    return generate(request);
}

void run_sim(const SimCommand& c) {
    if (c.format != "table" && c.format != "json")
        throw InputError(fmt::format("--format: '{}' is not one of table, json", c.format));
    if (!c.trace_file.empty()) check_writable(c.trace_file);
    Machine machine = load_machine_with(c.machine, c.sets);
    if (c.placement == "block")
        machine.placement = {PlacementKind::block, {}};
    else if (c.placement == "round-robin")
        machine.placement = {PlacementKind::round_robin, {}};
    else if (!c.placement.empty())
        throw InputError(
            fmt::format("--placement: '{}' is not block or round-robin (explicit "
                        "lists go in the machine file)",
                        c.placement));
    const int ppn = c.ppn > 0 ? c.ppn : machine.devices_per_node();

    Schedule schedule;
    if (!c.schedule_file.empty()) {
        if (!c.algorithm.empty())
            throw InputError("give either a schedule file or --algorithm, not both");
        if (c.ranks != 0)
            throw InputError(
                "-p/--ranks: a schedule file brings its own ranks; --ranks is for schedules "
                "generated with --algorithm");
        if (!c.style.empty())
            throw InputError(
                "--style: a schedule file brings its own dependencies; --style is for "
                "schedules generated with --algorithm");
        if (c.k)
            throw InputError(
                "-k: a schedule file brings its own k; -k is for schedules generated with "
                "--algorithm");
        // The replay needs transfers, sizes and dependencies only: without the payload, files
        // of any ranks x pieces are read (an Allgather of p ranks has p^2 (rank, block) pairs);
        // the data-flow proof is piccolo verify's.
        LoadedSchedule loaded = read_schedule_xml(c.schedule_file, Payload::skip);
        std::vector<TaskId> order;
        if (auto v = verify_structure(loaded.schedule, order))
            throw InputError(fmt::format(
                "{}: {}", v->task == Violation::no_task ? loaded.origin : loaded.where(v->task),
                v->message));
        schedule = std::move(loaded.schedule);
    } else {
        schedule = generated_schedule(c, machine, ppn);
    }
    const int nodes = c.nodes > 0 ? c.nodes : (schedule.shape.ranks + ppn - 1) / ppn;
    const RankLayout layout(machine, nodes, ppn);
    if (schedule.shape.ranks > layout.ranks())
        throw InputError(
            fmt::format("{}: the schedule has {} but {} x {} per node of {} place only {} "
                        "(raise --nodes or --ppn)",
                        c.schedule_file.empty() ? "--algorithm" : c.schedule_file,
                        count_of(schedule.shape.ranks, "rank"), count_of(nodes, "node"),
                        count_of(ppn, "rank"), machine.name, layout.ranks()));
    SimOptions options;
    options.contention = !c.no_contention;
    options.record_trace = !c.trace_file.empty();
    // The bound only reads the schedule, so it runs beside the replay, on a second core where
    // there is one: on a 4096-rank ring its dependency chain costs a third of the replay.
    SimResult result;
    MakespanBound bound;
    tbb::parallel_invoke([&] { result = simulate(schedule, machine, layout, options); },
                         [&] { bound = makespan_lower_bound(schedule, machine, layout, options); });
    if (!c.trace_file.empty())
        write_text_file(c.trace_file, chrome_trace_json(schedule, layout, result));
    if (c.json || c.format == "json")
        fmt::print("{}\n",
                   to_json(schedule, machine, layout, result, bound, options.contention).dump(2));
    else
        print_table(schedule, machine, layout, result, bound, options.contention);
}

}  // namespace

void add_sim_command(CLI::App& app) {
    auto c = std::make_shared<SimCommand>();
    CLI::App* sim = app.add_subcommand(
        "sim", "Simulate a schedule on a machine (a file, or generated with --algorithm)");
    sim->add_option(
        "schedule", c->schedule_file,
        "schedule XML file (piccolo or PICCL format); read without its blocks/segments payload, "
        "whose data flow piccolo verify checks");
    sim->add_option("--machine,-m", c->machine,
                    "preset name (piccolo machines) or YAML / PICCL XML file")
        ->capture_default_str();
    add_set_option(*sim, c->sets);
    add_nodes_option(*sim, c->nodes,
                     "nodes (default: enough for the file's ranks, or for --ranks)");
    add_ranks_option(*sim, c->ranks,
                     "with --algorithm: ranks p (default: --nodes x ranks per node); the last "
                     "node may be partly filled");
    add_ppn_option(*sim, c->ppn, "ranks per node (default: the machine's devices per node)");
    sim->add_option("--placement", c->placement, "block or round-robin (default: the machine's)");
    sim->add_flag("--no-contention", c->no_contention,
                  "no queueing: as many device slots as a rank sends at once (a reused slot keeps "
                  "its gap g), unlimited lanes and capacities, offloaded overheads");
    sim->add_option("--trace", c->trace_file, "write a Chrome-trace/Perfetto timeline (JSON)");
    add_format_option(*sim, c->format, "table or json");
    sim->add_flag("--json", c->json, "the same as --format json");
    sim->add_option("--collective,-c", c->collective,
                    "with --algorithm: allgather, allreduce, bcast, reduce, reduce_scatter or "
                    "alltoall")
        ->capture_default_str();
    sim->add_option("--algorithm,-a", c->algorithm, "generate this algorithm in memory");
    add_radix_option(*sim, c->k,
                     "with --algorithm: radix k (k-ring, rm, prm, bruck, knomial, recexch); "
                     "refused for the others");
    sim->add_option("--root", c->root, "with --algorithm, bcast and reduce: the root rank")
        ->capture_default_str();
    add_style_option(*sim, c->style, "the machine's style (piccolo machines NAME), else mpi");
    sim->add_option(
        "--bytes,-b", c->bytes,
        "with --algorithm: per-rank contribution (allgather) or vector size (allreduce)");
    sim->callback([c] { run_sim(*c); });
}

}  // namespace piccolo::cli
