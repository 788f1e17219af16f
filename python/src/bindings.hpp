#pragma once
// Shared by the binding files of piccolo._core, one per area (python/README.md): what each area
// registers, and the conversions more than one area needs.

#include <pybind11/pybind11.h>

#include <chrono>
#include <exception>
#include <future>
#include <string>
#include <vector>

#include "piccolo/select/select.hpp"
#include "piccolo/topologies/machine.hpp"

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

// Runs `work` (a sweep given `progress`) on a thread of its own, without the GIL, while this
// (the main) thread looks for signals every 50 ms: Python runs its signal handlers only on the
// main thread, between bytecodes, and a long C++ call would otherwise hold Ctrl-C until it ends.
// A KeyboardInterrupt (or any exception a handler raises) cancels the sweep, waits for it to stop
// (at most one replay per thread) and propagates.
template <class Work>
auto interruptible(SweepProgress& progress, Work work) -> decltype(work()) {
    std::future<decltype(work())> result;
    {
        py::gil_scoped_release release;
        result = std::async(std::launch::async, work);
    }
    for (;;) {
        {
            py::gil_scoped_release release;
            if (result.wait_for(std::chrono::milliseconds(50)) == std::future_status::ready)
                break;
        }
        if (PyErr_CheckSignals() != 0) {
            progress.cancel();
            {
                py::gil_scoped_release release;
                result.wait();
            }
            throw py::error_already_set();
        }
    }
    return result.get();  // rethrows the sweep's own exception
}

}  // namespace piccolo::python
