#pragma once
// Inline SVG figures for the HTML report (report_html.cpp): a grid of labelled, coloured cells
// and a line chart. Plain text out, no scripts, no external references.

#include <string>
#include <string_view>
#include <vector>

namespace piccolo::detail {

// &, <, >, " and ' as entities: names such as delta[system.G*0.5] go into HTML and SVG text.
std::string html_escape(std::string_view text);
// A fixed colour per algorithm of the registry, grey for anything else.
std::string_view algorithm_color(std::string_view algorithm);

struct GridCell {
    std::string label;    // drawn in the cell ("4" for k = 4, "" for none)
    std::string color;    // fill, e.g. "#1f77b4"
    std::string tooltip;  // <title> of the cell
};

// Rows top-down (scales), columns left to right (sizes); cells[row][column].
std::string svg_grid(const std::vector<std::string>& row_labels,
                     const std::vector<std::string>& column_labels,
                     const std::vector<std::vector<GridCell>>& cells, std::string_view aria_label);

struct Series {
    std::string name;
    std::string color;
    std::vector<double> y;  // one per x label; NaN or <= 0: no point
};

// Lines over evenly spaced x labels (doubling sizes), y from 0 to the largest value (at least
// `y_reference`, drawn as a dashed line), with a legend.
std::string svg_lines(const std::vector<std::string>& x_labels, const std::vector<Series>& series,
                      std::string_view y_label, double y_reference, std::string_view aria_label);

}  // namespace piccolo::detail
