// The fit report and the machine YAML with its '#' header.
#include <fmt/format.h>

#include <sstream>

#include "piccolo/profiler/fit.hpp"
#include "piccolo/topologies/machine_io.hpp"

#include "format_bytes.hpp"

namespace piccolo::profiler {

std::string format_report(const ProfileFit& fit) {
    std::ostringstream out;
    for (const auto& level : fit.levels) {
        out << fmt::format("level {}: {}, {} segment(s)\n", level.level,
                           count_sizes(level.points.size()), level.segments.size());
        for (const auto& s : level.segments) {
            const LogGP p = s.parameters();
            out << fmt::format(
                "  segment {} .. {} ({}): g {:.4f} us, G {:.6f} ns/B ({:.2f} GB/s), at {}: "
                "o_s {:.4f} us, o_r {:.4f} us, L {:.4f} us; rms relative residual: gap {:.2f} %, "
                "half round trip {:.2f} %, o_r {:.2f} %\n",
                format_bytes(s.first_bytes), format_bytes(s.last_bytes), count_sizes(s.points),
                p.g * 1e6, p.G * 1e9, 1 / p.G / 1e9, format_bytes(s.first_bytes), p.o_s * 1e6,
                p.o_r * 1e6, p.L * 1e6, s.gap.rms() * 100, s.half_round_trip.rms() * 100,
                s.o_r.rms() * 100);
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
    for (const auto& c : fit.concurrency) {
        out << fmt::format("concurrent {} ({} per transfer):", c.level,
                           format_bytes(static_cast<double>(c.bytes)));
        for (std::size_t i = 0; i < c.transfers.size(); ++i) {
            out << fmt::format(" {}:{:.2f} GB/s", c.transfers[i], c.throughput[i] / 1e9);
        }
        out << fmt::format(" -> {:.0f} % of independent transfers{}\n", c.scaling * 100,
                           c.shared ? ", shared: capacity" : "");
    }
    for (const auto& r : fit.reclaims) {
        out << fmt::format("reclaim {}: {:+.4f} ns/B median of {} samples -> {:.4f} ns/B\n",
                           r.level, r.median * 1e9, r.samples, r.seconds_per_byte * 1e9);
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
