#pragma once
// Calibration: a few model knobs of a measured profile fitted to measured collective times
// (piccolo-run-mpi's rows of every candidate), with cross-validation, so that what the fit
// gains is shown on cells it never saw. docs/accuracy.md, "3. Calibrate".
//
// Knobs, each a factor on numbers of the profile (machine_override.hpp's PATH*FACTOR):
//   LEVEL.time  L, o_s, o_r and g of every row of the level's table (per-message costs);
//   LEVEL.G     G of every row (the per-byte cost: 1 / bandwidth);
//   compute     reduce_per_byte, copy_per_byte and permute_per_byte (work on a rank's data).
// Only the knobs the measurement exercises are fitted (a knob that moves no prediction when
// doubled is left at 1 and listed). The fit minimizes the mean |log(predicted/measured)| over
// the training cells (a cell: one candidate at one size), one knob at a time by golden
// section over factors in [1/8, 8], until a sweep over the knobs improves it by less than 1e-4
// of itself. The fits (every cell, then each fold) run in parallel, and so do the replays of
// one evaluation (sim/studies/src/calibrate_cells.hpp): each distinct schedule is generated once
// and replayed once per evaluation.

#include <cstddef>
#include <string>
#include <vector>

#include "piccolo/studies/accuracy.hpp"
#include "piccolo/topologies/machine.hpp"

namespace piccolo {

struct Knob {
    std::string name;                // "node.time", "system.G", "compute"
    std::vector<std::string> paths;  // the override paths it scales together
};

// One fit: its factors (one per exercised knob) and its error, exp(mean |log(pred/meas)|), on
// the cells it was fitted to and on the cells left out of it.
struct CalibrationFit {
    std::string fold;  // "every cell", "without ring", "sizes up to 4 KiB", ...
    std::vector<double> factors;
    std::size_t training_cells = 0, held_out_cells = 0;
    double training_error = 0;
    double held_out_error = 0;  // NaN without held-out cells
};

struct CalibrationReport {
    std::string measured;  // the measurement's file, for the record
    std::string measured_host, measured_date, measured_library;
    std::vector<Knob> knobs;
    std::vector<std::string> unexercised;  // knobs no cell depends on
    std::size_t cells = 0;
    double uncalibrated_error = 0;
    CalibrationFit all;                         // every cell
    std::vector<CalibrationFit> by_algorithm;   // leave one algorithm out
    std::vector<CalibrationFit> by_size;        // lower half of the sizes vs the upper half
    double held_out_by_algorithm = 0;           // pooled over the folds' held-out cells
    double held_out_by_size = 0;
    std::vector<std::string> noise;             // why the timings are noisy (forced through)
    Machine calibrated;                         // the profile with all.factors applied
};

struct CalibrateOptions {
    bool force_noisy = false;  // calibrate a measurement flagged noisy
    int threads = 0;           // 0: every core; the report is the same for any number
};

// Throws InputError (one line naming the measurement's file) when the measurement is flagged
// noisy (unless forced), has fewer than 3 cells per exercised knob, or does not fit the
// profile's layout.
CalibrationReport calibrate(const Measurement& measurement, const Machine& profile,
                            const CalibrateOptions& options = {});

// The report as text: knobs and factors per fit, training and held-out error side by side.
std::string calibration_table(const CalibrationReport& r);
// The calibrated machine as YAML, headed by comments that record what was fitted, from which
// measurement, with what error.
std::string calibrated_yaml(const CalibrationReport& r, const std::string& command_line);

}  // namespace piccolo
