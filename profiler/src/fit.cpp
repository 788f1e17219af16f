#include "piccolo/profiler/fit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <sstream>

#include "piccolo/core/error.hpp"
#include "piccolo/profiler/stats.hpp"
#include "piccolo/topologies/machine_io.hpp"

#include "format_bytes.hpp"

namespace piccolo::profiler {
namespace {

// Below the resolution of the timers the transports use; keeps every parameter positive.
constexpr double time_floor = 1e-9;  // s
constexpr double G_floor = 1e-15;    // s/B, i.e. 1 PB/s
// A segment whose lines miss the medians by more than this (RMS, relative) is flagged: LogGP
// lines fit clean measurements within a few percent.
constexpr double noisy_residual = 0.2;
// The segmentation is cubic in the number of sizes; a profile measures a few dozen (sizes x2
// plus refinements), so this many only comes from a malformed or synthetic file.
constexpr std::size_t max_sizes_per_level = 512;

struct Series {
    std::vector<double> prtt1, prtt_n, prtt_nd, o_r, delays;
    int n = 0;
};

struct LevelSeries {
    std::string name;
    std::map<std::size_t, Series> by_size;
};

void add_train(const std::string& origin, const RawSample& s, Series& series) {
    if (series.n != 0 && series.n != s.n) {
        throw InputError(fmt::format(
            "{}: level '{}', {} B: PRTT trains of length {} and {} (use one n per size)", origin,
            s.level, s.bytes, series.n, s.n));
    }
    series.n = s.n;
    if (s.delay > 0) {
        series.prtt_nd.push_back(s.seconds);
        series.delays.push_back(s.delay);
    } else {
        series.prtt_n.push_back(s.seconds);
    }
}

SizePoint summarize_size(const std::string& origin, const std::string& level, std::size_t bytes,
                         const Series& series) {
    auto require = [&](const std::vector<double>& v, const char* what) {
        if (v.empty()) {
            throw InputError(fmt::format(
                "{}: level '{}', {} B: no {} samples (every size needs prtt rows with n=1 d=0, "
                "n>1 d=0, n>1 d>0 and o_r rows)",
                origin, level, bytes, what));
        }
    };
    require(series.prtt1, "PRTT(1,0,s)");
    require(series.prtt_n, "PRTT(n,0,s)");
    require(series.prtt_nd, "PRTT(n,d,s)");
    require(series.o_r, "o_r");
    SizePoint p;
    p.bytes = static_cast<double>(bytes);
    p.n = series.n;
    p.delay = median(series.delays);
    std::size_t total = 0, rejected = 0;
    auto robust_median = [&](const std::vector<double>& v) {
        const RobustSummary summary = summarize(v);
        total += v.size();
        rejected += summary.rejected;
        return summary.median;
    };
    p.prtt1 = robust_median(series.prtt1);
    p.prtt_n = robust_median(series.prtt_n);
    p.prtt_nd = robust_median(series.prtt_nd);
    p.o_r = robust_median(series.o_r);
    p.samples = total;
    p.rejected = rejected;
    return p;
}

SegmentFit fit_segment(const std::vector<SizePoint>& points, Piece piece) {
    std::vector<double> x, gap, half, o_s, o_r, o_s_weight;
    for (std::size_t i = piece.first; i <= piece.last; ++i) {
        const SizePoint& p = points[i];
        x.push_back(p.bytes - 1);
        gap.push_back(p.gap());
        half.push_back(p.half_round_trip());
        o_s.push_back(p.o_s());
        o_r.push_back(p.o_r);
        // o_s is a small difference of round trips: its noise scales with PRTT(1,0,s), not
        // with o_s itself, so large sizes get little weight.
        o_s_weight.push_back(1 / (p.prtt1 * p.prtt1));
    }
    SegmentFit segment;
    segment.first_bytes = points[piece.first].bytes;
    segment.last_bytes = points[piece.last].bytes;
    segment.points = x.size();
    segment.gap = fit_line_relative(x, gap, {time_floor, G_floor});
    segment.half_round_trip = fit_line_relative(x, half, {time_floor, 0});
    segment.o_s = fit_line(x, o_s, o_s_weight, {time_floor, 0});
    segment.o_r = fit_line_relative(x, o_r, {time_floor, 0});
    return segment;
}

// What the adjustments of append_rows did to a segment, for its notes.
struct Adjustments {
    int capped = 0, reduced = 0, shifted = 0, floored = 0;
    double max_cut = 0, max_reduction = 0, first_reduced = 0, max_shift = 0;
};

// One note per kind of adjustment made, with how often and how much.
void note_adjustments(const SegmentFit& segment, double g, double latency_floor,
                      const Adjustments& n, LevelFit& level) {
    const std::string range = fmt::format("{} .. {}", format_bytes(segment.first_bytes),
                                          format_bytes(segment.last_bytes));
    if (n.capped > 0) {
        level.notes.push_back(fmt::format(
            "{} {}: o_s capped at g = {:.3f} us at {}, by up to {:.3f} us (sends follow "
            "each other g apart, so a longer send call overlaps the transfer, e.g. a blocking "
            "rendezvous)",
            level.level, range, g * 1e6, count_sizes(n.capped), n.max_cut * 1e6));
    }
    if (n.reduced > 0) {
        level.notes.push_back(fmt::format(
            "{} {}: overheads reduced by up to {:.3f} us at {} from {} on, keeping L >= "
            "{:.3f} us (the receive call copies data that (s-1)G already prices)",
            level.level, range, n.max_reduction * 1e6, count_sizes(n.reduced),
            format_bytes(n.first_reduced), latency_floor * 1e6));
    }
    if (n.shifted > 0) {
        level.notes.push_back(fmt::format(
            "{} {}: at {} (s-1)G exceeded the half round trip: G lowered by up to {:.1f} % "
            "and g raised by the same time (a single message costs the measured half round "
            "trip, back-to-back ones the measured gap)",
            level.level, range, count_sizes(n.shifted), n.max_shift * 100));
    }
    if (n.floored > 0) {
        level.notes.push_back(
            fmt::format("{} {}: L floored at 1 ns at {}: the half round trip is below the minimal "
                        "overheads (noisy medians?)",
                        level.level, range, count_sizes(n.floored)));
    }
}

// Table rows of one segment: g and G from the segment's gap line, o_s from its o_s line (the
// per-size value is a small difference of round trips, too noisy on its own), o_r as measured at
// that size, and L = PRTT(1,0,s)/2 - o_s - o_r - (s-1)G with the measured PRTT(1,0,s). Two
// adjustments keep the rows consistent with the engine's semantics (sim/engine/README.md, "The
// LogGP contract the engine implements") while preserving the measured half round trip
// o_s + (s-1)G + L + o_r exactly:
//  - o_s <= g, or back-to-back sends would be spaced max(o_s, g) + (s-1)G, more than the
//    measured gap (a blocking send that spans the transfer counts it in o_s);
//  - L >= the segment's latency at its first size: when the receive call itself copies the
//    data (shared memory), o_r contains time that (s-1)G already prices; that part is taken
//    out of o_r (then o_s, then moved from (s-1)G into g) instead of letting L go negative.
void append_rows(const SegmentFit& segment, const std::vector<SizePoint>& points, Piece piece,
                 double& latency_floor, LevelFit& level) {
    const double g = segment.gap.intercept;
    const double G = segment.gap.slope;
    struct Adjusted {
        double o_s, o_r, L;
        double o_s_cut;  // how much the cap at g removed
    };
    auto evaluate = [&](const SizePoint& p) {
        const double x = p.bytes - 1;
        Adjusted a{std::max(time_floor, segment.o_s.at(x)), std::max(time_floor, p.o_r), 0, 0};
        if (a.o_s > g) {
            a.o_s_cut = a.o_s - std::max(time_floor, g);
            a.o_s -= a.o_s_cut;
        }
        a.L = p.half_round_trip() - a.o_s - a.o_r - x * G;
        return a;
    };
    // The segment's latency at its first size from the line fits (not from one noisy point);
    // a segment whose overheads already exceed the half round trip keeps the previous floor.
    const double x0 = segment.first_bytes - 1;
    const double segment_latency = segment.half_round_trip.at(x0) -
                                   std::min(segment.o_s.at(x0), g) - segment.o_r.at(x0) - x0 * G;
    if (segment_latency >= time_floor) latency_floor = segment_latency;

    Adjustments n;
    for (std::size_t i = piece.first; i <= piece.last; ++i) {
        Adjusted a = evaluate(points[i]);
        double row_g = g, row_G = G;
        if (a.o_s_cut > 0) {
            ++n.capped;
            n.max_cut = std::max(n.max_cut, a.o_s_cut);
        }
        // Deficits below a picosecond are rounding, not overlap.
        if (a.L < latency_floor - 1e-12) {
            double deficit = latency_floor - a.L;
            const double from_o_r = std::min(deficit, a.o_r - time_floor);
            a.o_r = std::max(time_floor, a.o_r - from_o_r);
            deficit -= from_o_r;
            const double from_o_s = std::min(deficit, a.o_s - time_floor);
            a.o_s = std::max(time_floor, a.o_s - from_o_s);
            deficit -= from_o_s;
            if (from_o_r + from_o_s > 0) {
                if (n.reduced++ == 0) n.first_reduced = points[i].bytes;
                n.max_reduction = std::max(n.max_reduction, from_o_r + from_o_s);
            }
            // Still short: (s-1)G alone exceeds what the half round trip leaves (the gap line
            // runs above the round trip here). Move the rest of the per-byte time into g:
            // g + (s-1)G, the spacing of back-to-back sends, stays as measured.
            const double x = points[i].bytes - 1;
            // At most half of G: a larger conflict means noisy medians, not overlap.
            const double movable = x * G / 2;
            const double moved = std::min(deficit, movable);
            if (moved > 0) {
                row_G -= moved / x;
                row_g += moved;
                deficit -= moved;
                ++n.shifted;
                n.max_shift = std::max(n.max_shift, moved / (x * G));
            }
            a.L = latency_floor - deficit;
            if (a.L < time_floor) {
                a.L = time_floor;
                ++n.floored;
            }
        }
        level.rows.push_back({points[i].bytes, LogGP{a.L, a.o_s, a.o_r, row_g, row_G}});
    }
    note_adjustments(segment, g, latency_floor, n, level);
}

// A segment of small messages may show no per-byte cost above the noise (the gap is flat over
// its sizes, e.g. shared-memory fast boxes): its slope then says nothing about G. Such a segment
// takes G from the nearest segment that resolves it (larger sizes first) and refits g with that
// slope; the wire time it adds over the segment's sizes is within the noise anyway.
void borrow_unresolved_G(LevelFit& level, const std::vector<Piece>& pieces) {
    auto resolved = [&](const SegmentFit& s) {
        const double x_max = s.last_bytes - 1;
        const double gap_at_max = s.gap.at(x_max);
        return s.gap.slope > G_floor && x_max * s.gap.slope > s.gap.rms() * gap_at_max;
    };
    std::vector<bool> ok;
    for (const auto& s : level.segments) ok.push_back(resolved(s));
    for (std::size_t k = 0; k < level.segments.size(); ++k) {
        if (ok[k]) continue;
        std::optional<std::size_t> donor;
        for (std::size_t d = 1; !donor && d < level.segments.size(); ++d) {
            if (k + d < level.segments.size() && ok[k + d])
                donor = k + d;
            else if (k >= d && ok[k - d])
                donor = k - d;
        }
        SegmentFit& segment = level.segments[k];
        if (!donor) {
            level.notes.push_back(fmt::format(
                "{} {} .. {}: G not resolved (no per-byte cost above the noise) and no other "
                "segment to take it from; G = {:.3g} s/B kept",
                level.level, format_bytes(segment.first_bytes), format_bytes(segment.last_bytes),
                segment.gap.slope));
            continue;
        }
        const double G = level.segments[*donor].gap.slope;
        std::vector<double> x, residual_gap;
        for (std::size_t i = pieces[k].first; i <= pieces[k].last; ++i) {
            x.push_back(level.points[i].bytes - 1);
            residual_gap.push_back(level.points[i].gap());
        }
        const LineFit refit = fit_line_relative_fixed_slope(x, residual_gap, G, time_floor);
        level.notes.push_back(fmt::format(
            "{} {} .. {}: G not resolved (fitted {:.3g} s/B, within the noise): G = {:.3g} s/B "
            "taken from segment {} .. {}, g refitted {:.4f} -> {:.4f} us",
            level.level, format_bytes(segment.first_bytes), format_bytes(segment.last_bytes),
            segment.gap.slope, G, format_bytes(level.segments[*donor].first_bytes),
            format_bytes(level.segments[*donor].last_bytes), segment.gap.intercept * 1e6,
            refit.intercept * 1e6));
        segment.gap = refit;
    }
}

LevelFit fit_level(const std::string& origin, const LevelSeries& series,
                   const FitOptions& options) {
    LevelFit level;
    level.level = series.name;
    if (series.by_size.size() > max_sizes_per_level) {
        throw InputError(
            fmt::format("{}: level '{}': samples at {} message sizes; the fit takes "
                        "at most {} (drop sizes or merge runs)",
                        origin, series.name, series.by_size.size(), max_sizes_per_level));
    }
    for (const auto& [bytes, s] : series.by_size) {
        level.points.push_back(summarize_size(origin, series.name, bytes, s));
    }
    if (level.points.size() < 2) {
        throw InputError(
            fmt::format("{}: level '{}': PRTT samples at {} message size(s); the fit "
                        "needs at least 2 sizes",
                        origin, series.name, level.points.size()));
    }
    std::vector<double> x, gap, half;
    for (const auto& p : level.points) {
        x.push_back(p.bytes - 1);
        gap.push_back(p.gap());
        half.push_back(p.half_round_trip());
    }
    const Segmentation segmentation =
        segment_curves(x, {gap, half}, {LineBounds{time_floor, G_floor}, LineBounds{time_floor, 0}},
                       options.segmentation);
    for (const Piece& piece : segmentation.pieces) {
        level.segments.push_back(fit_segment(level.points, piece));
    }
    borrow_unresolved_G(level, segmentation.pieces);
    double latency_floor = time_floor;
    for (std::size_t k = 0; k < segmentation.pieces.size(); ++k) {
        const SegmentFit& segment = level.segments[k];
        append_rows(segment, level.points, segmentation.pieces[k], latency_floor, level);
        const double worst = std::max(segment.gap.rms(), segment.half_round_trip.rms());
        if (worst > noisy_residual) {
            level.notes.push_back(fmt::format(
                "{} {} .. {}: NOISY: rms residual {:.0f} % (above {:.0f} %); was the machine busy? "
                "Re-run on idle nodes",
                level.level, format_bytes(segment.first_bytes), format_bytes(segment.last_bytes),
                worst * 100, noisy_residual * 100));
        }
    }
    return level;
}

// Every measured level must be named by a '# level:' header line (when the file has any).
void require_listed(const RawData& raw, const std::vector<LevelSeries>& levels,
                    const std::string& origin) {
    if (raw.levels.empty()) return;
    for (const auto& l : levels) {
        const bool listed = std::any_of(raw.levels.begin(), raw.levels.end(),
                                        [&](const LevelInfo& i) { return i.name == l.name; });
        if (!listed) {
            throw InputError(
                fmt::format("{}: samples for level '{}' but no header line "
                            "'# level: {} FANOUT' (add it)",
                            origin, l.name, l.name));
        }
    }
}

}  // namespace

LogGP SegmentFit::parameters() const {
    const double x = first_bytes - 1;
    LogGP p;
    p.g = gap.intercept;
    p.G = gap.slope;
    p.o_s = o_s.at(x);
    p.o_r = o_r.at(x);
    p.L = half_round_trip.at(x) - p.o_s - p.o_r - x * p.G;
    return p;
}

RadixFit find_knee(RadixFit probe, double min_gain) {
    probe.knee = probe.concurrency.empty() ? 0 : probe.concurrency.back();
    probe.saturated = false;
    for (std::size_t i = 0; i + 1 < probe.concurrency.size(); ++i) {
        if (probe.throughput[i + 1] < probe.throughput[i] * (1 + min_gain)) {
            probe.knee = probe.concurrency[i];
            probe.saturated = true;
            break;
        }
    }
    return probe;
}

ConcurrencyFit fit_concurrency(const std::string& origin, const std::string& level,
                               std::size_t bytes,
                               const std::map<int, std::vector<double>>& by_count,
                               double min_scaling) {
    if (!by_count.contains(1)) {
        throw InputError(
            fmt::format("{}: level '{}', {} B: concurrent samples without n = 1 (the rate of one "
                        "transfer alone, which the others are compared with; re-run the profiler)",
                        origin, level, bytes));
    }
    ConcurrencyFit fit;
    fit.level = level;
    fit.bytes = bytes;
    for (const auto& [count, samples] : by_count) {
        fit.transfers.push_back(count);
        fit.throughput.push_back(static_cast<double>(count) * static_cast<double>(bytes) /
                                 summarize(samples).median);
    }
    const double single = fit.throughput.front();
    fit.scaling = fit.throughput.back() / (fit.transfers.back() * single);
    fit.capacity = *std::max_element(fit.throughput.begin(), fit.throughput.end());
    fit.shared = fit.transfers.back() > 1 && fit.scaling < min_scaling;
    return fit;
}

ProfileFit fit_profile(const RawData& raw, const std::string& origin, const FitOptions& options) {
    std::vector<LevelSeries> levels;
    std::map<std::string, std::map<std::size_t, std::map<int, std::vector<double>>>> radix;
    std::map<std::string, std::map<std::size_t, std::vector<double>>> compute;
    std::map<std::string, std::map<std::size_t, std::map<int, std::vector<double>>>> concurrent;
    auto level_series = [&](const std::string& name) -> LevelSeries& {
        for (auto& l : levels) {
            if (l.name == name) return l;
        }
        return levels.emplace_back(LevelSeries{name, {}});
    };
    for (const RawSample& s : raw.samples) {
        switch (s.kind) {
            case SampleKind::prtt: {
                Series& series = level_series(s.level).by_size[s.bytes];
                if (s.n == 1) {
                    if (s.delay > 0) {
                        throw InputError(fmt::format(
                            "{}: level '{}', {} B: PRTT(1,d,s) with d > 0 is not part of the "
                            "method (use d = 0 for single messages)",
                            origin, s.level, s.bytes));
                    }
                    series.prtt1.push_back(s.seconds);
                } else {
                    add_train(origin, s, series);
                }
                break;
            }
            case SampleKind::o_r:
                level_series(s.level).by_size[s.bytes].o_r.push_back(s.seconds);
                break;
            case SampleKind::radix:
                radix[s.level][s.bytes][s.n].push_back(s.seconds);
                break;
            case SampleKind::compute:
                compute[s.level][s.bytes].push_back(s.seconds);
                break;
            case SampleKind::concurrent:
                concurrent[s.level][s.bytes][s.n].push_back(s.seconds);
                break;
            case SampleKind::reclaim:
                break;  // fit_reclaims
        }
    }
    if (levels.empty())
        throw InputError(fmt::format("{}: no prtt samples (re-run the profiler)", origin));
    require_listed(raw, levels, origin);

    ProfileFit fit;
    for (const auto& series : levels) fit.levels.push_back(fit_level(origin, series, options));
    for (const auto& [scope, by_bytes] : radix) {
        // The largest probed size is the most bandwidth-bound, i.e. the most telling.
        const auto& [bytes, by_count] = *by_bytes.rbegin();
        RadixFit probe;
        probe.scope = scope;
        probe.bytes = bytes;
        for (const auto& [count, samples] : by_count) {
            probe.concurrency.push_back(count);
            probe.throughput.push_back(static_cast<double>(count) * static_cast<double>(bytes) /
                                       summarize(samples).median);
        }
        fit.radices.push_back(find_knee(std::move(probe), options.radix_min_gain));
    }
    for (const auto& [kind, by_bytes] : compute) {
        if (kind != "reduce" && kind != "copy") {
            throw InputError(
                fmt::format("{}: compute samples of kind '{}' (use reduce or copy)", origin, kind));
        }
        const auto& [bytes, samples] = *by_bytes.rbegin();
        fit.compute.push_back({kind, summarize(samples).median / static_cast<double>(bytes)});
    }
    for (const auto& [level, by_bytes] : concurrent) {
        // The largest size: the most bandwidth-bound, as for the radix probes.
        const auto& [bytes, by_count] = *by_bytes.rbegin();
        fit.concurrency.push_back(
            fit_concurrency(origin, level, bytes, by_count, options.concurrent_min_scaling));
    }
    fit.reclaims = fit_reclaims(raw, origin);
    return fit;
}

}  // namespace piccolo::profiler
