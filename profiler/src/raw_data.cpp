#include "piccolo/profiler/raw_data.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <fstream>
#include <istream>
#include <limits>
#include <ostream>
#include <sstream>
#include <string_view>

#include "piccolo/core/error.hpp"
#include "piccolo/core/input_file.hpp"
#include "piccolo/core/text.hpp"
#include "piccolo/topologies/machine.hpp"

namespace piccolo::profiler {
namespace {

constexpr std::array<std::string_view, 7> column_names = {"level", "kind", "n",      "delay_s",
                                                          "bytes", "rep",  "seconds"};
constexpr const char* row_hint = "each data row is level,kind,n,delay_s,bytes,rep,seconds";
// Bounds on sample values: far beyond real measurements, they keep the fit's arithmetic finite
// (sizes convert to double and back; products of times stay below the double range).
constexpr double kMaxSeconds = 1e6;                      // one sample, one delay
constexpr std::size_t kMaxBytes = std::size_t{1} << 48;  // one message
constexpr int kMaxTrain = 1 << 20;                       // n, messages in one train

std::string_view trim(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) return {};
    const auto last = text.find_last_not_of(" \t\r");
    return text.substr(first, last - first + 1);
}

bool is_name(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '-' || c == '.';
    });
}

// Reports problems of one line as "ORIGIN:LINE: field 'F': ...".
class LineContext {
  public:
    LineContext(const std::string& origin, std::size_t line) : origin_(origin), line_(line) {}

    [[noreturn]] void fail(std::string_view field, std::string_view problem) const {
        throw InputError(fmt::format("{}:{}: field '{}': {}", origin_, line_, field, problem));
    }

    template <typename Int>
    Int integer(std::string_view field, std::string_view text, Int min_value,
                Int max_value = std::numeric_limits<Int>::max()) const {
        Int value{};
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (error == std::errc::result_out_of_range && end == text.data() + text.size()) {
            fail(field, fmt::format("{} is above the maximum {}", excerpt(text), max_value));
        }
        if (error != std::errc{} || end != text.data() + text.size()) {
            fail(field, fmt::format("'{}' is not an integer ({})", excerpt(text), row_hint));
        }
        if (value < min_value) {
            fail(field, fmt::format("{} is below the minimum {}", value, min_value));
        }
        if (value > max_value) {
            fail(field, fmt::format("{} is above the maximum {}", value, max_value));
        }
        return value;
    }

    // A finite number, and not negative unless `signed_value` (a difference of two times).
    double real(std::string_view field, std::string_view text, bool signed_value = false) const {
        double value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (error != std::errc{} || end != text.data() + text.size()) {
            fail(field, fmt::format("'{}' is not a number ({})", excerpt(text), row_hint));
        }
        if (!std::isfinite(value) || (value < 0 && !signed_value)) {
            fail(field, fmt::format("{} must be finite and not negative", excerpt(text)));
        }
        if (value > kMaxSeconds) {
            fail(field,
                 fmt::format("{} s is above the maximum {:g} s", excerpt(text), kMaxSeconds));
        }
        return value;
    }

  private:
    const std::string& origin_;
    std::size_t line_;
};

SampleKind parse_kind(const LineContext& context, std::string_view text) {
    if (text == "prtt") return SampleKind::prtt;
    if (text == "o_r") return SampleKind::o_r;
    if (text == "radix") return SampleKind::radix;
    if (text == "compute") return SampleKind::compute;
    if (text == "concurrent") return SampleKind::concurrent;
    if (text == "reclaim") return SampleKind::reclaim;
    context.fail(
        "kind", fmt::format("unknown kind '{}' (use prtt, o_r, radix, compute, concurrent or reclaim)",
                            excerpt(text)));
}

std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
        const auto end = text.find(separator, start);
        parts.push_back(trim(text.substr(start, end - start)));
        if (end == std::string_view::npos) break;
        start = end + 1;
    }
    return parts;
}

void parse_header_line(const LineContext& context, std::string_view comment, RawData& data) {
    const auto colon = comment.find(':');
    if (colon == std::string_view::npos) return;  // free text comment
    const std::string_view key = trim(comment.substr(0, colon));
    const std::string_view value = trim(comment.substr(colon + 1));
    if (!is_name(key)) return;
    if (key == "machine") {
        data.machine_name = std::string(value);
    } else if (key == "description") {
        data.description = std::string(value);
    } else if (key == "level") {
        const auto space = value.find(' ');
        const std::string_view name = trim(value.substr(0, space));
        const std::string_view fanout =
            space == std::string_view::npos ? std::string_view{} : trim(value.substr(space));
        if (!is_name(name) || fanout.empty()) {
            context.fail("level", fmt::format("'{}' is not 'NAME FANOUT' (e.g. '# level: node 4')",
                                              excerpt(value)));
        }
        if (data.levels.size() >= static_cast<std::size_t>(kMaxLevels)) {
            context.fail("level", fmt::format("more than {} level lines", kMaxLevels));
        }
        data.levels.push_back({std::string(name), context.integer<int>("level", fanout, 0)});
    } else {
        data.info.emplace_back(std::string(key), std::string(value));
    }
}

// The level lines become the machine's levels (piccolo fit): the same rules as a machine file,
// checked here so that fit never writes a YAML that sim then refuses.
void check_levels(const LineContext& context, const std::vector<LevelInfo>& levels) {
    if (levels.size() == 1) {
        context.fail("level", fmt::format("one '# level:' line ({}); list every level innermost "
                                          "first, at least node and system",
                                          levels.front().name));
    }
    for (std::size_t i = 0; i + 1 < levels.size(); ++i) {
        if (levels[i].fanout < 1) {
            context.fail("level",
                         fmt::format("level '{}' has fanout {}; every level but the last needs "
                                     "fanout >= 1 (devices per node, nodes per group)",
                                     levels[i].name, levels[i].fanout));
        }
    }
}

}  // namespace

const char* to_string(SampleKind kind) {
    switch (kind) {
        case SampleKind::prtt:
            return "prtt";
        case SampleKind::o_r:
            return "o_r";
        case SampleKind::radix:
            return "radix";
        case SampleKind::compute:
            return "compute";
        case SampleKind::concurrent:
            return "concurrent";
        case SampleKind::reclaim:
            return "reclaim";
    }
    return "?";
}

void write_raw_csv(std::ostream& out, const RawData& data) {
    out << "# piccolo raw profiler samples (see profiler/README.md)\n";
    if (!data.machine_name.empty()) out << "# machine: " << data.machine_name << '\n';
    if (!data.description.empty()) out << "# description: " << data.description << '\n';
    for (const auto& level : data.levels) {
        out << "# level: " << level.name << ' ' << level.fanout << '\n';
    }
    for (const auto& [key, value] : data.info) out << "# " << key << ": " << value << '\n';
    out << raw_csv_columns << '\n';
    for (const auto& s : data.samples) {
        // 17 significant digits: refitting the file reproduces the live fit exactly.
        out << fmt::format("{},{},{},{:.17g},{},{},{:.17g}\n", s.level, to_string(s.kind), s.n,
                           s.delay, s.bytes, s.rep, s.seconds);
    }
}

void write_raw_csv(const std::filesystem::path& file, const RawData& data) {
    std::ofstream out(file);
    if (!out) {
        throw InputError(
            fmt::format("{}: cannot open for writing (check the directory exists)", file.string()));
    }
    write_raw_csv(out, data);
    if (!out) throw InputError(fmt::format("{}: write failed (disk full?)", file.string()));
}

RawData parse_raw_csv(std::istream& in, const std::string& origin) {
    RawData data;
    std::string line;
    std::size_t line_number = 0;
    bool have_header = false;
    while (std::getline(in, line)) {
        ++line_number;
        const LineContext context(origin, line_number);
        const std::string_view text = trim(line_number == 1 ? strip_utf8_bom(line) : line);
        if (text.empty()) continue;
        if (text.front() == '#') {
            if (!have_header) parse_header_line(context, text.substr(1), data);
            continue;
        }
        const auto fields = split(text, ',');
        if (!have_header) {
            const bool matches =
                std::equal(fields.begin(), fields.end(), column_names.begin(), column_names.end());
            if (!matches) {
                context.fail("header", fmt::format("expected the column line '{}', got '{}'",
                                                   raw_csv_columns, excerpt(text)));
            }
            check_levels(context, data.levels);
            have_header = true;
            continue;
        }
        if (fields.size() != column_names.size()) {
            context.fail("row", fmt::format("{} fields instead of {} ({})", fields.size(),
                                            column_names.size(), row_hint));
        }
        RawSample sample;
        if (!is_name(fields[0])) {
            context.fail("level", fmt::format("'{}' is not a level name (letters, digits, _-.)",
                                              excerpt(fields[0])));
        }
        sample.level = std::string(fields[0]);
        sample.kind = parse_kind(context, fields[1]);
        sample.n = context.integer<int>("n", fields[2], 1, kMaxTrain);
        sample.delay = context.real("delay_s", fields[3]);
        sample.bytes = context.integer<std::size_t>("bytes", fields[4], 1, kMaxBytes);
        sample.rep = context.integer<int>("rep", fields[5], 0);
        // A reclaim row is a difference of two times: noise makes some negative.
        const bool difference = sample.kind == SampleKind::reclaim;
        sample.seconds = context.real("seconds", fields[6], difference);
        if (sample.seconds <= 0 && !difference)
            context.fail("seconds", "a duration must be positive");
        // A concurrent row times transfers started together: a delay between them would make
        // them sequential, so the fit could not read it as concurrency.
        if (sample.kind == SampleKind::concurrent && sample.delay != 0) {
            context.fail("delay_s", "a concurrent row has no delay (use 0)");
        }
        data.samples.push_back(std::move(sample));
    }
    if (!have_header) {
        throw InputError(
            fmt::format("{}:{}: field 'header': no column line '{}' (is this a "
                        "piccolo raw profile CSV?)",
                        origin, line_number + 1, raw_csv_columns));
    }
    if (data.samples.empty()) {
        throw InputError(
            fmt::format("{}:{}: field 'row': no data rows after the column line "
                        "(re-run the profiler)",
                        origin, line_number + 1));
    }
    return data;
}

RawData read_raw_csv(const std::filesystem::path& file) {
    std::istringstream in(read_input_file(file, "raw profile CSV", kMaxRawProfileBytes));
    return parse_raw_csv(in, file.string());
}

}  // namespace piccolo::profiler
