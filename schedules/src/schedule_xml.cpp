// XML writer (direct, into one buffer: pugixml's DOM would triple the cost of writing a million
// transfers) and reader (pugixml, in place). Payload lists are written as ascending runs "a-b".
#include "piccolo/schedule_xml.hpp"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <limits>
#include <pugixml.hpp>
#include <unordered_map>

#include "piccolo/error.hpp"

namespace piccolo {

namespace {

constexpr std::string_view format_tag = "piccolo-1";

void append_escaped(fmt::memory_buffer& out, std::string_view text) {
    for (char c : text) {
        switch (c) {
            case '&': fmt::format_to(std::back_inserter(out), "&amp;"); break;
            case '<': fmt::format_to(std::back_inserter(out), "&lt;"); break;
            case '>': fmt::format_to(std::back_inserter(out), "&gt;"); break;
            case '"': fmt::format_to(std::back_inserter(out), "&quot;"); break;
            default: out.push_back(c);
        }
    }
}

template <class T>
void append_list(fmt::memory_buffer& out, std::span<const T> values) {
    auto it = std::back_inserter(out);
    for (std::size_t i = 0; i < values.size();) {
        std::size_t run = i + 1;
        while (run < values.size() && values[run] == values[run - 1] + 1) ++run;
        if (i > 0) out.push_back(',');
        if (run - i >= 3) {  // a run of three or more becomes "first-last"
            fmt::format_to(it, "{}-{}", values[i], values[run - 1]);
            i = run;
        } else {
            fmt::format_to(it, "{}", values[i]);
            ++i;
        }
    }
}

}  // namespace

std::string schedule_to_xml(const Schedule& s) {
    fmt::memory_buffer out;
    auto it = std::back_inserter(out);
    const bool gather = s.shape.collective == Collective::allgather;
    fmt::format_to(it, "<collective name=\"{}\" algorithm=\"", to_string(s.shape.collective));
    append_escaped(out, s.algorithm);
    fmt::format_to(it, "\" k=\"{}\" nodes=\"{}\" buffer_size=\"{}\"", s.k, s.shape.ranks,
                   s.shape.total_buffer_bytes());
    if (!gather) fmt::format_to(it, " segments=\"{}\"", s.shape.pieces);
    fmt::format_to(it, " format=\"{}\">\n", format_tag);

    const std::string_view payload_name = gather ? "blocks" : "segments";
    std::vector<std::int64_t> dep_ids;
    for (TaskId t = 0; t < s.size(); ++t) {
        if (s.kind[t] == TaskKind::transfer)
            fmt::format_to(it, "  <transfer id=\"{}\" size=\"{}\" src=\"{}\" dst=\"{}\" deps=\"",
                           s.external_id(t), s.bytes(t), s.src[t], s.dst[t]);
        else
            fmt::format_to(it, "  <compute id=\"{}\" rank=\"{}\" size=\"{}\" kind=\"{}\" deps=\"",
                           s.external_id(t), s.src[t], s.bytes(t), to_string(s.kind[t]));
        const auto deps = s.deps.row(t);
        if (deps.empty()) {
            fmt::format_to(it, "-1");
        } else {
            dep_ids.clear();
            for (TaskId d : deps) dep_ids.push_back(s.external_id(d));
            append_list<std::int64_t>(out, dep_ids);
        }
        out.push_back('"');
        if (s.has_payload() && !s.payload.row(t).empty()) {
            fmt::format_to(it, " {}=\"", payload_name);
            append_list(out, s.payload.row(t));
            out.push_back('"');
        }
        fmt::format_to(it, "/>\n");
    }
    fmt::format_to(it, "</collective>\n");
    return fmt::to_string(out);
}

void write_schedule_xml(const Schedule& schedule, const std::filesystem::path& file) {
    const std::string text = schedule_to_xml(schedule);
    std::ofstream out(file, std::ios::binary);
    if (!out) throw InputError(fmt::format("{}: cannot open for writing", file.string()));
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out) throw InputError(fmt::format("{}: write failed", file.string()));
}

std::string LoadedSchedule::where(TaskId task) const {
    if (task < lines.size()) return fmt::format("{}:{}", origin, lines[task]);
    return origin;
}

namespace {

class XmlReader {
public:
    XmlReader(std::string text, std::string origin)
        : text_(std::move(text)), origin_(std::move(origin)) {}

    LoadedSchedule read() {
        index_lines();
        const pugi::xml_parse_result parsed =
            document_.load_buffer_inplace(text_.data(), text_.size(), pugi::parse_default);
        if (!parsed)
            fail(parsed.offset, fmt::format("not well-formed XML: {}", parsed.description()));
        const pugi::xml_node root = document_.document_element();
        if (std::string_view(root.name()) != "collective")
            fail(root, fmt::format("root element is <{}>, expected <collective>", root.name()));
        read_header(root);

        for (pugi::xml_node node = root.first_child(); node; node = node.next_sibling()) {
            if (node.type() != pugi::node_element) continue;  // PICCL's loose text, comments
            read_task(node);
        }
        resolve_dependencies();
        finish_payload();
        result_.origin = origin_;
        return std::move(result_);
    }

private:
    [[noreturn]] void fail(std::ptrdiff_t offset, const std::string& message) const {
        throw InputError(fmt::format("{}:{}: {}", origin_, line_at(offset), message));
    }
    [[noreturn]] void fail(const pugi::xml_node& node, const std::string& message) const {
        fail(node.offset_debug(), message);
    }

    // Line numbers come from newline positions taken before parsing: in-place parsing rewrites
    // parts of the buffer (attribute whitespace, terminators), node offsets stay valid.
    void index_lines() {
        for (std::size_t i = 0; i < text_.size(); ++i)
            if (text_[i] == '\n') newline_offsets_.push_back(i);
    }
    [[nodiscard]] std::uint32_t line_at(std::ptrdiff_t offset) const {
        const auto at = static_cast<std::size_t>(std::max<std::ptrdiff_t>(offset, 0));
        return static_cast<std::uint32_t>(
            std::lower_bound(newline_offsets_.begin(), newline_offsets_.end(), at) -
            newline_offsets_.begin() + 1);
    }
    // Tasks come in document order, so a forward cursor finds their lines in linear time.
    std::uint32_t line_of(const pugi::xml_node& node) {
        const auto offset = static_cast<std::size_t>(node.offset_debug());
        while (line_cursor_ < newline_offsets_.size() && newline_offsets_[line_cursor_] < offset)
            ++line_cursor_;
        return static_cast<std::uint32_t>(line_cursor_ + 1);
    }

    template <class Int>
    Int integer(const pugi::xml_node& node, const char* name, std::string_view value,
                Int min_value) const {
        Int parsed{};
        const char* first = value.data();
        const char* last = first + value.size();
        const auto [end, error] = std::from_chars(first, last, parsed);
        if (error != std::errc() || end != last || value.empty() || parsed < min_value)
            fail(node, fmt::format("{}: must be an integer >= {} (got \"{}\")", name, min_value,
                                   value));
        return parsed;
    }

    const char* required(const pugi::xml_node& node, const char* name) const {
        const pugi::xml_attribute attribute = node.attribute(name);
        if (!attribute)
            fail(node, fmt::format("<{}> lacks the attribute {}", node.name(), name));
        return attribute.value();
    }

    void read_header(const pugi::xml_node& root) {
        Schedule& s = result_.schedule;
        std::string collective = required(root, "name");
        std::transform(collective.begin(), collective.end(), collective.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        try {
            s.shape.collective = parse_collective(collective);
        } catch (const InputError& e) {
            fail(root, fmt::format("name: {}", e.what()));
        }
        s.shape.ranks = integer<Rank>(root, "nodes", required(root, "nodes"), 1);
        const auto buffer = integer<std::uint64_t>(root, "buffer_size",
                                                   required(root, "buffer_size"), 0);
        s.algorithm = root.attribute("algorithm").as_string("");
        if (const auto k = root.attribute("k")) s.k = integer<int>(root, "k", k.value(), 0);
        if (s.shape.collective == Collective::allgather) {
            s.shape.pieces = static_cast<std::uint32_t>(s.shape.ranks);
            s.shape.bytes = buffer / static_cast<std::uint64_t>(s.shape.ranks);
        } else {
            s.shape.bytes = buffer;
            const auto segments = root.attribute("segments");
            s.shape.pieces = segments ? integer<std::uint32_t>(root, "segments", segments.value(), 1)
                                      : 1;
        }
        payload_name_ = s.shape.collective == Collective::allgather ? "blocks" : "segments";
    }

    std::uint32_t intern_size(std::uint64_t bytes) {
        auto [it, inserted] = size_index_.try_emplace(
            bytes, static_cast<std::uint32_t>(result_.schedule.size_values.size()));
        if (inserted) result_.schedule.size_values.push_back(bytes);
        return it->second;
    }

    void read_task(const pugi::xml_node& node) {
        Schedule& s = result_.schedule;
        const std::string_view element = node.name();
        const auto task = static_cast<TaskId>(s.size());
        result_.lines.push_back(line_of(node));
        if (element != "transfer" && element != "compute")
            fail(node, fmt::format("unknown element <{}> (expected <transfer> or <compute>)", element));
        const auto id = integer<std::int64_t>(node, "id", required(node, "id"), 0);
        if (!ids_.try_emplace(id, task).second)
            fail(node, fmt::format("id {} is used twice (ids must be unique)", id));
        ext_ids_.push_back(id);
        const auto size = integer<std::int64_t>(node, "size", required(node, "size"), 0);
        if (element == "transfer") {
            s.kind.push_back(TaskKind::transfer);
            s.src.push_back(integer<Rank>(node, "src", required(node, "src"), 0));
            s.dst.push_back(integer<Rank>(node, "dst", required(node, "dst"), 0));
        } else if (element == "compute") {
            const std::string_view kind = required(node, "kind");
            if (kind == "reduce") s.kind.push_back(TaskKind::reduce);
            else if (kind == "permute") s.kind.push_back(TaskKind::permute);
            else if (kind == "copy") s.kind.push_back(TaskKind::copy);
            else fail(node, fmt::format("kind: unknown compute kind \"{}\" (reduce, permute, copy)", kind));
            const Rank rank = integer<Rank>(node, "rank", required(node, "rank"), 0);
            s.src.push_back(rank);
            s.dst.push_back(rank);
        } else {
            fail(node, fmt::format("unknown element <{}> (expected <transfer> or <compute>)", element));
        }
        s.size_class.push_back(intern_size(static_cast<std::uint64_t>(size)));

        raw_dep_offsets_.push_back(static_cast<std::uint32_t>(raw_deps_.size()));
        if (const auto deps = node.attribute("deps")) parse_list(node, "deps", deps.value(), raw_deps_, true);
        payload_offsets_.push_back(static_cast<std::uint32_t>(payload_items_.size()));
        if (const auto pieces = node.attribute(payload_name_)) {
            any_payload_ = true;
            parse_list(node, payload_name_, pieces.value(), payload_items_, false);
        }
    }

    // "1,4,7-9" (ranges ascend, inclusive); "-1" alone (deps only) means none.
    template <class Int>
    void parse_list(const pugi::xml_node& node, const char* name, std::string_view text,
                    std::vector<Int>& out, bool allow_none) {
        if (text.empty() || (allow_none && text == "-1")) return;
        std::size_t pos = 0;
        while (pos <= text.size()) {
            const std::size_t comma = std::min(text.find(',', pos), text.size());
            const std::string_view item = text.substr(pos, comma - pos);
            const std::size_t dash = item.find('-', 1);
            const auto first = integer<std::int64_t>(node, name, item.substr(0, dash), 0);
            std::int64_t last = first;
            if (dash != std::string_view::npos)
                last = integer<std::int64_t>(node, name, item.substr(dash + 1), first);
            if (last > std::numeric_limits<Int>::max() ||
                (std::is_same_v<Int, std::uint32_t> && last - first > (1 << 26)))
                fail(node, fmt::format("{}: value out of range in \"{}\"", name, item));
            for (std::int64_t v = first; v <= last; ++v) out.push_back(static_cast<Int>(v));
            pos = comma + 1;
        }
    }

    void resolve_dependencies() {
        Schedule& s = result_.schedule;
        const std::size_t n = s.size();
        raw_dep_offsets_.push_back(static_cast<std::uint32_t>(raw_deps_.size()));
        s.deps.offsets = raw_dep_offsets_;
        s.deps.items.resize(raw_deps_.size());
        for (std::size_t t = 0; t < n; ++t) {
            for (std::uint32_t i = raw_dep_offsets_[t]; i < raw_dep_offsets_[t + 1]; ++i) {
                const auto found = ids_.find(raw_deps_[i]);
                if (found == ids_.end())
                    throw InputError(fmt::format(
                        "{}:{}: deps: task id={} depends on id {}, which does not exist", origin_,
                        result_.lines[t], ext_ids_[t], raw_deps_[i]));
                s.deps.items[i] = found->second;
            }
        }
        bool identity = true;
        for (std::size_t t = 0; t < n && identity; ++t)
            identity = ext_ids_[t] == static_cast<std::int64_t>(t);
        if (!identity) s.external_ids = std::move(ext_ids_);
    }

    void finish_payload() {
        if (!any_payload_) return;
        Schedule& s = result_.schedule;
        payload_offsets_.push_back(static_cast<std::uint32_t>(payload_items_.size()));
        s.payload.offsets = std::move(payload_offsets_);
        s.payload.items = std::move(payload_items_);
    }

    std::string text_;
    std::string origin_;
    pugi::xml_document document_;
    LoadedSchedule result_;
    const char* payload_name_ = "blocks";
    std::unordered_map<std::int64_t, TaskId> ids_;
    std::unordered_map<std::uint64_t, std::uint32_t> size_index_;
    std::vector<std::int64_t> ext_ids_;
    std::vector<std::int64_t> raw_deps_;
    std::vector<std::uint32_t> raw_dep_offsets_;
    std::vector<std::uint32_t> payload_items_;
    std::vector<std::uint32_t> payload_offsets_;
    std::vector<std::size_t> newline_offsets_;
    bool any_payload_ = false;
    std::size_t line_cursor_ = 0;
};

}  // namespace

LoadedSchedule parse_schedule_xml(std::string text, const std::string& origin) {
    return XmlReader(std::move(text), origin).read();
}

LoadedSchedule read_schedule_xml(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw InputError(fmt::format("{}: cannot open (check the path)", file.string()));
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return parse_schedule_xml(std::move(text), file.string());
}

}  // namespace piccolo
