// calibrate.hpp's outputs: the table of fits and the calibrated machine's YAML with its record.
#include <fmt/format.h>

#include <cmath>

#include "piccolo/studies/calibrate.hpp"
#include "piccolo/topologies/machine_io.hpp"

namespace piccolo {

namespace {

std::string error_text(double e) { return std::isnan(e) ? "-" : fmt::format("{:.3f}", e); }

std::string fit_row(const CalibrationFit& f, std::size_t width) {
    std::string row = fmt::format("{:<{}}", f.fold, width);
    for (double factor : f.factors) row += fmt::format(" {:>12.4f}", factor);
    return row + fmt::format(" | {:>6} {:>9} | {:>6} {:>9}\n", f.training_cells,
                             error_text(f.training_error), f.held_out_cells,
                             error_text(f.held_out_error));
}

}  // namespace

std::string calibration_table(const CalibrationReport& r) {
    std::string out = fmt::format("calibration on {}: {} cells, uncalibrated error {:.3f}\n",
                                  r.measured, r.cells, r.uncalibrated_error);
    if (!r.unexercised.empty()) {
        std::string names;
        for (const std::string& n : r.unexercised) names += (names.empty() ? "" : ", ") + n;
        out += fmt::format("not exercised by this measurement (left at 1): {}\n", names);
    }
    if (!r.noise.empty())
        out += fmt::format("warning: noisy timings, forced: {}\n", r.noise.front());
    std::size_t width = 20;
    for (const auto* folds : {&r.by_algorithm, &r.by_size})
        for (const CalibrationFit& f : *folds) width = std::max(width, f.fold.size());
    std::string header = fmt::format("{:<{}}", "fit", width);
    for (const Knob& k : r.knobs) header += fmt::format(" {:>12}", k.name);
    out += header + fmt::format(" | {:>6} {:>9} | {:>6} {:>9}\n", "cells", "training", "cells",
                                "held out");
    out += fit_row(r.all, width);
    for (const auto* folds : {&r.by_algorithm, &r.by_size})
        for (const CalibrationFit& f : *folds) out += fit_row(f, width);
    out += fmt::format(
        "error, exp(mean |log(predicted/measured)|): uncalibrated {:.3f}, fitted on every cell "
        "{:.3f}; held out: one algorithm left out {}, by size {}\n",
        r.uncalibrated_error, r.all.training_error, error_text(r.held_out_by_algorithm),
        error_text(r.held_out_by_size));
    return out;
}

std::string calibrated_yaml(const CalibrationReport& r, const std::string& command_line) {
    std::string knobs;
    for (std::size_t i = 0; i < r.knobs.size(); ++i)
        knobs += fmt::format("{}{} x{:.4f}", i ? ", " : "", r.knobs[i].name, r.all.factors[i]);
    std::string head = fmt::format(
        "# Calibrated by piccolo calibrate (docs/accuracy.md, \"3. Calibrate\").\n"
        "# command: {}\n# measurement: {} ({} cells; host {}, {}, {})\n# fitted: {}\n",
        command_line, r.measured, r.cells, r.measured_host, r.measured_date, r.measured_library,
        knobs);
    for (const Knob& k : r.knobs) {
        std::string paths;
        for (const std::string& p : k.paths) paths += (paths.empty() ? "" : ", ") + p;
        head += fmt::format("#   {} scales {}\n", k.name, paths);
    }
    head += fmt::format(
        "# error, exp(mean |log(predicted/measured)|): uncalibrated {:.3f}; on the cells fitted "
        "{:.3f}; held out, one algorithm left out {}, by size {}\n",
        r.uncalibrated_error, r.all.training_error, error_text(r.held_out_by_algorithm),
        error_text(r.held_out_by_size));
    if (!r.noise.empty())
        head += fmt::format("# warning: fitted to timings flagged noisy: {}\n", r.noise.front());
    return head + machine_to_yaml(r.calibrated);
}

}  // namespace piccolo
