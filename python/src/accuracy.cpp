// accuracy() from Python: `piccolo accuracy` — piccolo-run-mpi's measurement of every candidate
// next to the engine's prediction of the same candidates on a machine profile, scored per size.
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <cmath>

#include "bindings.hpp"
#include "piccolo/studies/accuracy.hpp"
#include "piccolo/topologies/machine_io.hpp"

namespace piccolo::python {

namespace {

// "rm k=4 (mpi)", "ring (nccl)": how the CLI's outputs name a candidate.
std::string candidate_label(const MeasuredRow& row) {
    return row.algorithm + (row.k > 0 ? " k=" + std::to_string(row.k) : "") + " (" + row.style +
           ")";
}

py::object number_or_none(double v) {
    return std::isfinite(v) ? py::cast(v) : py::none();
}

py::dict size_row(const AccuracyReport& r, const SizeScore& s) {
    const auto row_of = [&](std::size_t i) -> const MeasuredRow& {
        return r.measurement.candidates[s.candidates[i].row];
    };
    py::list candidates;
    for (std::size_t i = 0; i < s.candidates.size(); ++i) {
        py::dict c;
        c["algorithm"] = row_of(i).algorithm;
        c["k"] = row_of(i).k;
        c["style"] = row_of(i).style;
        c["measured_s"] = s.candidates[i].measured_s;
        c["ci_low_s"] = row_of(i).ci_low_s;
        c["ci_high_s"] = row_of(i).ci_high_s;
        c["predicted_s"] = s.candidates[i].predicted_s;
        candidates.append(std::move(c));
    }
    py::dict d;
    d["collective"] = std::string(to_string(s.collective));
    d["bytes"] = s.bytes;
    d["measured_best"] = candidate_label(row_of(s.measured_best));
    d["predicted_best"] = candidate_label(row_of(s.predicted_best));
    d["captured_share"] = s.captured;
    d["spearman"] = number_or_none(s.spearman);
    d["within_ci"] = s.within_noise;
    d["library_s"] = optional_value(s.library_s);
    d["candidates"] = candidates;
    return d;
}

py::dict report_meta(const AccuracyReport& r) {
    const Measurement& m = r.measurement;
    py::dict meta;
    meta["host"] = m.host;
    meta["date"] = m.date;
    meta["mpi_library"] = m.mpi_library;
    meta["ranks"] = m.ranks;
    meta["nodes"] = m.nodes;
    meta["ranks_per_node"] = m.ranks_per_node;
    meta["profile"] = r.profile;
    meta["machine"] = r.machine;
    meta["noisy"] = !r.noise.empty();
    meta["noise"] = r.noise;
    py::dict means;
    for (const auto& [collective, mean] : r.geomean_by_collective)
        means[py::str(std::string(to_string(collective)))] = number_or_none(mean);
    means["all"] = number_or_none(r.geomean);
    meta["geomean_captured_share"] = means;
    return meta;
}

py::object run_accuracy(const std::filesystem::path& measured, const py::handle& machine_arg) {
    const Machine machine = machine_argument(machine_arg);
    AccuracyReport report;
    {
        py::gil_scoped_release release;
        Measurement measurement = read_measurement(measured);
        const std::vector<double> predicted = predict_candidates(measurement, machine);
        report = score_accuracy(std::move(measurement), predicted);
    }
    report.machine = machine.name;
    report.profile =
        py::isinstance<py::str>(machine_arg) ? machine_arg.cast<std::string>() : machine.name;
    py::list rows;
    for (const SizeScore& s : report.sizes) rows.append(size_row(report, s));
    return make_rows(rows, report_meta(report));
}

}  // namespace

void bind_accuracy(py::module_& m) {
    m.def("accuracy", &run_accuracy, py::arg("measured"), py::arg("machine"),
          "score simulation against measurement, as `piccolo accuracy --measured FILE -m "
          "MACHINE`: Rows, one per (collective, size), with the fields of its --json sizes "
          "(measured_best, predicted_best, captured_share, spearman, within_ci, library_s, "
          "candidates); meta: the run (host, date, ranks, ...), profile, machine, noise, "
          "geomean_captured_share.");
}

}  // namespace piccolo::python
