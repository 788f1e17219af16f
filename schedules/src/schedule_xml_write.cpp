// Schedule XML writer: direct, into one buffer (pugixml's DOM would triple the cost of writing a
// million transfers). Lists are written as ascending stretches "a-b".
#include <fmt/format.h>
#include <charconv>
#include <cstring>
#include <fstream>
#include <functional>
#include <type_traits>

#include "piccolo/core/error.hpp"
#include "piccolo/schedules/schedule_xml.hpp"

namespace piccolo {

namespace {

constexpr std::string_view format_tag = "piccolo-1";

// Appends text and integers to a 1 MiB buffer that is handed to `sink` whenever it fills: the
// writer's hot loop is a handful of memcpy and to_chars calls per task, and a file is written
// without ever holding the whole document (which would cost a page fault per 4 KiB).
class XmlOut {
  public:
    using Sink = std::function<void(std::string_view)>;
    explicit XmlOut(Sink sink) : text_(chunk, '\0'), sink_(std::move(sink)) {}
    XmlOut& operator<<(std::string_view piece) {
        reserve(piece.size());
        std::memcpy(text_.data() + used_, piece.data(), piece.size());
        used_ += piece.size();
        return *this;
    }
    template <class Int>
    requires std::is_integral_v<Int> XmlOut& operator<<(Int value) {
        reserve(24);
        char* at = text_.data() + used_;
        used_ += static_cast<std::size_t>(std::to_chars(at, at + 24, value).ptr - at);
        return *this;
    }
    XmlOut& escaped(std::string_view value) {
        for (char c : value) {
            switch (c) {
                case '&':
                    *this << "&amp;";
                    break;
                case '<':
                    *this << "&lt;";
                    break;
                case '>':
                    *this << "&gt;";
                    break;
                case '"':
                    *this << "&quot;";
                    break;
                default:
                    *this << std::string_view(&c, 1);
            }
        }
        return *this;
    }
    // Comma-separated; ascending stretches of three or more become "first-last".
    template <class Range, class Map>
    XmlOut& list(const Range& values, Map&& map) {
        const std::size_t n = values.size();
        for (std::size_t i = 0; i < n;) {
            std::size_t end = i + 1;
            while (end < n && map(values[end]) == map(values[end - 1]) + 1) ++end;
            if (i > 0) *this << ",";
            if (end - i >= 3) {
                *this << map(values[i]) << "-" << map(values[end - 1]);
                i = end;
            } else {
                *this << map(values[i]);
                ++i;
            }
        }
        return *this;
    }
    void flush() {
        sink_(std::string_view(text_.data(), used_));
        used_ = 0;
    }

  private:
    static constexpr std::size_t chunk = std::size_t{1} << 20;
    void reserve(std::size_t more) {
        if (used_ + more <= text_.size()) return;
        flush();
        if (more > text_.size()) text_.resize(more);
    }
    std::string text_;
    std::size_t used_ = 0;
    Sink sink_;
};

void write_xml(const Schedule& s, XmlOut& out);

}  // namespace

std::string schedule_to_xml(const Schedule& s) {
    std::string text;
    XmlOut out([&text](std::string_view piece) { text.append(piece); });
    write_xml(s, out);
    out.flush();
    return text;
}

void write_schedule_xml(const Schedule& schedule, std::ostream& stream) {
    XmlOut out([&stream](std::string_view piece) {
        stream.write(piece.data(), static_cast<std::streamsize>(piece.size()));
    });
    write_xml(schedule, out);
    out.flush();
}

namespace {

void write_xml(const Schedule& s, XmlOut& out) {
    const bool gather = moves_blocks(s.shape.collective);
    out << "<collective name=\"" << to_string(s.shape.collective) << "\" algorithm=\"";
    out.escaped(s.algorithm);
    out << "\" k=\"" << s.k << "\" nodes=\"" << s.shape.ranks << "\" buffer_size=\""
        << s.shape.total_buffer_bytes() << "\"";
    if (!pieces_follow_ranks(s.shape.collective)) out << " segments=\"" << s.shape.pieces << "\"";
    if (s.shape.cut == Cut::ceil) out << " cut=\"ceil\"";
    if (s.shape.collective == Collective::bcast || s.shape.collective == Collective::reduce)
        out << " root=\"" << s.shape.root << "\"";
    if (!s.style.empty()) {
        out << " style=\"";
        out.escaped(s.style);
        out << "\"";
    }
    out << " format=\"" << format_tag << "\">\n";

    const std::string_view payload_open = gather ? " blocks=\"" : " segments=\"";
    const auto external = [&s](TaskId d) { return s.external_id(d); };
    const auto same = [](std::uint32_t v) { return v; };
    for (TaskId t = 0; t < s.size(); ++t) {
        if (s.kind[t] == TaskKind::transfer)
            out << "  <transfer id=\"" << s.external_id(t) << "\" size=\"" << s.bytes(t)
                << "\" src=\"" << s.src[t] << "\" dst=\"" << s.dst[t] << "\" deps=\"";
        else
            out << "  <compute id=\"" << s.external_id(t) << "\" rank=\"" << s.src[t]
                << "\" size=\"" << s.bytes(t) << "\" kind=\"" << to_string(s.kind[t])
                << "\" deps=\"";
        const auto deps = s.deps.row(t);
        if (deps.empty())
            out << "-1";
        else
            out.list(deps, external);
        out << "\"";
        if (!s.sent_deps_of(t).empty()) {
            out << " sent_deps=\"";
            out.list(s.sent_deps_of(t), external);
            out << "\"";
        }
        if (s.has_payload() && !s.payload.row(t).empty()) {
            out << payload_open;
            out.list(s.payload.row(t), same);
            out << "\"";
        }
        out << "/>\n";
    }
    out << "</collective>\n";
}

}  // namespace

void write_schedule_xml(const Schedule& schedule, const std::filesystem::path& file) {
    std::ofstream out(file, std::ios::binary);
    if (!out) throw InputError(fmt::format("{}: cannot open for writing", file.string()));
    write_schedule_xml(schedule, out);
    if (!out) throw InputError(fmt::format("{}: write failed (disk full?)", file.string()));
}

}  // namespace piccolo
