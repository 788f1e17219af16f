// The HTML report: sections of figures and tables built from a comparison (one machine for
// `select --report`). Every figure is inline SVG from report_svg.cpp.
#include "piccolo/studies/report.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "piccolo/select/select_text.hpp"
#include "piccolo/topologies/machine_io.hpp"
#include "report_svg.hpp"

namespace piccolo {

namespace {

using detail::html_escape;
using detail::size_label;
using detail::time_label;

constexpr std::size_t kMaxListedChanges = 400;  // longer lists are cut, with a count

std::string scale_short(const Scale& s) {
    return fmt::format("{}x{}", s.nodes, s.ranks_per_node);
}

std::vector<std::string> size_labels(const SelectResult& r) {
    std::vector<std::string> labels;
    for (std::uint64_t bytes : r.sizes) labels.push_back(size_label(bytes));
    return labels;
}

std::vector<std::string> scale_labels(const SelectResult& r) {
    std::vector<std::string> labels;
    for (const Scale& s : r.scales) labels.push_back(scale_short(s));
    return labels;
}

detail::GridCell best_cell(const PointSelection& p) {
    const AlgorithmOutcome* best = p.best_outcome();
    const std::string where = fmt::format("{} {} ranks {}: ", to_string(p.collective),
                                          p.scale.ranks(), size_label(p.bytes));
    if (!best) return {"", "#ffffff", where + "nothing could run"};
    return {best->has_radix ? std::to_string(best->k) : "",
            std::string(detail::algorithm_color(best->algorithm)),
            fmt::format("{}{} {} ({:.2f}x over {})", where, best_label(p), time_label(best->time),
                        p.speedup(), p.baseline)};
}

std::string figure(std::string_view id, const std::string& svg, std::string_view caption) {
    return fmt::format("<figure id=\"{}\">\n{}<figcaption>{}</figcaption>\n</figure>\n", id, svg,
                       html_escape(caption));
}

std::string legend(const SelectResult& r) {
    std::string out = "<p class=\"legend\">";
    for (const std::string& a : r.algorithms)
        out += fmt::format("<span><i style=\"background:{}\"></i>{}</span> ",
                           detail::algorithm_color(a), html_escape(a));
    return out + "(cell text: k)</p>\n";
}

std::string best_map_section(const Comparison& c) {
    std::string out =
        "<section id=\"best-map\">\n<h2>Best algorithm and k</h2>\n" + legend(c.results[0]);
    const SelectResult& ref = c.results[0];
    for (std::size_t col = 0; col < ref.collectives.size(); ++col)
        for (std::size_t m = 0; m < c.results.size(); ++m) {
            const SelectResult& r = c.results[m];
            std::vector<std::vector<detail::GridCell>> cells(r.scales.size());
            for (std::size_t s = 0; s < r.scales.size(); ++s)
                for (std::size_t z = 0; z < r.sizes.size(); ++z)
                    cells[s].push_back(best_cell(r.at(col, s, z)));
            const std::string title = fmt::format(
                "{} on {}: best algorithm (colour) and k, by "
                "message size (x) and nodes x ranks per node (y)",
                to_string(ref.collectives[col]), r.machine);
            out += figure(fmt::format("map-{}-{}", to_string(ref.collectives[col]), m),
                          detail::svg_grid(scale_labels(r), size_labels(r), cells, title), title);
        }
    return out + "</section>\n";
}

// Per algorithm, the speedup of its best k over ring/RD at each size, at the largest scale.
std::string speedup_section(const Comparison& c) {
    std::string out = "<section id=\"speedup\">\n<h2>Speedup per algorithm</h2>\n";
    const SelectResult& ref = c.results[0];
    if (ref.scales.empty()) return out + "<p>No scale was swept.</p>\n</section>\n";
    const std::size_t s = ref.scales.size() - 1;
    for (std::size_t col = 0; col < ref.collectives.size(); ++col)
        for (std::size_t m = 0; m < c.results.size(); ++m) {
            const SelectResult& r = c.results[m];
            std::vector<detail::Series> series;
            // The algorithms reported at this collective (the same at each of its points).
            const std::vector<AlgorithmOutcome>& shown = r.at(col, s, 0).algorithms;
            for (std::size_t a = 0; a < shown.size(); ++a) {
                const std::string& name = shown[a].algorithm;
                detail::Series line{name, std::string(detail::algorithm_color(name)), {}};
                for (std::size_t z = 0; z < r.sizes.size(); ++z) {
                    const PointSelection& p = r.at(col, s, z);
                    const AlgorithmOutcome& o = p.algorithms[a];
                    line.y.push_back(o.available && o.time > 0
                                         ? p.baseline_time / o.time
                                         : std::numeric_limits<double>::quiet_NaN());
                }
                series.push_back(std::move(line));
            }
            const std::vector<Collective> one{ref.collectives[col]};
            const std::string title =
                detail::has_newer_collectives(one)
                    ? fmt::format("{} on {}, {}: time of {} / time of each algorithm's best k "
                                  "(above the dashed line: faster than the baseline)",
                                  to_string(ref.collectives[col]), r.machine,
                                  detail::scale_label(r.scales[s]), detail::baseline_phrase(one))
                    : fmt::format(
                          "{} on {}, {}: time of the faster of ring and RD / time of each "
                          "algorithm's best k (above the dashed line: faster than both)",
                          to_string(ref.collectives[col]), r.machine,
                          detail::scale_label(r.scales[s]));
            out += figure(fmt::format("speedup-{}-{}", to_string(ref.collectives[col]), m),
                          detail::svg_lines(size_labels(r), series, "speedup", 1.0, title), title);
        }
    return out + "</section>\n";
}

std::string change_list(const Comparison& c, const std::vector<ChoiceChange>& changes) {
    std::string out =
        "<table><tr><th>collective</th><th>scale</th><th>size</th><th>reference</th>"
        "<th>machine</th><th>choice</th></tr>\n";
    for (std::size_t i = 0; i < changes.size() && i < kMaxListedChanges; ++i) {
        const PointSelection& before = c.results[0].points[changes[i].point];
        const PointSelection& after = c.results[changes[i].machine].points[changes[i].point];
        const auto time_of = [](const PointSelection& p) {
            return p.best_outcome() ? time_label(p.best_outcome()->time) : std::string("-");
        };
        out += fmt::format(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{} ({})</td><td>{}</td><td>{} "
            "({})</td></tr>\n",
            to_string(after.collective), scale_short(after.scale), size_label(after.bytes),
            html_escape(best_label(before)), time_of(before),
            html_escape(c.results[changes[i].machine].machine), html_escape(best_label(after)),
            time_of(after));
    }
    out += "</table>\n";
    if (changes.size() > kMaxListedChanges)
        out += fmt::format("<p>... and {} more (see compare --format csv).</p>\n",
                           changes.size() - kMaxListedChanges);
    return out;
}

std::string differences_section(const Comparison& c) {
    std::string out = "<section id=\"differences\">\n<h2>Where the choice differs</h2>\n";
    if (c.results.size() < 2)
        return out + "<p>One machine: nothing to compare (use piccolo compare).</p>\n</section>\n";
    const std::vector<ChoiceChange> changes = choice_changes(c);
    out += fmt::format(
        "<p>{} of {} (point, machine) pairs choose differently from the reference "
        "{}. Coloured cells: the other machine's choice where it differs; grey: "
        "the same choice.</p>\n",
        changes.size(), c.point_count() * (c.results.size() - 1),
        html_escape(c.results[0].machine));
    const SelectResult& ref = c.results[0];
    for (std::size_t col = 0; col < ref.collectives.size(); ++col)
        for (std::size_t m = 1; m < c.results.size(); ++m) {
            const SelectResult& r = c.results[m];
            std::vector<std::vector<detail::GridCell>> cells(r.scales.size());
            for (std::size_t s = 0; s < r.scales.size(); ++s)
                for (std::size_t z = 0; z < r.sizes.size(); ++z) {
                    detail::GridCell cell = best_cell(r.at(col, s, z));
                    if (same_choice(ref.at(col, s, z), r.at(col, s, z))) {
                        cell.color = "#eeeeee";
                        cell.label.clear();
                    }
                    cells[s].push_back(std::move(cell));
                }
            const std::string title =
                fmt::format("{}: {} vs the reference {}", to_string(ref.collectives[col]),
                            r.machine, ref.machine);
            out += figure(fmt::format("diff-{}-{}", to_string(ref.collectives[col]), m),
                          detail::svg_grid(scale_labels(r), size_labels(r), cells, title), title);
        }
    return out + change_list(c, changes) + "</section>\n";
}

std::string machines_section(const Comparison& c) {
    std::string out = "<section id=\"machines\">\n<h2>Machine parameters</h2>\n";
    for (const Machine& m : c.machines)
        out += fmt::format("<h3>{}</h3>\n<pre>{}</pre>\n", html_escape(m.name),
                           html_escape(machine_to_yaml(m)));
    return out + "</section>\n";
}

constexpr const char* kStyle =
    "body{font-family:sans-serif;margin:2em;max-width:1300px;color:#222}"
    "figure{margin:1em 0}figcaption{font-size:0.9em;color:#444}"
    "pre{background:#f6f6f6;padding:0.6em;overflow-x:auto;font-size:0.85em}"
    "table{border-collapse:collapse;font-size:0.85em}td,th{border:1px solid #ccc;padding:2px 6px}"
    ".legend span{margin-right:1em}.legend i{display:inline-block;width:12px;height:12px;"
    "margin-right:4px;vertical-align:middle}";

}  // namespace

std::string report_html(const Comparison& c, std::string_view command_line) {
    std::string out = fmt::format(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<title>piccolo report</title>\n<style>{}</style>\n</head>\n<body>\n",
        kStyle);
    if (c.results.empty()) return out + "<p>Nothing was swept.</p>\n</body>\n</html>\n";
    const SelectResult& ref = c.results[0];
    out += "<section id=\"summary\">\n<h1>piccolo: algorithm and k by simulation</h1>\n<ul>\n";
    for (std::size_t m = 0; m < c.results.size(); ++m)
        out += fmt::format("<li>{}{}</li>\n", html_escape(c.results[m].machine),
                           m == 0 && c.results.size() > 1 ? " (reference)" : "");
    out +=
        fmt::format("</ul>\n<p>{} style, contention {}; {}.</p>\n", to_string(ref.style),
                    ref.contention ? "modelled" : "off", html_escape(detail::size_semantics(ref)));
    for (const std::string& note : c.notes)
        out += fmt::format("<p>note: {}</p>\n", html_escape(note));
    out += "</section>\n";
    out +=
        fmt::format("<section id=\"command\">\n<h2>Command line</h2>\n<pre>{}</pre>\n</section>\n",
                    html_escape(command_line));
    out += best_map_section(c) + speedup_section(c) + differences_section(c) + machines_section(c);
    return out + "</body>\n</html>\n";
}

}  // namespace piccolo
