// The accuracy report as one HTML page: a log-log scatter of predicted against measured time
// (one point per candidate and size; on the diagonal the model is exact) and the captured share
// per size (svg_lines of report_svg.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "accuracy_text.hpp"
#include "piccolo/select/select_text.hpp"
#include "piccolo/studies/accuracy.hpp"
#include "report_svg.hpp"

namespace piccolo {

namespace {

using detail::html_escape;

std::string px(double v) {
    return fmt::format("{:.1f}", v);
}

// Log-scale axis over [low, high] (decades widened to whole powers of ten).
struct LogAxis {
    double low_exp, high_exp, start, length;
    [[nodiscard]] double at(double v) const {
        return start + length * (std::log10(v) - low_exp) / (high_exp - low_exp);
    }
};

std::string scatter(const AccuracyReport& r, Collective collective) {
    double low = std::numeric_limits<double>::infinity(), high = 0;
    for (const SizeScore& s : r.sizes)
        for (const CandidateScore& c : s.candidates)
            if (s.collective == collective)
                for (double v : {c.measured_s, c.predicted_s})
                    if (v > 0) low = std::min(low, v), high = std::max(high, v);
    if (!(high > 0)) return {};
    constexpr double left = 60, top = 10, side = 360, bottom = 40;
    const double lo = std::floor(std::log10(low)),
                 hi = std::max(lo + 1, std::ceil(std::log10(high)));
    const LogAxis x{lo, hi, left, side}, y{hi, lo, top, side};  // y grows downwards
    const std::string title = fmt::format(
        "{}: predicted (x) against measured (y) time per candidate and size, log-log; on the "
        "dashed diagonal the prediction is exact",
        to_string(collective));
    std::string out = fmt::format(
        "<svg width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" aria-label=\"{2}\" "
        "font-family=\"sans-serif\" font-size=\"10\">\n",
        px(left + side + 20), px(top + side + bottom), html_escape(title));
    out += fmt::format(
        "<rect x=\"{0}\" y=\"{1}\" width=\"{2}\" height=\"{2}\" fill=\"none\" "
        "stroke=\"#888888\"/>\n"
        "<line x1=\"{0}\" y1=\"{3}\" x2=\"{4}\" y2=\"{1}\" stroke=\"#444444\" "
        "stroke-dasharray=\"4 3\"/>\n",
        px(left), px(top), px(side), px(top + side), px(left + side));
    for (double e = lo; e <= hi; e += 1) {
        const std::string label = detail::time_label(std::pow(10.0, e));
        out += fmt::format(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n"
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
            px(x.at(std::pow(10.0, e))), px(top + side + 14), label, px(left - 4),
            px(y.at(std::pow(10.0, e)) + 3), label);
    }
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">predicted</text>\n",
                       px(left + side / 2), px(top + side + 32));
    for (const SizeScore& s : r.sizes) {
        if (s.collective != collective) continue;
        for (std::size_t i = 0; i < s.candidates.size(); ++i) {
            const CandidateScore& c = s.candidates[i];
            const MeasuredRow& row = r.measurement.candidates[c.row];
            out += fmt::format(
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"#000000\" "
                "stroke-width=\"{}\"><title>{} at {}: predicted {}, measured {}</title></circle>\n",
                px(x.at(c.predicted_s)), px(y.at(c.measured_s)), i == s.predicted_best ? 5 : 3,
                detail::algorithm_color(row.algorithm), i == s.measured_best ? 1.5 : 0.3,
                html_escape(detail::candidate_label(row)), detail::size_label(s.bytes),
                detail::time_label(c.predicted_s), detail::time_label(c.measured_s));
        }
    }
    return fmt::format(
        "<figure>\n{}</svg>\n<figcaption>{} (large dot: the predicted best of its "
        "size; thick ring: the measured best)</figcaption>\n</figure>\n",
        out, html_escape(title));
}

std::string captured_chart(const AccuracyReport& r, Collective collective) {
    std::vector<std::string> labels;
    detail::Series captured{"captured share", "#0072B2", {}};
    detail::Series rho{"Spearman", "#D55E00", {}};
    for (const SizeScore& s : r.sizes)
        if (s.collective == collective) {
            labels.push_back(detail::size_label(s.bytes));
            captured.y.push_back(s.captured);
            rho.y.push_back(s.spearman);
        }
    if (labels.empty()) return {};
    const std::string title = fmt::format(
        "{}: share of the measured optimum that the predicted choice captures, and Spearman's "
        "rank correlation (points at or below 0 not drawn), by size; dashed: 1",
        to_string(collective));
    return fmt::format("<figure>\n{}<figcaption>{}</figcaption>\n</figure>\n",
                       detail::svg_lines(labels, {captured, rho}, "share / rho", 1.0, title),
                       html_escape(title));
}

constexpr const char* kStyle =
    "body{font-family:sans-serif;margin:2em;max-width:1300px;color:#222}"
    "figure{margin:1em 0}figcaption{font-size:0.9em;color:#444}"
    "pre{background:#f6f6f6;padding:0.6em;overflow-x:auto;font-size:0.85em}"
    ".noisy{color:#a00000;font-weight:bold}";

}  // namespace

std::string accuracy_html(const AccuracyReport& r, std::string_view command_line) {
    std::string out = fmt::format(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<title>piccolo accuracy</title>\n<style>{}</style>\n</head>\n<body>\n"
        "<h1>piccolo accuracy: simulation against measurement</h1>\n<p>{}.</p>\n",
        kStyle, html_escape(detail::run_summary(r)));
    for (const std::string& reason : r.noise)
        out += fmt::format("<p class=\"noisy\">NOISY: {}.</p>\n", html_escape(reason));
    for (const auto& [collective, mean] : r.geomean_by_collective)
        out += fmt::format("<p>{}: geometric mean of the captured share {}.</p>\n",
                           to_string(collective), detail::ratio_text(mean));
    for (const auto& [collective, mean] : r.geomean_by_collective)
        out += "<section>\n<h2>" + std::string(to_string(collective)) + "</h2>\n" +
               captured_chart(r, collective) + scatter(r, collective) + "</section>\n";
    out +=
        fmt::format("<h2>Report table</h2>\n<pre>{}</pre>\n<h2>Command line</h2>\n<pre>{}</pre>\n",
                    html_escape(accuracy_table(r)), html_escape(command_line));
    return out + "</body>\n</html>\n";
}

}  // namespace piccolo
