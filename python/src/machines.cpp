// Machines from Python: the presets, files, --set-style overrides, and read-only views of the
// levels and their LogGP tables. A Machine is held by value: overrides return a new one, as the
// CLI's --set does, so a study can keep the reference and its variants side by side.
#include <pybind11/stl.h>

#include <string_view>

#include "bindings.hpp"
#include "piccolo/topologies/machine_io.hpp"
#include "piccolo/topologies/machine_override.hpp"

namespace piccolo::python {

namespace {

py::dict loggp_dict(const LogGP& p) {
    py::dict d;
    d["L"] = p.L;
    d["o_s"] = p.o_s;
    d["o_r"] = p.o_r;
    d["g"] = p.g;
    d["G"] = p.G;
    return d;
}

py::list loggp_rows(const LogGPTable& table) {
    py::list rows;
    for (const LogGPRow& row : table.rows()) {
        py::dict d;
        d["bytes"] = row.bytes;
        d.attr("update")(loggp_dict(row.params));
        rows.append(std::move(d));
    }
    return rows;
}

std::string_view overhead_name(OverheadModel model) {
    return model == OverheadModel::cpu ? "cpu" : "offload";
}

py::dict level_dict(const Level& l) {
    py::dict d;
    d["name"] = l.name;
    d["fanout"] = l.fanout;
    d["radix"] = optional_value(l.radix);
    d["overhead"] = overhead_name(l.overhead);
    d["rendezvous"] = optional_value(l.rendezvous);
    d["capacity"] = optional_value(l.capacity);
    d["loggp"] = loggp_rows(l.loggp);
    return d;
}

std::string_view placement_name(PlacementKind kind) {
    switch (kind) {
        case PlacementKind::block:
            return "block";
        case PlacementKind::round_robin:
            return "round-robin";
        case PlacementKind::explicit_list:
            return "explicit";
    }
    return "block";
}

py::dict compute_dict(const ComputeCosts& c) {
    py::dict d;
    d["reduce_per_byte"] = c.reduce_per_byte;
    d["permute_latency"] = c.permute_latency;
    d["permute_per_byte"] = c.permute_per_byte;
    d["copy_per_byte"] = c.copy_per_byte;
    return d;
}

Machine load_and_warn(std::string_view name_or_file) {
    ImportWarnings warnings;
    Machine machine = load_machine(name_or_file, &warnings);
    warn_all(warnings);
    return machine;
}

Machine with_overrides(const Machine& machine, const std::vector<std::string>& texts) {
    std::vector<MachineOverride> overrides;
    for (const std::string& text : texts) overrides.push_back(parse_override(text));
    return apply_overrides(machine, overrides);
}

void bind_level(py::module_& m) {
    py::class_<Level>(m, "Level",
                      "One level of a machine above the device (node, group, system): its "
                      "LogGP table and how its messages are carried. Read-only.")
        .def_readonly("name", &Level::name)
        .def_readonly("fanout", &Level::fanout,
                      "children per unit (devices per node, nodes per group, ...); 0 = any")
        .def_property_readonly(
            "radix", [](const Level& l) { return optional_value(l.radix); },
            "transfers that may cross a unit's boundary at once per direction; None = unlimited")
        .def_property_readonly(
            "overhead", [](const Level& l) { return overhead_name(l.overhead); },
            "who carries o_s and o_r: 'offload' (device slots) or 'cpu' (one processor)")
        .def_property_readonly(
            "rendezvous", [](const Level& l) { return optional_value(l.rendezvous); },
            "messages of at least this many bytes are sent by rendezvous; None = eager")
        .def_property_readonly(
            "capacity", [](const Level& l) { return optional_value(l.capacity); },
            "bytes per second shared inside one unit (fair sharing); None = unlimited")
        .def_property_readonly(
            "loggp", [](const Level& l) { return loggp_rows(l.loggp); },
            "the LogGP table: dicts of bytes, L, o_s, o_r, g, G (seconds, "
            "seconds per byte), by increasing bytes")
        .def(
            "loggp_at", [](const Level& l, double bytes) { return loggp_dict(l.loggp.at(bytes)); },
            py::arg("bytes"),
            "L, o_s, o_r, g, G for a message of `bytes` (linear between rows, flat outside)")
        .def("to_dict", &level_dict, "every field as a dict")
        .def("__repr__", [](const Level& l) {
            return py::str("<piccolo.Level {} fanout={}>").format(l.name, l.fanout);
        });
}

void bind_machine_class(py::module_& m) {
    py::class_<Machine>(m, "Machine",
                        "A machine model: levels innermost first (node ... system), compute "
                        "costs, placement. Load one with Machine.preset(), Machine.load() or "
                        "Machine.from_yaml(); with_overrides() gives a what-if variant.")
        .def_static("preset", &load_preset, py::arg("name"),
                    "a preset compiled into piccolo (see piccolo.presets())")
        .def_static(
            "load",
            [](const std::string& name_or_file, const std::vector<std::string>& overrides) {
                return with_overrides(load_and_warn(name_or_file), overrides);
            },
            py::arg("name_or_file"), py::arg("overrides") = std::vector<std::string>{},
            "a preset name or a YAML / PICCL XML file, like the CLI's --machine, with "
            "--set-style overrides applied in order")
        .def_static(
            "from_yaml",
            [](std::string_view text, const std::string& origin) {
                return parse_machine_yaml(text, origin);
            },
            py::arg("text"), py::arg("origin") = "<string>",
            "a machine from YAML text (piccolo's format); `origin` names it in error messages")
        .def(
            "with_overrides",
            [](const Machine& self, py::args texts) {
                return with_overrides(self, texts.cast<std::vector<std::string>>());
            },
            "a copy with overrides applied in order, each as the CLI's --set takes it: "
            "'PATH=VALUE' or 'PATH*FACTOR' (e.g. 'system.G*0.5'); renamed NAME[overrides]")
        .def("override_paths", &override_paths, "the PATHs with_overrides() accepts here")
        .def("to_yaml", &machine_to_yaml, "piccolo's YAML for this machine")
        .def_readonly("name", &Machine::name)
        .def_readonly("description", &Machine::description)
        .def_property_readonly("devices_per_node", &Machine::devices_per_node)
        .def_property_readonly(
            "device_radix", [](const Machine& x) { return optional_value(x.device_radix); },
            "send and receive slots per device; None = unlimited")
        .def_readonly("levels", &Machine::levels, "list of Level, innermost (node) first")
        .def_property_readonly("level_names",
                               [](const Machine& x) {
                                   py::list names;
                                   for (const Level& l : x.levels) names.append(l.name);
                                   return names;
                               })
        .def(
            "level",
            [](const Machine& x, const std::string& name) -> const Level& {
                for (const Level& l : x.levels)
                    if (l.name == name) return l;
                throw py::key_error(name);
            },
            py::arg("name"), py::return_value_policy::copy, "the level called `name`")
        .def_property_readonly(
            "compute", [](const Machine& x) { return compute_dict(x.compute); },
            "compute costs: reduce_per_byte, permute_latency, "
            "permute_per_byte, copy_per_byte")
        .def_property_readonly("placement",
                               [](const Machine& x) { return placement_name(x.placement.kind); })
        .def_property_readonly(
            "sharing",
            [](const Machine& x) { return x.sharing == Sharing::fair ? "fair" : "fifo"; })
        .def_property_readonly(
            "style",
            [](const Machine& x) -> py::object {
                if (!x.style) return py::none();
                return py::str(std::string(to_string(*x.style)));
            },
            "the style collectives run in here ('mpi', 'nccl', ...); None")
        .def("__eq__", [](const Machine& a, const Machine& b) { return a == b; })
        .def("__repr__", [](const Machine& x) {
            return py::str("<piccolo.Machine {}: {} levels>").format(x.name, x.levels.size());
        });
}

}  // namespace

void warn_all(const std::vector<std::string>& warnings) {
    for (const std::string& warning : warnings) PyErr_WarnEx(PyExc_UserWarning, warning.c_str(), 1);
}

Machine machine_argument(const py::handle& machine) {
    if (py::isinstance<Machine>(machine)) return machine.cast<Machine>();
    if (py::isinstance<py::str>(machine)) return load_and_warn(machine.cast<std::string>());
    throw py::type_error("machine: give a piccolo.Machine, a preset name or a file path");
}

void bind_machines(py::module_& m) {
    bind_level(m);
    bind_machine_class(m);
    m.def("presets", &preset_names, "the names of the machine presets compiled into piccolo");
    m.def(
        "default_preset", [] { return std::string(default_preset_name()); },
        "the preset the CLI uses when --machine is not given");
}

}  // namespace piccolo::python
