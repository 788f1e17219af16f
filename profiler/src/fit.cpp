#include "piccolo/profiler/fit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <sstream>

#include "piccolo/error.hpp"
#include "piccolo/machine_io.hpp"
#include "piccolo/profiler/stats.hpp"

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

std::string format_bytes(double bytes) {
    const auto b = static_cast<std::uint64_t>(bytes);
    if (b >= (1u << 20) && b % (1u << 20) == 0) return fmt::format("{} MiB", b >> 20);
    if (b >= (1u << 10) && b % (1u << 10) == 0) return fmt::format("{} KiB", b >> 10);
    return fmt::format("{} B", b);
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

// Table rows of one segment: g and G from the segment's gap line, o_s from its o_s line (the
// per-size value is a small difference of round trips, too noisy on its own), o_r as measured at
// that size, and L = PRTT(1,0,s)/2 - o_s - o_r - (s-1)G with the measured PRTT(1,0,s). Two
// adjustments keep the rows consistent with the engine's semantics (sim/README.md, "The LogGP
// contract the engine implements") while preserving the measured half round trip o_s + (s-1)G + L + o_r exactly:
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

    int capped = 0, reduced = 0, shifted = 0, floored = 0;
    double max_cut = 0, max_reduction = 0, first_reduced = 0, max_shift = 0;
    for (std::size_t i = piece.first; i <= piece.last; ++i) {
        Adjusted a = evaluate(points[i]);
        double row_g = g, row_G = G;
        if (a.o_s_cut > 0) {
            ++capped;
            max_cut = std::max(max_cut, a.o_s_cut);
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
                if (reduced++ == 0) first_reduced = points[i].bytes;
                max_reduction = std::max(max_reduction, from_o_r + from_o_s);
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
                ++shifted;
                max_shift = std::max(max_shift, moved / (x * G));
            }
            a.L = latency_floor - deficit;
            if (a.L < time_floor) {
                a.L = time_floor;
                ++floored;
            }
        }
        level.rows.push_back({points[i].bytes, LogGP{a.L, a.o_s, a.o_r, row_g, row_G}});
    }
    const std::string range = fmt::format("{} .. {}", format_bytes(segment.first_bytes),
                                          format_bytes(segment.last_bytes));
    if (capped > 0) {
        level.notes.push_back(fmt::format(
            "{} {}: o_s capped at g = {:.3f} us at {} sizes, by up to {:.3f} us (sends follow "
            "each other g apart, so a longer send call overlaps the transfer, e.g. a blocking "
            "rendezvous)",
            level.level, range, g * 1e6, capped, max_cut * 1e6));
    }
    if (reduced > 0) {
        level.notes.push_back(fmt::format(
            "{} {}: overheads reduced by up to {:.3f} us at {} sizes from {} on, keeping L >= "
            "{:.3f} us (the receive call copies data that (s-1)G already prices)",
            level.level, range, max_reduction * 1e6, reduced, format_bytes(first_reduced),
            latency_floor * 1e6));
    }
    if (shifted > 0) {
        level.notes.push_back(fmt::format(
            "{} {}: at {} sizes (s-1)G exceeded the half round trip: G lowered by up to {:.1f} % "
            "and g raised by the same time (a single message costs the measured half round "
            "trip, back-to-back ones the measured gap)",
            level.level, range, shifted, max_shift * 100));
    }
    if (floored > 0) {
        level.notes.push_back(fmt::format(
            "{} {}: L floored at 1 ns at {} sizes: the half round trip is below the minimal "
            "overheads (noisy medians?)",
            level.level, range, floored));
    }
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

ProfileFit fit_profile(const RawData& raw, const std::string& origin, const FitOptions& options) {
    std::vector<LevelSeries> levels;
    std::map<std::string, std::map<std::size_t, std::map<int, std::vector<double>>>> radix;
    std::map<std::string, std::map<std::size_t, std::vector<double>>> compute;
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
        }
    }
    if (levels.empty()) {
        throw InputError(fmt::format("{}: no prtt samples (re-run the profiler)", origin));
    }
    if (!raw.levels.empty()) {
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
    return fit;
}

namespace {

// The transport line of the samples, e.g. "MPI (Open MPI v4.1.4)", or "".
std::string transport_of(const RawData& raw) {
    for (const auto& [key, value] : raw.info)
        if (key == "transport") return value;
    return {};
}

// How the measured ranks execute, beyond their LogGP tables. MPI ranks are processes on cores:
// one processor carries o_s and o_r (overhead: cpu) and collectives run MPI-style. NCCL ranks are
// GPUs whose copy engines send and receive at once (offload) under grouped NCCL calls. When the
// device probe saw a pair's aggregate throughput saturate, that plateau is what the node's
// transfers share (a memory bus, an NVSwitch), written as the node's internal capacity under
// fair sharing: sixteen concurrent pairs then share what one pair had alone.
void describe_execution(const RawData& raw, const ProfileFit& fit, Machine& machine,
                        const std::function<void(std::string)>& note) {
    const std::string transport = transport_of(raw);
    if (transport.starts_with("MPI")) {
        machine.style = Style::mpi;
        for (Level& level : machine.levels) level.overhead = OverheadModel::cpu;
    } else if (transport.starts_with("NCCL")) {
        machine.style = Style::nccl;
    }
    for (const auto& r : fit.radices) {
        if (r.scope != "device" || !r.saturated || r.throughput.empty()) continue;
        const double peak = *std::max_element(r.throughput.begin(), r.throughput.end());
        machine.levels.front().capacity = peak;
        machine.sharing = Sharing::fair;
        note(
            fmt::format("level {}: capacity {:.2f} GB/s, the plateau of the device probe "
                        "(shared fairly by every transfer inside a {})",
                        machine.levels.front().name, peak / 1e9, machine.levels.front().name));
    }
}

}  // namespace

Machine to_machine(const RawData& raw, const ProfileFit& fit, std::vector<std::string>* notes) {
    Machine machine;
    machine.name = raw.machine_name.empty() ? "measured" : raw.machine_name;
    machine.description = raw.description;
    std::vector<LevelInfo> infos = raw.levels;
    if (infos.empty()) {
        for (const auto& l : fit.levels) infos.push_back({l.level, 0});
        if (infos.back().name != "system") infos.push_back({"system", 0});
    }
    auto note = [&](std::string text) {
        if (notes != nullptr) notes->push_back(std::move(text));
    };
    auto measured = [&](const std::string& name) -> const LevelFit* {
        for (const auto& l : fit.levels) {
            if (l.level == name) return &l;
        }
        return nullptr;
    };
    for (std::size_t i = 0; i < infos.size(); ++i) {
        Level level;
        level.name = infos[i].name;
        level.fanout = infos[i].fanout;
        const LevelFit* source = measured(level.name);
        // Nearest measured level, inner ones first: a single-node run still yields a usable
        // (if optimistic) system level.
        for (std::size_t d = 1; source == nullptr && d < infos.size(); ++d) {
            if (i >= d && (source = measured(infos[i - d].name)) != nullptr) break;
            if (i + d < infos.size()) source = measured(infos[i + d].name);
        }
        if (source == nullptr) {
            throw InputError(fmt::format("no level of machine '{}' was measured", machine.name));
        }
        if (source->level != level.name) {
            note(
                fmt::format("level {}: not measured (no rank pair had it as lowest common level); "
                            "table copied from level {}",
                            level.name, source->level));
        }
        level.loggp = LogGPTable(source->rows);
        for (const auto& r : fit.radices) {
            if (r.scope == level.name) level.radix = r.knee;
        }
        machine.levels.push_back(std::move(level));
    }
    for (const auto& r : fit.radices) {
        if (r.scope == "device") machine.device_radix = r.knee;
    }
    describe_execution(raw, fit, machine, note);
    for (const auto& c : fit.compute) {
        if (c.kind == "reduce") machine.compute.reduce_per_byte = c.seconds_per_byte;
        if (c.kind == "copy") {
            machine.compute.copy_per_byte = c.seconds_per_byte;
            machine.compute.permute_per_byte = c.seconds_per_byte;
            note("compute: permute priced as a copy (no permutation kernel on CPU ranks)");
        }
    }
    // What is written must load again: the same checks as any machine file.
    validate_machine(machine);
    return machine;
}

std::string format_report(const ProfileFit& fit) {
    std::ostringstream out;
    for (const auto& level : fit.levels) {
        out << fmt::format("level {}: {} sizes, {} segment(s)\n", level.level, level.points.size(),
                           level.segments.size());
        for (const auto& s : level.segments) {
            const LogGP p = s.parameters();
            out << fmt::format(
                "  segment {} .. {} ({} sizes): g {:.4f} us, G {:.6f} ns/B ({:.2f} GB/s), at {}: "
                "o_s {:.4f} us, o_r {:.4f} us, L {:.4f} us; rms relative residual: gap {:.2f} %, "
                "half round trip {:.2f} %, o_r {:.2f} %\n",
                format_bytes(s.first_bytes), format_bytes(s.last_bytes), s.points, p.g * 1e6,
                p.G * 1e9, 1 / p.G / 1e9, format_bytes(s.first_bytes), p.o_s * 1e6, p.o_r * 1e6,
                p.L * 1e6, s.gap.rms() * 100, s.half_round_trip.rms() * 100, s.o_r.rms() * 100);
        }
        // "ping-pong" compares 2 (o_s + (s-1)G + L + o_r) of the table row, what the simulator
        // predicts for a round trip, with the measured PRTT(1,0,s).
        out << fmt::format(
            "  {:>9} {:>13} {:>11} {:>11} {:>11} | table: {:>9} {:>9} {:>9} {:>9} | ping-pong\n",
            "bytes", "PRTT(1,0,s)us", "gap us", "o_s us", "o_r us", "L", "o_s", "o_r", "g");
        for (std::size_t i = 0; i < level.points.size(); ++i) {
            const SizePoint& p = level.points[i];
            const LogGP& r = level.rows[i].params;
            const double predicted = 2 * (r.o_s + (p.bytes - 1) * r.G + r.L + r.o_r);
            out << fmt::format(
                "  {:>9} {:>13.3f} {:>11.3f} {:>11.3f} {:>11.3f} | table: {:>9.3f} {:>9.3f} "
                "{:>9.3f} {:>9.3f} | {:+.1f} %\n",
                p.bytes, p.prtt1 * 1e6, p.gap() * 1e6, p.o_s() * 1e6, p.o_r * 1e6, r.L * 1e6,
                r.o_s * 1e6, r.o_r * 1e6, r.g * 1e6, (predicted / p.prtt1 - 1) * 100);
        }
        for (const auto& n : level.notes) out << "  note: " << n << '\n';
    }
    for (const auto& r : fit.radices) {
        out << fmt::format("radix {} ({} per transfer):", r.scope,
                           format_bytes(static_cast<double>(r.bytes)));
        for (std::size_t i = 0; i < r.concurrency.size(); ++i) {
            out << fmt::format(" {}:{:.2f} GB/s", r.concurrency[i], r.throughput[i] / 1e9);
        }
        out << fmt::format(" -> knee {}{}\n", r.knee,
                           r.saturated ? "" : " (still growing: radix at least this)");
    }
    for (const auto& c : fit.compute) {
        out << fmt::format("compute {}: {:.4f} ns/B ({:.2f} GB/s)\n", c.kind,
                           c.seconds_per_byte * 1e9, 1 / c.seconds_per_byte / 1e9);
    }
    return out.str();
}

std::string profile_yaml(const RawData& raw, const ProfileFit& fit) {
    std::vector<std::string> notes;
    const Machine machine = to_machine(raw, fit, &notes);
    std::ostringstream out;
    out << "# Measured machine profile written by the piccolo profiler (PRTT method of Hoefler,\n"
           "# Lichei and Rehm; see profiler/README.md). Times in seconds, G in s/B.\n";
    for (const auto& [key, value] : raw.info) out << "# " << key << ": " << value << '\n';
    out << "#\n";
    std::istringstream report(format_report(fit));
    for (std::string line; std::getline(report, line);) out << "# " << line << '\n';
    for (const auto& n : notes) out << "# note: " << n << '\n';
    out << machine_to_yaml(machine);
    return out.str();
}

}  // namespace piccolo::profiler
