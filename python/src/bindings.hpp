#pragma once
// Shared by the binding files of piccolo._core, one per area (python/README.md): what each area
// registers, and the conversions more than one area needs.

#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "piccolo/machine.hpp"

namespace piccolo::python {

namespace py = pybind11;

void bind_machines(py::module_& m);   // machines.cpp
void bind_schedules(py::module_& m);  // schedules.cpp
void bind_simulate(py::module_& m);   // simulate.cpp
void bind_studies(py::module_& m);    // studies.cpp: select, compare, vary
void bind_accuracy(py::module_& m);   // accuracy.cpp

// A machine argument: a piccolo.Machine, or a preset name or file path (loaded as the CLI's
// --machine does; the loader's warnings become Python warnings).
Machine machine_argument(const py::handle& machine);
// The loader's warnings ("FILE:LINE: field: what changed") as Python UserWarnings.
void warn_all(const std::vector<std::string>& warnings);

// A piccolo.Rows (python/piccolo/_rows.py): a list of dicts with to_pandas(), and `meta`
// (a dict of what is true of every row: machine, notes, ...) also readable as attributes.
py::object make_rows(py::list rows, py::dict meta);

// None for an empty optional, else the value.
template <class T>
py::object optional_value(const std::optional<T>& value) {
    return value ? py::cast(*value) : py::none();
}

}  // namespace piccolo::python
