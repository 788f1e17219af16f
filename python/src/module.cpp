// piccolo._core: the compiled half of the Python package `piccolo` (python/piccolo/__init__.py
// re-exports it). Each area registers itself from its own file; errors the user can fix become
// piccolo.InputError, a ValueError carrying the CLI's one-line message.
#include "bindings.hpp"
#include "piccolo/core/error.hpp"

namespace piccolo::python {

py::object make_rows(py::list rows, py::dict meta) {
    return py::module_::import("piccolo._rows").attr("Rows")(std::move(rows), std::move(meta));
}

}  // namespace piccolo::python

PYBIND11_MODULE(_core, m) {
    namespace py = pybind11;
    m.doc() = "piccolo's C++ libraries (schedules, topologies, sim) for Python studies";
    py::register_exception<piccolo::InputError>(m, "InputError", PyExc_ValueError);
    piccolo::python::bind_machines(m);
    piccolo::python::bind_schedules(m);
    piccolo::python::bind_simulate(m);
    piccolo::python::bind_studies(m);
    piccolo::python::bind_accuracy(m);
}
