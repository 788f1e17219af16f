// simulate() from Python: one replay of a schedule on a machine, as `piccolo sim` runs it (same
// layout rule, same options), with the makespan, per-rank finish times and, when asked, the
// timeline of every task.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <optional>

#include "bindings.hpp"
#include "piccolo/core/error.hpp"
#include "piccolo/engine/engine.hpp"
#include "piccolo/engine/trace.hpp"
#include "piccolo/schedules/schedule_xml.hpp"
#include "piccolo/topologies/machine_io.hpp"

namespace piccolo::python {

namespace {

// The result with what its timeline needs: the layout it ran on and the schedule (a reference
// to the Python object, not a copy).
struct PySimResult {
    SimResult result;
    std::optional<RankLayout> layout;
    py::object schedule;
    std::string machine;
};

void set_placement(Machine& machine, const std::optional<std::string>& placement) {
    if (!placement) return;
    if (*placement == "block")
        machine.placement = {PlacementKind::block, {}};
    else if (*placement == "round-robin")
        machine.placement = {PlacementKind::round_robin, {}};
    else
        throw InputError("placement: '" + *placement +
                         "' is not block or round-robin (explicit lists go in the machine file)");
}

PySimResult run(const py::object& schedule_object, const py::handle& machine_arg,
                std::optional<int> nodes, std::optional<int> ppn,
                const std::optional<std::string>& placement, bool contention, bool trace) {
    const Schedule& schedule = schedule_object.cast<const LoadedSchedule&>().schedule;
    Machine machine = machine_argument(machine_arg);
    set_placement(machine, placement);
    if (ppn && *ppn < 1) throw InputError("ppn: must be >= 1 (got " + std::to_string(*ppn) + ")");
    const int per_node = ppn.value_or(machine.devices_per_node());
    // `piccolo sim`'s default: as many nodes as the schedule's ranks fill.
    const int node_count = nodes.value_or((schedule.shape.ranks + per_node - 1) / per_node);
    PySimResult out;
    out.schedule = schedule_object;
    out.machine = machine.name;
    out.layout.emplace(machine, node_count, per_node);
    if (schedule.shape.ranks > out.layout->ranks())
        throw InputError("the schedule has " + std::to_string(schedule.shape.ranks) +
                         " ranks but " + std::to_string(node_count) + " node(s) x " +
                         std::to_string(per_node) + " per node of " + machine.name +
                         " place only " + std::to_string(out.layout->ranks()) +
                         " (raise nodes or ppn)");
    SimOptions options;
    options.contention = contention;
    options.record_trace = trace;
    py::gil_scoped_release release;
    out.result = simulate(schedule, machine, *out.layout, options);
    return out;
}

py::object transfer_rows(const PySimResult& r) {
    const Schedule& s = r.schedule.cast<const LoadedSchedule&>().schedule;
    py::list rows;
    for (const TransferTrace& t : r.result.transfer_trace) {
        py::dict d;
        d["task"] = t.task;
        d["src"] = s.src[t.task];
        d["dst"] = s.dst[t.task];
        d["bytes"] = s.bytes(t.task);
        d["level"] = t.level;
        d["ready"] = t.ready;
        d["send_start"] = t.send_start;
        d["inject_start"] = t.inject_start;
        d["inject_end"] = t.inject_end;
        d["receive_start"] = t.receive_start;
        d["sent"] = t.sent;
        d["complete"] = t.complete;
        rows.append(std::move(d));
    }
    py::dict meta;
    meta["machine"] = r.machine;
    meta["time_unit"] = "seconds";
    return make_rows(rows, meta);
}

py::object compute_rows(const PySimResult& r) {
    const Schedule& s = r.schedule.cast<const LoadedSchedule&>().schedule;
    py::list rows;
    for (const ComputeTrace& t : r.result.compute_trace) {
        py::dict d;
        d["task"] = t.task;
        d["rank"] = s.src[t.task];
        d["kind"] = std::string(to_string(s.kind[t.task]));
        d["ready"] = t.ready;
        d["start"] = t.start;
        d["end"] = t.end;
        rows.append(std::move(d));
    }
    py::dict meta;
    meta["machine"] = r.machine;
    meta["time_unit"] = "seconds";
    return make_rows(rows, meta);
}

py::list level_stats(const SimResult& r) {
    py::list out;
    for (const LevelStats& l : r.levels) {
        py::dict d;
        d["name"] = l.name;
        d["transfers"] = l.transfers;
        d["bytes"] = l.bytes;
        d["wire_time_s"] = l.wire_time;
        out.append(std::move(d));
    }
    return out;
}

py::list queueing_stats(const SimResult& r) {
    py::list out;
    for (const QueueingStats& q : r.queueing) {
        py::dict d;
        d["point"] = q.point;
        d["delayed_transfers"] = q.delayed;
        d["total_delay_s"] = q.total_delay;
        d["max_delay_s"] = q.max_delay;
        out.append(std::move(d));
    }
    return out;
}

void require_trace(const PySimResult& r) {
    if (!r.result.transfer_trace.empty() || !r.result.compute_trace.empty()) return;
    if (r.result.transfers + r.result.computes > 0)
        throw InputError("no trace recorded: simulate(..., trace=True) records one");
}

void bind_result(py::module_& m) {
    py::class_<PySimResult>(m, "SimResult", "What one replay found (seconds throughout).")
        .def_property_readonly("makespan", [](const PySimResult& r) { return r.result.makespan; })
        .def_property_readonly(
            "rank_finish",
            [](const py::object& self) {
                const auto& finish = self.cast<const PySimResult&>().result.rank_finish;
                py::array out(py::dtype::of<double>(), {finish.size()}, {sizeof(double)},
                              finish.data(), self);
                out.attr("setflags")(py::arg("write") = false);
                return out;
            },
            "float64 per rank: its last receive or compute completion (a read-only view)")
        .def_property_readonly("machine", [](const PySimResult& r) { return r.machine; })
        .def_property_readonly("nodes", [](const PySimResult& r) { return r.layout->nodes(); })
        .def_property_readonly("transfers", [](const PySimResult& r) { return r.result.transfers; })
        .def_property_readonly("computes", [](const PySimResult& r) { return r.result.computes; })
        .def_property_readonly("compute_time",
                               [](const PySimResult& r) { return r.result.compute_time; })
        .def_property_readonly(
            "levels", [](const PySimResult& r) { return level_stats(r.result); },
            "per machine level: transfers, bytes, wire_time_s")
        .def_property_readonly(
            "queueing", [](const PySimResult& r) { return queueing_stats(r.result); },
            "per contention point: delayed_transfers, total_delay_s, "
            "max_delay_s")
        .def(
            "transfer_trace",
            [](const PySimResult& r) {
                require_trace(r);
                return transfer_rows(r);
            },
            "Rows: one per transfer, its times (needs trace=True)")
        .def(
            "compute_trace",
            [](const PySimResult& r) {
                require_trace(r);
                return compute_rows(r);
            },
            "Rows: one per compute task, its times (needs trace=True)")
        .def(
            "chrome_trace",
            [](const PySimResult& r) {
                require_trace(r);
                return chrome_trace_json(r.schedule.cast<const LoadedSchedule&>().schedule,
                                         *r.layout, r.result);
            },
            "the timeline as Chrome trace JSON (Perfetto), as `piccolo sim --trace` writes it")
        .def("__repr__", [](const PySimResult& r) {
            return py::str("<piccolo.SimResult makespan={} s on {}>")
                .format(r.result.makespan, r.machine);
        });
}

}  // namespace

void bind_simulate(py::module_& m) {
    bind_result(m);
    m.def("simulate", &run, py::arg("schedule"),
          py::arg("machine") = std::string(default_preset_name()), py::kw_only(),
          py::arg("nodes") = py::none(), py::arg("ppn") = py::none(),
          py::arg("placement") = py::none(), py::arg("contention") = true, py::arg("trace") = false,
          "replay `schedule` on `machine` (a Machine, preset name or file) as `piccolo sim` "
          "does: ppn ranks per node (default: the machine's devices per node) on `nodes` nodes "
          "(default: as many as the ranks fill); placement 'block' or 'round-robin' (default: "
          "the machine's); contention=False drops every queue; trace=True records the timeline.");
}

}  // namespace piccolo::python
