// The table `piccolo compare` prints: per collective and scale, one row per size with each
// machine's best choice, its time and speedup, then every point where a choice changed.
#include <fmt/format.h>

#include <algorithm>

#include "piccolo/select/select_text.hpp"
#include "piccolo/studies/compare.hpp"

namespace piccolo {

namespace {

using detail::scale_label;
using detail::size_label;
using detail::time_label;

// One machine's cells: best, time, speedup over ring/RD, and (not the reference) time ratio.
std::string cells(const Comparison& c, std::size_t machine, std::size_t point) {
    const PointSelection& p = c.results[machine].points[point];
    const AlgorithmOutcome* best = p.best_outcome();
    std::string text =
        fmt::format("{:<12} {:>10} {:>7}", best_label(p), best ? time_label(best->time) : "-",
                    best ? fmt::format("{:.2f}x", p.speedup()) : "-");
    if (machine > 0) {
        const double ratio = time_ratio(c, machine, point);
        const char mark = same_choice(c.results[0].points[point], p) ? ' ' : '*';
        text += fmt::format(" {:>7}{}", ratio > 0 ? fmt::format("{:.2f}x", ratio) : "-", mark);
    }
    return text;
}

void print_block(std::string& out, const Comparison& c, std::size_t first_point) {
    const SelectResult& ref = c.results.front();
    const std::size_t first_width = 9;
    std::string names = fmt::format("{:<{}}", "", first_width);
    std::string heads = fmt::format("{:<{}}", "size", first_width);
    for (std::size_t m = 0; m < c.results.size(); ++m) {
        const std::string head = fmt::format("{:<12} {:>10} {:>7}", "best", "time", "speedup") +
                                 (m > 0 ? fmt::format(" {:>7} ", "vs ref") : "");
        names += fmt::format(" | {:<{}}", c.results[m].machine, head.size());
        heads += " | " + head;
    }
    for (std::string* line : {&names, &heads})
        while (!line->empty() && line->back() == ' ') line->pop_back();
    out += names + "\n" + heads + "\n";
    for (std::size_t s = 0; s < ref.sizes.size(); ++s) {
        std::string line = fmt::format("{:<{}}", size_label(ref.sizes[s]), first_width);
        for (std::size_t m = 0; m < c.results.size(); ++m)
            line += " | " + cells(c, m, first_point + s);
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out += line + "\n";
    }
}

void print_changes(std::string& out, const Comparison& c) {
    const std::vector<ChoiceChange> changes = choice_changes(c);
    const std::size_t compared = c.point_count() * (c.results.size() - 1);
    out += fmt::format("\nChanged choices vs the reference {}: {} of {} (point, machine) pairs\n",
                       c.results[0].machine, changes.size(), compared);
    for (const ChoiceChange& change : changes) {
        const PointSelection& before = c.results[0].points[change.point];
        const PointSelection& after = c.results[change.machine].points[change.point];
        const AlgorithmOutcome* b = before.best_outcome();
        const AlgorithmOutcome* a = after.best_outcome();
        out += fmt::format("  {} {} {}: {} ({}) -> {} ({}) on {}\n", to_string(after.collective),
                           scale_label(after.scale), size_label(after.bytes), best_label(before),
                           b ? time_label(b->time) : "-", best_label(after),
                           a ? time_label(a->time) : "-", c.results[change.machine].machine);
    }
}

}  // namespace

std::string emit_compare_table(const Comparison& c) {
    if (c.results.empty()) return {};
    const SelectResult& ref = c.results.front();
    std::string out = fmt::format(
        "piccolo compare: {} machines, {} style, contention {}; speedup = over the faster of ring "
        "and RD on the same machine, vs ref = reference time / this time, * = another choice "
        "than the reference's\n",
        c.results.size(), to_string(ref.style), ref.contention ? "modelled" : "off");
    for (std::size_t m = 0; m < c.results.size(); ++m)
        out += fmt::format("  {:<10} {}\n", m == 0 ? "reference" : "machine", c.results[m].machine);
    out += detail::size_semantics(ref) + "\n";
    std::size_t point = 0;
    for (Collective collective : ref.collectives)
        for (const Scale& scale : ref.scales) {
            out += fmt::format("\n{}, {}\n", to_string(collective), scale_label(scale));
            print_block(out, c, point);
            point += ref.sizes.size();
        }
    if (c.results.size() > 1) print_changes(out, c);
    for (const std::string& note : c.notes) out += fmt::format("note: {}\n", note);
    return out;
}

}  // namespace piccolo
