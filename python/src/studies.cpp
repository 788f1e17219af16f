// select, compare and vary from Python: the selector sweeps of `piccolo select` and `piccolo
// compare` (--vary included), with the same defaults, returned as Rows whose fields are those of
// the CLI's JSON (one row per point, or per point and machine).
#include <pybind11/stl.h>

#include <optional>

#include "bindings.hpp"
#include "piccolo/core/error.hpp"
#include "piccolo/select/select.hpp"
#include "piccolo/studies/compare.hpp"
#include "piccolo/topologies/machine_io.hpp"
#include "piccolo/topologies/machine_override.hpp"

namespace piccolo::python {

namespace {

// The sweep options select, compare and vary share, as keyword arguments.
struct SweepArgs {
    std::optional<std::vector<std::string>> collectives;
    std::vector<std::string> algorithms;
    std::vector<int> radices;
    std::optional<std::vector<std::uint64_t>> sizes;
    std::vector<int> nodes;
    std::optional<int> ppn;
    std::optional<std::string> style;
    bool contention = true;
    std::optional<int> threads;
    bool simulate_all = false;
};

// Everything of the request but the machine and the scales, checked as the CLI checks it.
void fill_sweep(const SweepArgs& a, SelectRequest& r) {
    if (a.collectives) r.collectives = parse_select_collectives(*a.collectives);  // "all" too
    r.algorithms = a.algorithms;
    r.radices = a.radices;
    if (a.sizes) r.sizes = *a.sizes;
    if (a.ppn && *a.ppn < 1)
        throw InputError("ppn: must be >= 1 (got " + std::to_string(*a.ppn) + ")");
    if (a.threads && *a.threads < 1)
        throw InputError("threads: must be >= 1 (got " + std::to_string(*a.threads) + ")");
    r.threads = a.threads.value_or(0);
    r.contention = a.contention;
    if (a.simulate_all) r.bound_min_tasks = 0;
}

py::object best_k(const AlgorithmOutcome& o) {
    return o.has_radix ? py::cast(o.k) : py::none();
}

py::dict outcome_dict(const AlgorithmOutcome& o) {
    py::dict d;
    d["algorithm"] = o.algorithm;
    if (!o.available) {
        d["skipped"] = o.skipped;
        return d;
    }
    if (o.has_radix) {
        d["k"] = o.k;
        d["same_schedule_k"] = o.same_schedule_k;
    }
    d["time_s"] = o.time;
    if (o.has_radix) {
        py::list all;
        for (const auto& [k, t] : o.candidates) all.append(py::make_tuple(k, t));
        d["candidates"] = all;  // (k, time_s) for every simulated k
    }
    return d;
}

py::dict point_identity(const PointSelection& p) {
    py::dict d;
    d["collective"] = std::string(to_string(p.collective));
    d["nodes"] = p.scale.nodes;
    d["ppn"] = p.scale.ranks_per_node;
    d["ranks"] = p.scale.ranks();
    d["size_bytes"] = p.bytes;
    return d;
}

// One select row: the point, its best, baseline and runner-up flattened, every algorithm's
// outcome in `algorithms`.
py::dict selection_row(const PointSelection& p) {
    py::dict d = point_identity(p);
    const AlgorithmOutcome* best = p.best_outcome();
    d["algorithm"] = best ? py::cast(best->algorithm) : py::none();
    d["k"] = best ? best_k(*best) : py::none();
    d["time_s"] = best ? py::cast(best->time) : py::none();
    d["baseline"] = p.baseline.empty() ? py::none() : py::cast(p.baseline);
    d["baseline_time_s"] = p.baseline.empty() ? py::none() : py::cast(p.baseline_time);
    d["speedup"] = p.speedup();
    const std::optional<Choice>& r = p.runner_up;
    d["runner_up"] = r ? py::cast(r->algorithm) : py::none();
    d["runner_up_k"] = r && r->has_radix ? py::cast(r->k) : py::none();
    d["runner_up_time_s"] = r ? py::cast(r->time) : py::none();
    d["margin"] = r ? py::cast(p.margin()) : py::none();
    py::list all;
    for (const AlgorithmOutcome& o : p.algorithms) all.append(outcome_dict(o));
    d["algorithms"] = all;
    return d;
}

py::object run_select(const py::handle& machine, const SweepArgs& args) {
    SelectRequest request;
    request.machine = machine_argument(machine);
    fill_sweep(args, request);
    const int ppn = args.ppn.value_or(request.machine.devices_per_node());
    if (args.nodes.empty())
        for (const Scale& s : default_select_scales(request.machine))
            request.scales.push_back({s.nodes, ppn});
    for (int n : args.nodes) request.scales.push_back({n, ppn});
    request.style =
        args.style ? parse_style(*args.style) : request.machine.style.value_or(Style::mpi);
    SweepProgress progress;
    request.progress = &progress;
    const SelectResult result = interruptible(progress, [&] { return select(request); });
    py::list rows;
    for (const PointSelection& p : result.points) rows.append(selection_row(p));
    py::dict meta;
    meta["machine"] = result.machine;
    meta["style"] = std::string(to_string(result.style));
    meta["contention"] = result.contention;
    meta["notes"] = result.notes;
    return make_rows(rows, meta);
}

py::dict choice_row(const Comparison& c, std::size_t machine, std::size_t point) {
    const PointSelection& p = c.results[machine].points[point];
    py::dict d = point_identity(p);
    d["machine"] = c.results[machine].machine;
    d["reference"] = c.results[0].machine;
    const AlgorithmOutcome* best = p.best_outcome();
    d["algorithm"] = best ? py::cast(best->algorithm) : py::none();
    d["k"] = best ? best_k(*best) : py::none();
    d["time_s"] = best ? py::cast(best->time) : py::none();
    d["speedup_vs_baseline"] = best ? py::cast(p.speedup()) : py::none();
    d["time_ratio_vs_reference"] = best ? py::cast(time_ratio(c, machine, point)) : py::none();
    d["same_choice_as_reference"] = same_choice(c.results[0].points[point], p);
    return d;
}

py::object run_compare(std::vector<Machine> machines, const SweepArgs& args) {
    CompareRequest request;
    request.machines = std::move(machines);
    if (request.machines.empty()) throw InputError("machines: give at least one machine");
    fill_sweep(args, request.sweep);
    request.ranks_per_node = args.ppn.value_or(0);
    int ppn = request.ranks_per_node;  // `piccolo compare`: else the fewest devices per node
    if (ppn == 0) {
        ppn = request.machines.front().devices_per_node();
        for (const Machine& m : request.machines) ppn = std::min(ppn, m.devices_per_node());
    }
    for (int n : args.nodes) request.sweep.scales.push_back({n, ppn});
    request.sweep.style =
        args.style ? parse_style(*args.style) : request.machines.front().style.value_or(Style::mpi);
    SweepProgress progress;
    request.sweep.progress = &progress;
    const Comparison comparison = interruptible(progress, [&] { return compare(request); });
    py::list rows, names;
    for (std::size_t p = 0; p < comparison.point_count(); ++p)
        for (std::size_t m = 0; m < comparison.results.size(); ++m)
            rows.append(choice_row(comparison, m, p));
    for (const Machine& m : comparison.machines) names.append(m.name);
    py::dict meta;
    meta["machines"] = names;
    meta["reference"] = comparison.results.at(0).machine;
    meta["notes"] = comparison.notes;
    return make_rows(rows, meta);
}

// One variant's override texts: a list of them, or one string of them separated by commas or
// blanks, as `piccolo compare --variant` reads it.
std::vector<std::string> variant_texts(const py::handle& variant) {
    if (!py::isinstance<py::str>(variant)) return variant.cast<std::vector<std::string>>();
    const std::string text = variant.cast<std::string>();
    std::vector<std::string> texts = split_overrides(text);
    if (texts.empty())
        throw InputError("variant '" + text + "': give overrides such as system.G*0.5");
    return texts;
}

// `piccolo compare`'s machines: each given (a Machine, preset or file), then the first with each
// variant's overrides ("system.G*0.5,system.L*0.5" or a list of texts).
std::vector<Machine> compared_machines(const py::object& given, const py::object& variants) {
    std::vector<Machine> out;
    if (py::isinstance<py::str>(given) || py::isinstance<Machine>(given))
        out.push_back(machine_argument(given));  // one machine, not a list of them
    else
        for (const py::handle& m : given) out.push_back(machine_argument(m));
    if (out.empty()) throw InputError("machines: give at least one machine");
    for (const py::handle& v : variants) {
        std::vector<MachineOverride> overrides;
        for (const std::string& text : variant_texts(v)) overrides.push_back(parse_override(text));
        out.push_back(apply_overrides(out.front(), overrides));
    }
    return out;
}

// `piccolo compare --vary SPEC`: one machine per point of SPEC on `base`; the first is the
// reference.
std::vector<Machine> varied_machines(const std::string& spec, const py::handle& base) {
    const Machine first = machine_argument(base);
    std::vector<Machine> out;
    for (const MachineOverride& point : parse_vary(spec))
        out.push_back(apply_overrides(first, {&point, 1}));
    return out;
}

constexpr const char* sweep_doc =
    " Keywords as the CLI's options: collectives (default allgather and allreduce; 'all' for "
    "every one), algorithms (default all), "
    "radices (default every valid k), sizes in bytes (default 8 B..64 MiB), nodes (default "
    "1..64), ppn (default devices per node), style (default the machine's, else 'mpi'), "
    "contention, threads (default every core), simulate_all. Ctrl-C cancels the sweep "
    "(KeyboardInterrupt once the replays under way end).";

// Defines `name` as f(leading..., keyword-only sweep options): the sweep keywords are spelled
// once for select, compare and vary.
template <class... Lead>
struct Leading {};  // the types of the arguments before the sweep keywords

template <class... Lead, class Func, class... Extra>
void def_sweep(Leading<Lead...>, py::module_& m, const char* name, Func f, const std::string& doc,
               const Extra&... leading) {
    m.def(
        name,
        [f](Lead... lead, std::optional<std::vector<std::string>> collectives,
            std::vector<std::string> algorithms, std::vector<int> radices,
            std::optional<std::vector<std::uint64_t>> sizes, std::vector<int> nodes,
            std::optional<int> ppn, std::optional<std::string> style, bool contention,
            std::optional<int> threads, bool simulate_all) {
            return f(std::move(lead)...,
                     SweepArgs{std::move(collectives), std::move(algorithms), std::move(radices),
                               std::move(sizes), std::move(nodes), ppn, std::move(style),
                               contention, threads, simulate_all});
        },
        leading..., py::kw_only(), py::arg("collectives") = py::none(),
        py::arg("algorithms") = std::vector<std::string>{}, py::arg("radices") = std::vector<int>{},
        py::arg("sizes") = py::none(), py::arg("nodes") = std::vector<int>{},
        py::arg("ppn") = py::none(), py::arg("style") = py::none(), py::arg("contention") = true,
        py::arg("threads") = py::none(), py::arg("simulate_all") = false,
        (doc + sweep_doc).c_str());
}

py::object select_entry(py::object machine, const SweepArgs& args) {
    return run_select(machine, args);
}

py::object compare_entry(py::object machines, py::object variants, const SweepArgs& args) {
    return run_compare(compared_machines(machines, variants), args);
}

py::object vary_entry(std::string spec, py::object machine, const SweepArgs& args) {
    return run_compare(varied_machines(spec, machine), args);
}

}  // namespace

void bind_studies(py::module_& m) {
    const std::string default_machine(default_preset_name());
    def_sweep(
        Leading<py::object>(), m, "select", &select_entry,
        "the best algorithm and k per (collective, scale, size), as `piccolo select`: Rows, "
        "one per point, with the fields of `piccolo select --format json` (best flattened into "
        "algorithm, k, time_s; runner_up, runner_up_k, runner_up_time_s, margin; every "
        "algorithm's outcome in `algorithms`); meta: machine, style, contention, notes.",
        py::arg("machine") = default_machine);
    def_sweep(
        Leading<py::object, py::object>(), m, "compare", &compare_entry,
        "one sweep per machine, as `piccolo compare`: `machines` (Machine, preset or file; the "
        "first is the reference), then the first with each of `variants` ('system.G*0.5,"
        "system.L*0.5' or a list of override texts). Rows, one per (point, machine), with the "
        "fields of `piccolo compare --format json`'s choices and the point's keys; nodes default "
        "to those of 1..64 every machine holds, ppn to the fewest devices per node.",
        py::arg("machines"), py::arg("variants") = py::tuple());
    def_sweep(
        Leading<std::string, py::object>(), m, "vary", &vary_entry,
        "`piccolo compare --vary SPEC`: one machine per point of SPEC ('system.G=0.25x..4x:5': "
        "factors spaced geometrically; 'node.radix=1..4:4': values evenly) on `machine`; the "
        "first point is the reference. Rows as compare().",
        py::arg("spec"), py::arg("machine") = default_machine);
}

}  // namespace piccolo::python
