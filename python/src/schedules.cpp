// Schedules from Python: generate, read and write XML, verify, and the task columns as NumPy
// arrays. The columns are views of the C++ vectors, not copies: a schedule of millions of tasks
// is read at NumPy's speed, and each view holds a reference to its Schedule so that the memory
// outlives the Python object that owned it.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "bindings.hpp"
#include "piccolo/core/error.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/schedule_xml.hpp"
#include "piccolo/schedules/verify.hpp"

namespace piccolo::python {

namespace {

// A schedule with where its tasks came from: a file's lines for the verifier's messages, or
// none for a generated schedule (origin then names the algorithm).
using PySchedule = LoadedSchedule;

// A read-only array over `values`, kept alive by `owner` (the Python Schedule).
template <class T>
py::array column(const std::vector<T>& values, const py::object& owner) {
    py::array out(py::dtype::of<T>(), {values.size()}, {sizeof(T)}, values.data(), owner);
    out.attr("setflags")(py::arg("write") = false);
    return out;
}

template <class T>
py::cpp_function column_getter(const std::vector<T> Schedule::*member) {
    return py::cpp_function([member](const py::object& self) {
        return column(self.cast<const PySchedule&>().schedule.*member, self);
    });
}

// The verifier's first violation as an InputError, "FILE:LINE: message" as `piccolo verify`
// prints it.
[[noreturn]] void raise_violation(const PySchedule& s, const Violation& v) {
    throw InputError((v.task == Violation::no_task ? s.origin : s.where(v.task)) + ": " +
                     v.message);
}

py::dict verify_schedule(const PySchedule& s) {
    VerifyReport report;
    {
        py::gil_scoped_release release;
        report = verify(s.schedule);
    }
    if (report.violation) raise_violation(s, *report.violation);
    py::dict d;
    d["transfers"] = report.transfers;
    d["computes"] = report.computes;
    d["bytes_moved"] = report.bytes_moved;
    d["data_flow_checked"] = report.data_flow_checked;
    return d;
}

PySchedule load_schedule(const std::filesystem::path& file) {
    py::gil_scoped_release release;
    PySchedule loaded = read_schedule_xml(file);
    // The engine assumes ranks in range and no cycle: checked here, as `piccolo sim FILE` does.
    std::vector<TaskId> order;
    if (auto v = verify_structure(loaded.schedule, order)) raise_violation(loaded, *v);
    return loaded;
}

PySchedule generate_schedule(const std::string& collective, const std::string& algorithm, int k,
                             const std::string& style, Rank p, std::uint64_t size, bool payload,
                             Rank root) {
    GenerateRequest request;
    request.collective = parse_collective(collective);
    request.algorithm = algorithm;
    request.k = k;
    request.ranks = p;
    request.root = root;
    request.bytes = size;
    request.payload = payload;
    request.style = parse_style(style);
    PySchedule out;
    out.origin = algorithm;
    py::gil_scoped_release release;
    out.schedule = generate(request);
    return out;
}

PySchedule resized(const PySchedule& s, std::uint64_t bytes) {
    PySchedule out;
    out.origin = s.origin;
    out.lines = s.lines;
    out.schedule = with_message_size(s.schedule, bytes);
    return out;
}

void bind_schedule_columns(py::class_<PySchedule>& c) {
    c.def_property_readonly("src", column_getter(&Schedule::src),
                            "int32 per task: the sending rank (compute tasks: the rank working)")
        .def_property_readonly("dst", column_getter(&Schedule::dst),
                               "int32 per task: the receiving rank (compute tasks: = src)")
        .def_property_readonly("kind", py::cpp_function([](const py::object& self) {
                                   const auto& kinds = self.cast<const PySchedule&>().schedule.kind;
                                   static_assert(sizeof(TaskKind) == 1);
                                   py::array out(py::dtype::of<std::uint8_t>(), {kinds.size()}, {1},
                                                 kinds.data(), self);
                                   out.attr("setflags")(py::arg("write") = false);
                                   return out;
                               }),
                               "uint8 per task: an index into piccolo.TASK_KINDS (0 = transfer)")
        .def_property_readonly("size_class", column_getter(&Schedule::size_class),
                               "uint32 per task: an index into size_values")
        .def_property_readonly("size_values", column_getter(&Schedule::size_values),
                               "uint64: the distinct task sizes in bytes")
        .def_property_readonly(
            "size",
            [](const py::object& self) -> py::object {
                // The IR stores a size class per task, not a size: one NumPy gather. (An
                // explicit py::object: the accessor would outlive the array it indexes.)
                const py::object values = self.attr("size_values");
                return values[self.attr("size_class")];
            },
            "uint64 per task: its bytes (size_values[size_class]; a new array)");
}

void bind_schedule_class(py::module_& m) {
    py::class_<PySchedule> c(m, "Schedule",
                             "A collective's DAG of transfer and compute tasks. Columns src, dst, "
                             "kind, size_class, size_values are read-only NumPy views of the "
                             "C++ memory.");
    c.def_property_readonly(
         "collective",
         [](const PySchedule& s) { return std::string(to_string(s.schedule.shape.collective)); })
        .def_property_readonly("algorithm",
                               [](const PySchedule& s) { return s.schedule.algorithm; })
        .def_property_readonly(
            "k", [](const PySchedule& s) { return s.schedule.k; },
            "radix; 0 when the algorithm has none")
        .def_property_readonly("ranks", [](const PySchedule& s) { return s.schedule.shape.ranks; })
        .def_property_readonly(
            "bytes", [](const PySchedule& s) { return s.schedule.shape.bytes; },
            "MPICH's count in bytes: the per-rank contribution (allgather), the buffer (allreduce, "
            "bcast, reduce), the block each rank ends with (reduce_scatter) or sends to each rank "
            "(alltoall)")
        .def_property_readonly(
            "root", [](const PySchedule& s) { return s.schedule.shape.root; },
            "the rank a bcast starts from or a reduce ends on; 0 for the other collectives")
        .def_property_readonly("pieces",
                               [](const PySchedule& s) { return s.schedule.shape.pieces; })
        .def_property_readonly("style",
                               [](const PySchedule& s) -> py::object {
                                   if (s.schedule.style.empty()) return py::none();
                                   return py::str(s.schedule.style);
                               })
        .def_property_readonly(
            "origin", [](const PySchedule& s) { return s.origin; },
            "the file it was read from, or the algorithm that generated it")
        .def_property_readonly("has_payload",
                               [](const PySchedule& s) { return s.schedule.has_payload(); })
        .def_property_readonly("transfer_count",
                               [](const PySchedule& s) { return s.schedule.transfer_count(); })
        .def("__len__", [](const PySchedule& s) { return s.schedule.size(); })
        .def("verify", &verify_schedule,
             "the structural checks and (with payload) the data-flow proof of `piccolo verify`; "
             "raises InputError with the verifier's message, else returns counts")
        .def("to_xml", [](const PySchedule& s) { return schedule_to_xml(s.schedule); })
        .def(
            "write",
            [](const PySchedule& s, const std::filesystem::path& file) {
                py::gil_scoped_release release;
                write_schedule_xml(s.schedule, file);
            },
            py::arg("file"), "write piccolo's schedule XML")
        .def("with_size", &resized, py::arg("bytes"),
             "the same DAG for another message size (as a sweep resizes)")
        .def("__repr__", [](const PySchedule& s) {
            return py::str("<piccolo.Schedule {} {} k={} p={} bytes={}: {} tasks>")
                .format(to_string(s.schedule.shape.collective), s.schedule.algorithm, s.schedule.k,
                        s.schedule.shape.ranks, s.schedule.shape.bytes, s.schedule.size());
        });
    bind_schedule_columns(c);
}

py::list algorithm_list() {
    py::list out;
    for (const AlgorithmInfo& a : algorithms()) {
        py::dict d;
        d["name"] = std::string(a.name);
        d["summary"] = std::string(a.summary);
        d["has_radix"] = a.has_radix;
        py::list collectives;
        for (Collective c : all_collectives)
            if (builds(a, c)) collectives.append(std::string(to_string(c)));
        d["collectives"] = std::move(collectives);
        out.append(std::move(d));
    }
    return out;
}

}  // namespace

void bind_schedules(py::module_& m) {
    bind_schedule_class(m);
    m.attr("TASK_KINDS") = py::make_tuple("transfer", "reduce", "permute", "copy");
    m.def("algorithms", &algorithm_list, "the generators: name, summary, has_radix, collectives (those it builds)");
    m.def(
        "valid_radices",
        [](const std::string& algorithm, Rank p) {
            const AlgorithmInfo& info = find_algorithm(algorithm);
            return info.valid_radices ? info.valid_radices(p) : std::vector<int>{};
        },
        py::arg("algorithm"), py::arg("p"), "the k an algorithm accepts for p ranks ([] if none)");
    m.def("generate", &generate_schedule, py::arg("collective"), py::arg("algorithm"),
          py::arg("k") = 0, py::arg("style") = "mpi", py::kw_only(), py::arg("p"), py::arg("size"),
          py::arg("payload") = true, py::arg("root") = 0,
          "generate a schedule, as `piccolo gen`: collective 'allgather', 'allreduce', 'bcast', "
          "'reduce', 'reduce_scatter' or 'alltoall', an algorithm of piccolo.algorithms() that "
          "builds it, radix k (0 without one), style 'mpi', 'nccl' or 'pipelined', p ranks, size "
          "bytes (MPICH's count, as Schedule.bytes says), root the rank a bcast starts from or a "
          "reduce ends on (--root). payload=False leaves out the block lists (the engine needs "
          "none; verify() then checks the structure only).");
    m.def("load_schedule", &load_schedule, py::arg("file"),
          "read a schedule XML file (piccolo's or PICCL's format) and check its structure");
}

}  // namespace piccolo::python
