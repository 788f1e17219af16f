// Calibration of a measured profile against measured collectives (calibrate.hpp): the knobs,
// the fit by coordinate descent with golden-section line searches, and the cross-validation.
#include "piccolo/calibrate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "piccolo/error.hpp"
#include "piccolo/machine_override.hpp"
#include "select_text.hpp"

namespace piccolo {

namespace {

constexpr double max_factor = 8;
constexpr std::size_t cells_per_knob = 3;
constexpr int line_search_steps = 40;  // the bracket shrinks to 0.618^40 = 4e-9 of its width
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

Measurement subset(const Measurement& m, const std::vector<std::size_t>& rows) {
    Measurement out = m;
    out.candidates.clear();
    for (std::size_t r : rows) out.candidates.push_back(m.candidates[r]);
    return out;
}

// log(predicted / measured) of every cell of `m`, predicted as predict_candidates does.
std::vector<double> log_ratios(const Measurement& m, const std::vector<double>& predicted) {
    std::vector<double> out;
    for (std::size_t i = 0; i < predicted.size(); ++i)
        out.push_back(std::log(predicted[i] / m.candidates[i].median_s));
    return out;
}
std::vector<double> log_ratios(const Measurement& m, const Machine& machine) {
    return log_ratios(m, predict_candidates(m, machine));
}

double mean_abs(const std::vector<double>& logs) {
    double sum = 0;
    for (double l : logs) sum += std::abs(l);
    return sum / static_cast<double>(logs.size());
}

// exp(mean |log ratio|); NaN without cells.
double error_of(const std::vector<double>& logs) {
    return logs.empty() ? std::numeric_limits<double>::quiet_NaN() : std::exp(mean_abs(logs));
}

// Mean |log ratio| of `m` with the knobs at exp(x): the error the fit is reported by, so that a
// fit never reports more error than the profile had (factors of 1 are among those it tries), and
// a few cells far off (a stalled rank) pull it no more than their share.
struct Objective {
    const Measurement& cells;
    const Machine& profile;
    const std::vector<Knob>& knobs;
    double operator()(const std::vector<double>& x) const {
        std::vector<double> factors;
        for (double v : x) factors.push_back(std::exp(v));
        return mean_abs(log_ratios(cells, with_factors(profile, knobs, factors)));
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
        if (before - best <= 1e-12 * std::max(before, 1e-30)) break;
    }
    std::vector<double> factors;
    for (double v : x) factors.push_back(std::exp(v));
    return factors;
}

// Fits on `train` rows, scores on `train` and `test` rows.
CalibrationFit fit_fold(const Measurement& m, const Machine& profile,
                        const std::vector<Knob>& knobs, std::string fold,
                        const std::vector<std::size_t>& train,
                        const std::vector<std::size_t>& test, std::vector<double>& pooled) {
    CalibrationFit fit;
    fit.fold = std::move(fold);
    const Measurement training = subset(m, train);
    fit.factors = fit_factors(Objective{training, profile, knobs}, knobs.size());
    const Machine fitted = with_factors(profile, knobs, fit.factors);
    fit.training_cells = train.size();
    fit.training_error = error_of(log_ratios(training, fitted));
    fit.held_out_cells = test.size();
    if (!test.empty()) {
        const std::vector<double> logs = log_ratios(subset(m, test), fitted);
        pooled.insert(pooled.end(), logs.begin(), logs.end());
        fit.held_out_error = error_of(logs);
    } else {
        fit.held_out_error = std::numeric_limits<double>::quiet_NaN();
    }
    return fit;
}

// The knobs that move some prediction of `m` when doubled; the others go to `unexercised`.
std::vector<Knob> exercised(const Measurement& m, const Machine& profile,
                            const std::vector<double>& base,
                            std::vector<std::string>& unexercised) {
    const std::vector<Knob> all = candidate_knobs(profile);
    std::vector<Knob> out;
    for (const Knob& knob : all) {
        const std::vector<double> moved = predict_candidates(m, with_factors(profile, {knob}, {2}));
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

void cross_validate(const Measurement& m, const Machine& profile, CalibrationReport& r) {
    const std::size_t need = cells_per_knob * r.knobs.size();
    std::vector<std::string> names;
    for (const MeasuredRow& row : m.candidates)
        if (std::find(names.begin(), names.end(), row.algorithm) == names.end())
            names.push_back(row.algorithm);
    std::vector<double> pooled;
    for (const std::string& name : names) {
        std::vector<std::size_t> train, test;
        for (std::size_t i = 0; i < m.candidates.size(); ++i)
            (m.candidates[i].algorithm == name ? test : train).push_back(i);
        if (names.size() > 1 && train.size() >= need)
            r.by_algorithm.push_back(
                fit_fold(m, profile, r.knobs, "without " + name, train, test, pooled));
    }
    r.held_out_by_algorithm = error_of(pooled);
    std::set<std::uint64_t> sizes;
    for (const MeasuredRow& row : m.candidates) sizes.insert(row.bytes);
    const std::vector<std::uint64_t> sorted(sizes.begin(), sizes.end());
    pooled.clear();
    if (sorted.size() >= 2) {
        const std::uint64_t last_low = sorted[sorted.size() / 2 - 1];
        std::vector<std::size_t> low, high;
        for (std::size_t i = 0; i < m.candidates.size(); ++i)
            (m.candidates[i].bytes <= last_low ? low : high).push_back(i);
        if (low.size() >= need)
            r.by_size.push_back(fit_fold(m, profile, r.knobs,
                                         "sizes up to " + detail::size_label(last_low), low, high,
                                         pooled));
        if (high.size() >= need)
            r.by_size.push_back(fit_fold(m, profile, r.knobs,
                                         "sizes above " + detail::size_label(last_low), high, low,
                                         pooled));
    }
    r.held_out_by_size = error_of(pooled);
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
    r.knobs = exercised(m, profile, base, r.unexercised);
    if (r.knobs.empty())
        throw InputError(fmt::format("{}: no knob of the profile moves any prediction", m.origin));
    if (r.cells < cells_per_knob * r.knobs.size())
        throw InputError(fmt::format(
            "{}: {} cells for {} knobs: calibration needs at least {} cells per knob; measure "
            "more sizes or algorithms",
            m.origin, r.cells, r.knobs.size(), cells_per_knob));
    r.uncalibrated_error = error_of(log_ratios(m, base));
    std::vector<std::size_t> every(r.cells);
    for (std::size_t i = 0; i < r.cells; ++i) every[i] = i;
    std::vector<double> unused;
    r.all = fit_fold(m, profile, r.knobs, "every cell", every, {}, unused);
    cross_validate(m, profile, r);
    r.calibrated = with_factors(profile, r.knobs, r.all.factors);
    r.calibrated.name = profile.name + "-calibrated";
    return r;
}

}  // namespace piccolo
