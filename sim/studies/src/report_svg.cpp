#include "report_svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

namespace piccolo::detail {

namespace {

constexpr int kCellW = 30, kCellH = 20, kRowLabelW = 70, kColumnLabelH = 56;

// Numbers in SVG attributes: fixed, short, locale-free.
std::string px(double v) {
    return fmt::format("{:.1f}", v);
}

}  // namespace

std::string html_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&#39;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string_view algorithm_color(std::string_view algorithm) {
    // Colour-blind-safe palette (Okabe-Ito, then Paul Tol's muted scheme), one colour per
    // algorithm of the registry.
    static constexpr std::pair<std::string_view, std::string_view> colors[] = {
        {"ring", "#999999"},    {"k-ring", "#E69F00"},   {"rd", "#56B4E9"},
        {"rm", "#009E73"},      {"prd", "#F0E442"},      {"prm", "#CC79A7"},
        {"bruck", "#0072B2"},   {"knomial", "#D55E00"},  {"binomial", "#000000"},
        {"pairwise", "#882255"}, {"scattered", "#44AA99"},
    };
    for (const auto& [name, color] : colors)
        if (name == algorithm) return color;
    return "#dddddd";
}

std::string svg_grid(const std::vector<std::string>& row_labels,
                     const std::vector<std::string>& column_labels,
                     const std::vector<std::vector<GridCell>>& cells, std::string_view aria_label) {
    const int width = kRowLabelW + kCellW * static_cast<int>(column_labels.size()) + 4;
    const int height = kColumnLabelH + kCellH * static_cast<int>(row_labels.size()) + 4;
    std::string out = fmt::format(
        "<svg width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
        "role=\"img\" aria-label=\"{}\" font-family=\"sans-serif\" font-size=\"10\">\n",
        width, height, width, height, html_escape(aria_label));
    for (std::size_t c = 0; c < column_labels.size(); ++c) {
        const double x = kRowLabelW + kCellW * (static_cast<double>(c) + 0.5);
        out += fmt::format("<text x=\"{}\" y=\"{}\" transform=\"rotate(-60 {} {})\">{}</text>\n",
                           px(x), kColumnLabelH - 4, px(x), kColumnLabelH - 4,
                           html_escape(column_labels[c]));
    }
    for (std::size_t r = 0; r < row_labels.size(); ++r) {
        const int y = kColumnLabelH + kCellH * static_cast<int>(r);
        out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
                           kRowLabelW - 4, y + kCellH / 2 + 4, html_escape(row_labels[r]));
        for (std::size_t c = 0; c < cells[r].size(); ++c) {
            const GridCell& cell = cells[r][c];
            const int x = kRowLabelW + kCellW * static_cast<int>(c);
            out += fmt::format(
                "<g><title>{}</title><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
                "fill=\"{}\" stroke=\"#ffffff\"/>",
                html_escape(cell.tooltip), x, y, kCellW, kCellH, cell.color);
            if (!cell.label.empty())
                out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                                   x + kCellW / 2, y + kCellH / 2 + 4, html_escape(cell.label));
            out += "</g>\n";
        }
    }
    return out + "</svg>\n";
}

std::string svg_lines(const std::vector<std::string>& x_labels, const std::vector<Series>& series,
                      std::string_view y_label, double y_reference, std::string_view aria_label) {
    constexpr double left = 50, top = 10, plot_w = 560, plot_h = 220, bottom = 60, legend_w = 110;
    double y_max = y_reference;
    for (const Series& s : series)
        for (double v : s.y)
            if (std::isfinite(v)) y_max = std::max(y_max, v);
    y_max *= 1.05;
    const double step = x_labels.size() > 1 ? plot_w / static_cast<double>(x_labels.size() - 1) : 0;
    auto x_of = [&](std::size_t i) { return left + step * static_cast<double>(i); };
    auto y_of = [&](double v) { return top + plot_h * (1 - v / y_max); };
    const double width = left + plot_w + legend_w + 20, height = top + plot_h + bottom;
    std::string out = fmt::format(
        "<svg width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
        "role=\"img\" aria-label=\"{}\" font-family=\"sans-serif\" font-size=\"10\">\n",
        px(width), px(height), px(width), px(height), html_escape(aria_label));
    out += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" "
        "stroke=\"#888888\"/>\n",
        px(left), px(top), px(plot_w), px(plot_h));
    for (int tick = 0; tick <= 4; ++tick) {
        const double v = y_max * tick / 4;
        out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{:.2f}</text>\n",
                           px(left - 4), px(y_of(v) + 3), v);
    }
    out += fmt::format(
        "<line x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"#444444\" "
        "stroke-dasharray=\"4 3\"/>\n",
        px(left), px(left + plot_w), px(y_of(y_reference)), px(y_of(y_reference)));
    out += fmt::format(
        "<text x=\"12\" y=\"{}\" transform=\"rotate(-90 12 {})\" "
        "text-anchor=\"middle\">{}</text>\n",
        px(top + plot_h / 2), px(top + plot_h / 2), html_escape(y_label));
    for (std::size_t i = 0; i < x_labels.size(); i += 2) {
        const double y = top + plot_h + 12;
        out += fmt::format(
            "<text x=\"{}\" y=\"{}\" transform=\"rotate(-45 {} {})\" "
            "text-anchor=\"end\">{}</text>\n",
            px(x_of(i)), px(y), px(x_of(i)), px(y), html_escape(x_labels[i]));
    }
    for (std::size_t s = 0; s < series.size(); ++s) {
        std::string points;
        for (std::size_t i = 0; i < series[s].y.size() && i < x_labels.size(); ++i) {
            const double v = series[s].y[i];
            if (!std::isfinite(v) || v <= 0) continue;
            points += fmt::format("{}{},{}", points.empty() ? "" : " ", px(x_of(i)), px(y_of(v)));
        }
        out += fmt::format(
            "<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" "
            "points=\"{}\"><title>{}</title></polyline>\n",
            series[s].color, points, html_escape(series[s].name));
        const double ly = top + 14 * static_cast<double>(s) + 8;
        out += fmt::format(
            "<line x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"{}\" "
            "stroke-width=\"3\"/><text x=\"{}\" y=\"{}\">{}</text>\n",
            px(left + plot_w + 10), px(left + plot_w + 30), px(ly), px(ly), series[s].color,
            px(left + plot_w + 34), px(ly + 3), html_escape(series[s].name));
    }
    return out + "</svg>\n";
}

}  // namespace piccolo::detail
