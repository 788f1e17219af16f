// Calibration of a measured profile against measured collectives (calibrate.hpp): the knobs,
// the fit by coordinate descent with golden-section line searches, and the cross-validation.
#include "piccolo/studies/calibrate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "calibrate_cells.hpp"
#include "piccolo/core/error.hpp"
#include "piccolo/select/select_text.hpp"
#include "piccolo/topologies/machine_override.hpp"

namespace piccolo {

namespace {

constexpr double max_factor = 8;
constexpr std::size_t cells_per_knob = 3;
// Each evaluation replays every training cell, so the fit's cost is the number of evaluations.
// The golden section's bracket, 2 log 8 = 4.16 wide, shrinks to 0.618^27 = 1/431,000 of that:
// a factor is found to 1e-5, below the 4 decimals the report prints and far below the noise of
// measured medians (percents), where 40 steps (4e-9) cost 45 % more evaluations for nothing.
constexpr int line_search_steps = 27;
// A sweep that improves the mean |log| by less than 1e-4 of itself moves the reported error
// (exp of it, 3 decimals) by less than its last digit: stop there instead of sweeping on while
// coordinate descent creeps along a flat valley, up to max_sweeps times.
constexpr double min_sweep_gain = 1e-4;
constexpr int max_sweeps = 40;

std::vector<Knob> candidate_knobs(const Machine& m) {
    std::vector<Knob> knobs;
    for (const Level& level : m.levels) {
        knobs.push_back({level.name + ".time",
                         {level.name + ".L", level.name + ".o_s", level.name + ".o_r",
                          level.name + ".g"}});
        knobs.push_back({level.name + ".G", {level.name + ".G"}});
    }
    knobs.push_back({"compute",
                     {"compute.reduce_per_byte", "compute.copy_per_byte",
                      "compute.permute_per_byte"}});
    return knobs;
}

Machine with_factors(const Machine& m, const std::vector<Knob>& knobs,
                     const std::vector<double>& factors) {
    std::vector<MachineOverride> overrides;
    for (std::size_t i = 0; i < knobs.size(); ++i)
        if (factors[i] != 1)
            for (const std::string& path : knobs[i].paths)
                overrides.push_back({fmt::format("{}*{}", path, factors[i]), path,
                                     MachineOverride::Op::scale, "", factors[i]});
    Machine out = apply_overrides(m, overrides);
    out.name = m.name;
    return out;
}

// log(predicted / measured) of each of `rows` of `m`, predicted on `machine`.
std::vector<double> log_ratios(const Measurement& m, const detail::CalibrationCells& cells,
                               const std::vector<std::size_t>& rows, const Machine& machine) {
    const std::vector<double> predicted = cells.predict(machine, rows);
    std::vector<double> out;
    out.reserve(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i)
        out.push_back(std::log(predicted[i] / m.candidates[rows[i]].median_s));
    return out;
}

// Summed in row order, so the same for any number of threads.
double mean_abs(const std::vector<double>& logs) {
    double sum = 0;
    for (double l : logs) sum += std::abs(l);
    return sum / static_cast<double>(logs.size());
}

// exp(mean |log ratio|); NaN without cells.
double error_of(const std::vector<double>& logs) {
    return logs.empty() ? std::numeric_limits<double>::quiet_NaN() : std::exp(mean_abs(logs));
}

// Mean |log ratio| of the rows with the knobs at exp(x): the error the fit is reported by, so
// that a fit never reports more error than the profile had (factors of 1 are among those it
// tries), and a few cells far off (a stalled rank) pull it no more than their share.
struct Objective {
    const Measurement& m;
    const detail::CalibrationCells& cells;
    const std::vector<std::size_t>& rows;
    const Machine& profile;
    const std::vector<Knob>& knobs;
    double operator()(const std::vector<double>& x) const {
        std::vector<double> factors;
        for (double v : x) factors.push_back(std::exp(v));
        return mean_abs(log_ratios(m, cells, rows, with_factors(profile, knobs, factors)));
    }
};

// Golden-section search of coordinate i over [-log 8, log 8]; keeps x[i] if nothing is better.
double line_search(const Objective& f, std::vector<double>& x, std::size_t i, double current) {
    const double ratio = (std::sqrt(5.0) - 1) / 2;
    double lo = -std::log(max_factor), hi = std::log(max_factor);
    auto at = [&](double v) {
        std::vector<double> y = x;
        y[i] = v;
        return f(y);
    };
    double a = hi - ratio * (hi - lo), b = lo + ratio * (hi - lo);
    double fa = at(a), fb = at(b);
    for (int step = 0; step < line_search_steps; ++step) {
        if (fa < fb) {
            hi = b, b = a, fb = fa;
            a = hi - ratio * (hi - lo), fa = at(a);
        } else {
            lo = a, a = b, fa = fb;
            b = lo + ratio * (hi - lo), fb = at(b);
        }
    }
    const double v = fa < fb ? a : b, fv = std::min(fa, fb);
    if (fv < current) {
        x[i] = v;
        return fv;
    }
    return current;
}

std::vector<double> fit_factors(const Objective& f, std::size_t n) {
    std::vector<double> x(n, 0.0);
    double best = f(x);
    for (int sweep = 0; sweep < max_sweeps; ++sweep) {
        const double before = best;
        for (std::size_t i = 0; i < n; ++i) best = line_search(f, x, i, best);
        if (before - best <= min_sweep_gain * before) break;
    }
    std::vector<double> factors;
    for (double v : x) factors.push_back(std::exp(v));
    return factors;
}

// A fit on `train` rows, scored on them and on the `test` rows.
struct Fold {
    std::string name;
    std::vector<std::size_t> train, test;
};
struct FoldResult {
    CalibrationFit fit;
    std::vector<double> held_out_logs;  // pooled over the folds of one kind
};

FoldResult fit_fold(const Measurement& m, const detail::CalibrationCells& cells,
                    const Machine& profile, const std::vector<Knob>& knobs, const Fold& fold) {
    FoldResult out;
    CalibrationFit& fit = out.fit;
    fit.fold = fold.name;
    fit.factors = fit_factors(Objective{m, cells, fold.train, profile, knobs}, knobs.size());
    const Machine fitted = with_factors(profile, knobs, fit.factors);
    fit.training_cells = fold.train.size();
    fit.training_error = error_of(log_ratios(m, cells, fold.train, fitted));
    fit.held_out_cells = fold.test.size();
    fit.held_out_error = std::numeric_limits<double>::quiet_NaN();
    if (!fold.test.empty()) {
        out.held_out_logs = log_ratios(m, cells, fold.test, fitted);
        fit.held_out_error = error_of(out.held_out_logs);
    }
    return out;
}

// The knobs that move some prediction of `m` when doubled; the others go to `unexercised`.
std::vector<Knob> exercised(const detail::CalibrationCells& cells, const Machine& profile,
                            const std::vector<double>& base,
                            std::vector<std::string>& unexercised) {
    std::vector<std::size_t> every(base.size());
    for (std::size_t i = 0; i < every.size(); ++i) every[i] = i;
    std::vector<Knob> out;
    for (const Knob& knob : candidate_knobs(profile)) {
        const std::vector<double> moved = cells.predict(with_factors(profile, {knob}, {2}), every);
        bool moves = false;
        for (std::size_t i = 0; i < moved.size(); ++i)
            moves = moves || std::abs(moved[i] / base[i] - 1) > 1e-9;
        if (moves)
            out.push_back(knob);
        else
            unexercised.push_back(knob.name);
    }
    return out;
}

// The cross-validation's folds, each with at least `need` training cells: one algorithm left
// out (when there are several), then the lower half of the sizes against the upper half.
std::vector<Fold> folds_by_algorithm(const Measurement& m, std::size_t need) {
    std::vector<std::string> names;
    for (const MeasuredRow& row : m.candidates)
        if (std::find(names.begin(), names.end(), row.algorithm) == names.end())
            names.push_back(row.algorithm);
    std::vector<Fold> folds;
    for (const std::string& name : names) {
        Fold fold{"without " + name, {}, {}};
        for (std::size_t i = 0; i < m.candidates.size(); ++i)
            (m.candidates[i].algorithm == name ? fold.test : fold.train).push_back(i);
        if (names.size() > 1 && fold.train.size() >= need) folds.push_back(std::move(fold));
    }
    return folds;
}
std::vector<Fold> folds_by_size(const Measurement& m, std::size_t need) {
    std::set<std::uint64_t> sizes;
    for (const MeasuredRow& row : m.candidates) sizes.insert(row.bytes);
    const std::vector<std::uint64_t> sorted(sizes.begin(), sizes.end());
    std::vector<Fold> folds;
    if (sorted.size() < 2) return folds;
    const std::uint64_t last_low = sorted[sorted.size() / 2 - 1];
    std::vector<std::size_t> low, high;
    for (std::size_t i = 0; i < m.candidates.size(); ++i)
        (m.candidates[i].bytes <= last_low ? low : high).push_back(i);
    if (low.size() >= need)
        folds.push_back({"sizes up to " + detail::size_label(last_low), low, high});
    if (high.size() >= need)
        folds.push_back({"sizes above " + detail::size_label(last_low), high, low});
    return folds;
}

// The fit on every cell and the cross-validation's fits, in parallel: each fit is a sequence of
// evaluations that depends only on its own cells, so its result does not depend on the threads.
void fit_all(const Measurement& m, const detail::CalibrationCells& cells, const Machine& profile,
             CalibrationReport& r) {
    const std::size_t need = cells_per_knob * r.knobs.size();
    std::vector<Fold> folds = folds_by_algorithm(m, need);
    const std::size_t algorithm_folds = folds.size();
    for (Fold& fold : folds_by_size(m, need)) folds.push_back(std::move(fold));
    Fold every{"every cell", std::vector<std::size_t>(m.candidates.size()), {}};
    for (std::size_t i = 0; i < every.train.size(); ++i) every.train[i] = i;
    folds.insert(folds.begin(), std::move(every));
    std::vector<FoldResult> results(folds.size());
    tbb::parallel_for(std::size_t{0}, folds.size(), [&](std::size_t i) {
        results[i] = fit_fold(m, cells, profile, r.knobs, folds[i]);
    });
    r.all = std::move(results[0].fit);
    std::vector<double> by_algorithm, by_size;
    for (std::size_t i = 1; i < results.size(); ++i) {
        const bool algorithm = i <= algorithm_folds;
        std::vector<double>& pooled = algorithm ? by_algorithm : by_size;
        pooled.insert(pooled.end(), results[i].held_out_logs.begin(),
                      results[i].held_out_logs.end());
        (algorithm ? r.by_algorithm : r.by_size).push_back(std::move(results[i].fit));
    }
    r.held_out_by_algorithm = error_of(by_algorithm);
    r.held_out_by_size = error_of(by_size);
}

}  // namespace

CalibrationReport calibrate(const Measurement& m, const Machine& profile,
                            const CalibrateOptions& options) {
    CalibrationReport r;
    r.measured = m.origin;
    r.measured_host = m.host;
    r.measured_date = m.date;
    r.measured_library = m.mpi_library;
    r.cells = m.candidates.size();
    // The profile's own times as `piccolo accuracy` predicts them, a failing layout or cell
    // named as it names them.
    std::vector<double> base;
    try {
        base = predict_candidates(m, profile);
    } catch (const InputError& e) {  // another machine's layout: say which measurement
        throw InputError(fmt::format("{}: {}", m.origin, e.what()));
    }
    r.noise = score_accuracy(m, base).noise;
    if (!r.noise.empty() && !options.force_noisy)
        throw InputError(fmt::format(
            "{}: the timings are flagged noisy ({}); measure on an idle machine, or pass --force "
            "to calibrate on them anyway",
            m.origin, r.noise.front()));
    tbb::task_arena arena(options.threads > 0 ? options.threads
                                              : tbb::info::default_concurrency());
    const detail::CalibrationCells cells(m, prices_reclaim(profile));
    arena.execute([&] { r.knobs = exercised(cells, profile, base, r.unexercised); });
    if (r.knobs.empty())
        throw InputError(fmt::format("{}: no knob of the profile moves any prediction", m.origin));
    if (r.cells < cells_per_knob * r.knobs.size())
        throw InputError(fmt::format(
            "{}: {} cells for {} knobs: calibration needs at least {} cells per knob; measure "
            "more sizes or algorithms",
            m.origin, r.cells, r.knobs.size(), cells_per_knob));
    std::vector<double> logs;
    for (std::size_t i = 0; i < r.cells; ++i)
        logs.push_back(std::log(base[i] / m.candidates[i].median_s));
    r.uncalibrated_error = error_of(logs);
    arena.execute([&] { fit_all(m, cells, profile, r); });
    r.calibrated = with_factors(profile, r.knobs, r.all.factors);
    r.calibrated.name = profile.name + "-calibrated";
    return r;
}

}  // namespace piccolo
