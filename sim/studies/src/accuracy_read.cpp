// Reading piccolo-run-mpi's measurement files back (CSV with "# key: value" header lines, or
// JSON): every field checked, with the file, line and field named in the error.
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "piccolo/core/error.hpp"
#include "piccolo/core/input_file.hpp"
#include "piccolo/core/text.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/studies/accuracy.hpp"

namespace piccolo {

namespace {

constexpr std::size_t kMaxMeasurementBytes = std::size_t{64} << 20;
constexpr std::size_t kMaxRows = std::size_t{1} << 16;  // each row is simulated
constexpr std::uint64_t kMaxBytes = std::uint64_t{1} << 48;
constexpr int kMaxRanks = 1 << 24;

// A field's text and where it came from; the checks below turn it into a value or an error.
struct Field {
    std::string_view origin;
    std::size_t line;  // 0: JSON, where `origin` names the row
    std::string_view name;
    std::string_view text;

    [[noreturn]] void fail(std::string_view problem) const {
        throw InputError(fmt::format("{}{}: {}: {} (got '{}')", origin,
                                     line > 0 ? fmt::format(":{}", line) : "", name, problem,
                                     excerpt(text, 60)));
    }

    std::int64_t integer(std::int64_t low, std::int64_t high) const {
        std::int64_t v = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc() || end != text.data() + text.size() || v < low || v > high)
            fail(fmt::format("must be a whole number in {}..{}", low, high));
        return v;
    }

    double seconds() const {
        double v = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) || v < 0 ||
            v > 1e6)
            fail("must be a time in seconds, 0..1e6");
        return v;
    }
};

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> split(std::string_view line) {
    std::vector<std::string_view> out;
    for (std::size_t start = 0;;) {
        const std::size_t comma = line.find(',', start);
        out.push_back(trim(line.substr(start, comma - start)));
        if (comma == std::string_view::npos) return out;
        start = comma + 1;
    }
}

// The row's fields by column name; `get` names a missing one.
using RowFields = std::map<std::string, Field, std::less<>>;

const Field& get(const RowFields& row, std::string_view name) {
    return row.find(name)->second;
}

MeasuredRow parse_row(const RowFields& f) {
    MeasuredRow r;
    r.line = get(f, "collective").line;
    try {
        r.collective = parse_collective(get(f, "collective").text);
    } catch (const InputError& e) {
        get(f, "collective").fail(
            "not allgather, allreduce, bcast, reduce, reduce_scatter or alltoall");
    }
    r.style = excerpt(get(f, "style").text, 60);
    r.algorithm = excerpt(get(f, "algorithm").text, 60);  // library rows: any name, echoed
    if (r.style != "library") {
        try {
            parse_style(r.style);
        } catch (const InputError&) {
            get(f, "style").fail("not mpi, nccl, pipelined or library");
        }
        try {
            r.algorithm = std::string(find_algorithm(r.algorithm).name);
        } catch (const InputError&) {
            get(f, "algorithm").fail("not an algorithm of piccolo algorithms");
        }
    }
    r.k = static_cast<int>(get(f, "k").integer(0, 4096));
    r.bytes = static_cast<std::uint64_t>(get(f, "bytes").integer(1, kMaxBytes));
    r.median_s = get(f, "median_s").seconds();
    r.ci_low_s = get(f, "ci_low_s").seconds();
    r.ci_high_s = get(f, "ci_high_s").seconds();
    r.runs = static_cast<int>(get(f, "runs").integer(1, 1 << 30));
    if (r.median_s <= 0) get(f, "median_s").fail("must be more than 0");
    if (r.ci_low_s > r.median_s || r.ci_high_s < r.median_s)
        get(f, "ci_low_s").fail("the interval ci_low_s..ci_high_s must hold median_s");
    return r;
}

constexpr std::string_view kColumns[] = {"collective", "algorithm", "k",         "style", "bytes",
                                         "median_s",   "ci_low_s",  "ci_high_s", "runs"};

void set_header(Measurement& m, std::string_view key, const Field& value) {
    if (key == "host") m.host = excerpt(value.text);
    if (key == "date") m.date = excerpt(value.text);
    if (key == "mpi_library") m.mpi_library = excerpt(value.text);
    if (key == "command") m.command = excerpt(value.text, 2000);
    if (key == "ranks") m.ranks = static_cast<int>(value.integer(2, kMaxRanks));
    if (key == "nodes") m.nodes = static_cast<int>(value.integer(1, kMaxRanks));
    if (key == "ranks_per_node") m.ranks_per_node = static_cast<int>(value.integer(0, kMaxRanks));
    if (key == "ranks_per_host") m.ranks_per_host = static_cast<int>(value.integer(0, kMaxRanks));
    if (key == "cores_per_host") m.cores_per_host = static_cast<int>(value.integer(0, 1 << 24));
    if (key == "root") m.root = static_cast<int>(value.integer(0, kMaxRanks));
}

void add_row(Measurement& m, MeasuredRow row, std::string_view origin) {
    auto& list = row.style == "library" ? m.library : m.candidates;
    for (const MeasuredRow& other : list)
        if (other.collective == row.collective && other.bytes == row.bytes &&
            other.algorithm == row.algorithm && other.k == row.k && other.style == row.style)
            throw InputError(fmt::format(
                "{}:{}: {} {}{} {} style at {} B is measured twice "
                "(line {} too); keep one row per candidate",
                origin, row.line, to_string(row.collective), row.algorithm,
                row.k > 0 ? fmt::format(" k={}", row.k) : "", row.style, row.bytes, other.line));
    if (m.candidates.size() + m.library.size() >= kMaxRows)
        throw InputError(fmt::format("{}:{}: more than {} rows", origin, row.line, kMaxRows));
    list.push_back(std::move(row));
}

Measurement parse_csv(std::string_view text, std::string_view origin) {
    Measurement m;
    m.origin = std::string(origin);
    std::vector<std::string> columns;
    std::size_t line_number = 0;
    for (std::size_t start = 0; start < text.size();) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        const std::string_view line = trim(text.substr(start, end - start));
        start = end + 1;
        ++line_number;
        if (line.empty()) continue;
        if (line.front() == '#') {
            const std::size_t colon = line.find(':');
            if (colon != std::string_view::npos && columns.empty())
                set_header(m, trim(line.substr(1, colon - 1)),
                           {origin, line_number, trim(line.substr(1, colon - 1)),
                            trim(line.substr(colon + 1))});
            continue;
        }
        const std::vector<std::string_view> cells = split(line);
        if (columns.empty()) {
            for (std::string_view c : cells) columns.emplace_back(c);
            for (std::string_view need : kColumns)
                if (std::find(columns.begin(), columns.end(), need) == columns.end())
                    throw InputError(fmt::format(
                        "{}:{}: header: no '{}' column; is this a piccolo-run-mpi --csv file?",
                        origin, line_number, need));
            continue;
        }
        if (cells.size() != columns.size())
            throw InputError(fmt::format("{}:{}: {} fields, the header has {}", origin, line_number,
                                         cells.size(), columns.size()));
        RowFields fields;
        for (std::size_t i = 0; i < cells.size(); ++i)
            fields.emplace(columns[i], Field{origin, line_number, columns[i], cells[i]});
        add_row(m, parse_row(fields), origin);
    }
    return m;
}

// A JSON value as the text the CSV would hold, so that both formats share every check.
std::string json_text(const nlohmann::json& v) {
    return v.is_string() ? v.get<std::string>() : v.dump();
}

Measurement parse_json(std::string_view text, std::string_view origin) {
    const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("rows") || !doc["rows"].is_array())
        throw InputError(fmt::format(
            "{}:1: not a piccolo-run-mpi --json file (an object with a 'rows' list)", origin));
    Measurement m;
    m.origin = std::string(origin);
    for (const auto& [key, value] : doc.items())
        if (key != "rows") {
            const std::string s = json_text(value);
            set_header(m, key, {origin, 0, key, s});
        }
    std::size_t index = 0;
    for (const nlohmann::json& item : doc["rows"]) {
        const std::string where = fmt::format("{}: rows[{}]", origin, index++);
        if (!item.is_object()) throw InputError(fmt::format("{}: not an object", where));
        std::vector<std::string> texts;
        RowFields fields;
        texts.reserve(std::size(kColumns));
        for (std::string_view column : kColumns) {
            if (!item.contains(column)) throw InputError(fmt::format("{}: no '{}'", where, column));
            texts.push_back(json_text(item[std::string(column)]));
        }
        for (std::size_t i = 0; i < texts.size(); ++i)
            fields.emplace(kColumns[i], Field{where, 0, kColumns[i], texts[i]});
        MeasuredRow row = parse_row(fields);
        row.line = index;
        add_row(m, std::move(row), origin);
    }
    return m;
}

}  // namespace

Measurement parse_measurement(std::string_view text, std::string_view origin) {
    text = strip_utf8_bom(text);
    if (!is_utf8(text)) throw InputError(fmt::format("{}: not UTF-8 text", origin));
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    Measurement m = first != std::string_view::npos && (text[first] == '{' || text[first] == '[')
                        ? parse_json(text, origin)
                        : parse_csv(text, origin);
    if (m.ranks == 0)
        throw InputError(fmt::format(
            "{}: ranks: missing; the file needs piccolo-run-mpi's header (# ranks: P)", origin));
    if (m.nodes == 0) m.nodes = 1;
    if (m.root >= m.ranks)
        throw InputError(fmt::format("{}: root: rank {} is not one of the {} ranks (use 0..{})",
                                     origin, m.root, m.ranks, m.ranks - 1));
    if (m.ranks_per_node == 0 && m.nodes == 1) m.ranks_per_node = m.ranks;
    if (m.candidates.empty())
        throw InputError(fmt::format(
            "{}: no measured candidate (only library rows or none); run piccolo-run-mpi "
            "without --schedule",
            origin));
    return m;
}

Measurement read_measurement(const std::filesystem::path& file) {
    return parse_measurement(read_input_file(file, "measurement file", kMaxMeasurementBytes),
                             file.string());
}

}  // namespace piccolo
