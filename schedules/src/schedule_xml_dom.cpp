// The reference schedule XML reader (a pugixml DOM of the whole text, in place): the streaming
// reader (schedule_xml_stream.cpp) hands it every input it does not take, errors included, so
// that messages are the same whichever reader meets the file. Tasks are put in the order of
// their ids, whatever their order in the file, so that ties in the engine go by id.
#include "piccolo/schedules/schedule_xml.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <charconv>
#include <cstring>
#include <functional>
#include <iterator>
#include <limits>
#include <pugixml.hpp>
#include <type_traits>
#include <unordered_map>

#include "piccolo/core/error.hpp"
#include "piccolo/core/text.hpp"
#include "piccolo/schedules/generate.hpp"

namespace piccolo {

namespace {

constexpr std::uint64_t kFewRanks = 4096;

// One list per task as read (ids not yet resolved), rows back to back.
template <class T>
struct RawLists {
    std::vector<std::uint32_t> offsets;
    std::vector<T> items;
    void open_row() { offsets.push_back(static_cast<std::uint32_t>(items.size())); }
    void close() { open_row(); }  // the end of the last row
    void permute(const std::vector<TaskId>& order) {
        RawLists sorted;
        sorted.items.reserve(items.size());
        for (TaskId t : order) {
            sorted.open_row();
            sorted.items.insert(sorted.items.end(), items.begin() + offsets[t],
                                items.begin() + offsets[t + 1]);
        }
        sorted.close();
        *this = std::move(sorted);
    }
};

class XmlReader {
  public:
    XmlReader(std::string text, std::string origin, Payload payload)
        : text_(std::move(text)),
          origin_(std::move(origin)),
          keep_payload_(payload == Payload::read) {}

    LoadedSchedule read() {
        index_lines();
        const pugi::xml_parse_result parsed =
            document_.load_buffer_inplace(text_.data(), text_.size(), pugi::parse_default);
        if (!parsed)
            fail(parsed.offset, fmt::format("not well-formed XML: {}", parsed.description()));
        const pugi::xml_node root = document_.document_element();
        if (std::string_view(root.name()) != "collective")
            fail(root,
                 fmt::format("root element is <{}>, expected <collective>", excerpt(root.name())));
        for (pugi::xml_node node = root.first_child(); node; node = node.next_sibling())
            task_count_ += node.type() == pugi::node_element ? 1 : 0;
        read_header(root);

        for (pugi::xml_node node = root.first_child(); node; node = node.next_sibling()) {
            if (node.type() != pugi::node_element) continue;  // PICCL's loose text, comments
            read_task(node);
        }
        close_rows();
        check_rank_count(root);
        if (!dense_) sort_by_id();
        resolve(raw_deps_, result_.schedule.deps, "deps");
        if (any_sent_) resolve(raw_sent_, result_.schedule.sent_deps, "sent_deps");
        if (!dense_) result_.schedule.external_ids = std::move(ext_ids_);
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
        const char* const begin = text_.data();
        const char* const end = begin + text_.size();
        for (const char* at = begin;
             (at = static_cast<const char*>(std::memchr(at, '\n', end - at))); ++at)
            newline_offsets_.push_back(static_cast<std::size_t>(at - begin));
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
                                   excerpt(value)));
        return parsed;
    }

    const char* required(const pugi::xml_node& node, const char* name) const {
        const pugi::xml_attribute attribute = node.attribute(name);
        if (!attribute) fail(node, fmt::format("<{}> lacks the attribute {}", node.name(), name));
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
        if (s.shape.ranks > kMaxScheduleRanks)
            fail(root, fmt::format("nodes: {} ranks is more than the {} a schedule may have",
                                   s.shape.ranks, kMaxScheduleRanks));
        const auto buffer =
            integer<std::uint64_t>(root, "buffer_size", required(root, "buffer_size"), 0);
        s.algorithm = root.attribute("algorithm").as_string("");
        if (const auto k = root.attribute("k")) s.k = integer<int>(root, "k", k.value(), 0);
        if (const auto style = root.attribute("style")) {
            try {
                s.style = std::string(to_string(parse_style(style.value())));
            } catch (const InputError& e) {
                fail(root, fmt::format("style: {}", e.what()));
            }
        }
        if (pieces_follow_ranks(s.shape.collective)) {
            s.shape.pieces = pieces_of(s.shape.collective, s.shape.ranks);
            s.shape.bytes = buffer / static_cast<std::uint64_t>(s.shape.ranks);
        } else {
            s.shape.bytes = buffer;
            const auto segments = root.attribute("segments");
            s.shape.pieces =
                segments ? integer<std::uint32_t>(root, "segments", segments.value(), 1) : 1;
        }
        if (const auto at = root.attribute("root")) {
            s.shape.root = integer<Rank>(root, "root", at.value(), 0);
            if (s.shape.root >= s.shape.ranks)
                fail(root, fmt::format("root: rank {} is not one of the {} nodes (0..{})",
                                       s.shape.root, s.shape.ranks, s.shape.ranks - 1));
        }
        payload_name_ = moves_blocks(s.shape.collective) ? "blocks" : "segments";
        // The verifier keeps a record per (rank, piece); allgather has a block per rank.
        const std::uint64_t pairs =
            std::uint64_t{s.shape.pieces} * static_cast<std::uint64_t>(s.shape.ranks);
        if (keep_payload_ && pairs > kMaxRankPieces)
            fail(root,
                 fmt::format("nodes x {}: {} x {} is more than the {} (rank, {}) pairs a "
                             "schedule may have when its {} are read (piccolo sim reads the "
                             "file without them)",
                             payload_name_, s.shape.ranks, s.shape.pieces, kMaxRankPieces,
                             moves_blocks(s.shape.collective) ? "block" : "segment",
                             payload_name_));
    }

    std::uint32_t intern_size(std::uint64_t bytes) {
        const auto& values = result_.schedule.size_values;
        if (!values.empty() && values[last_size_class_] == bytes) return last_size_class_;
        auto [it, inserted] = size_index_.try_emplace(
            bytes, static_cast<std::uint32_t>(result_.schedule.size_values.size()));
        if (inserted) result_.schedule.size_values.push_back(bytes);
        last_size_class_ = it->second;
        return it->second;
    }

    // One pass over the attributes (a task has six or seven), then the checks.
    void read_task(const pugi::xml_node& node) {
        Schedule& s = result_.schedule;
        const std::string_view element = node.name();
        const bool transfer = element == "transfer";
        result_.lines.push_back(line_of(node));
        if (!transfer && element != "compute")
            fail(node, fmt::format("unknown element <{}> (expected <transfer> or <compute>)",
                                   excerpt(element)));
        const char *id = nullptr, *size = nullptr, *src = nullptr, *dst = nullptr, *rank = nullptr,
                   *kind = nullptr, *deps = nullptr, *sent = nullptr, *pieces = nullptr;
        for (pugi::xml_attribute a = node.first_attribute(); a; a = a.next_attribute()) {
            const std::string_view name = a.name();
            if (name == "id")
                id = a.value();
            else if (name == "size")
                size = a.value();
            else if (name == "src")
                src = a.value();
            else if (name == "dst")
                dst = a.value();
            else if (name == "deps")
                deps = a.value();
            else if (name == "sent_deps")
                sent = a.value();
            else if (name == "rank")
                rank = a.value();
            else if (name == "kind")
                kind = a.value();
            else if (name == payload_name_ && keep_payload_)
                pieces = a.value();
        }
        auto need = [&](const char* value, const char* name) {
            if (!value) fail(node, fmt::format("<{}> lacks the attribute {}", element, name));
            return std::string_view(value);
        };
        register_id(node, integer<std::int64_t>(node, "id", need(id, "id"), 0));
        const auto bytes = integer<std::int64_t>(node, "size", need(size, "size"), 0);
        if (transfer) {
            s.kind.push_back(TaskKind::transfer);
            s.src.push_back(integer<Rank>(node, "src", need(src, "src"), 0));
            s.dst.push_back(integer<Rank>(node, "dst", need(dst, "dst"), 0));
        } else {
            const std::string_view k = need(kind, "kind");
            if (k == "reduce")
                s.kind.push_back(TaskKind::reduce);
            else if (k == "permute")
                s.kind.push_back(TaskKind::permute);
            else if (k == "copy")
                s.kind.push_back(TaskKind::copy);
            else
                fail(node, fmt::format("kind: unknown compute kind \"{}\" (reduce, permute, copy)",
                                       excerpt(k)));
            const Rank r = integer<Rank>(node, "rank", need(rank, "rank"), 0);
            s.src.push_back(r);
            s.dst.push_back(r);
        }
        s.size_class.push_back(intern_size(static_cast<std::uint64_t>(bytes)));

        raw_deps_.open_row();
        if (deps) parse_list(node, "deps", deps, raw_deps_.items, true);
        raw_sent_.open_row();
        if (sent) {
            any_sent_ = true;
            parse_list(node, "sent_deps", sent, raw_sent_.items, true);
        }
        raw_payload_.open_row();
        if (pieces) {
            any_payload_ = true;
            parse_list(node, payload_name_, pieces, raw_payload_.items, false);
        }
    }

    // Ids are usually 0, 1, 2, ...: the map is built only when a file departs from that.
    void register_id(const pugi::xml_node& node, std::int64_t id) {
        const auto task = static_cast<TaskId>(ext_ids_.size());
        if (dense_ && id != static_cast<std::int64_t>(task)) {
            dense_ = false;
            for (TaskId t = 0; t < task; ++t) ids_.emplace(ext_ids_[t], t);
        }
        if (!dense_ && !ids_.try_emplace(id, task).second)
            fail(node, fmt::format("id {} is used twice (ids must be unique)", id));
        ext_ids_.push_back(id);
    }

    // "1,4,7-9" (ranges ascend, inclusive); "-1" alone (deps only) means none. Dependencies name
    // tasks of this file and pieces are below `pieces`, so a longer range is a typo (say
    // "0-99999999999"): it is refused before it is expanded, and so is a file whose ranges add up
    // to more than kMaxListItems ids (ids written one by one are bounded by the file's size).
    template <class Int>
    void parse_list(const pugi::xml_node& node, const char* name, std::string_view text,
                    std::vector<Int>& out, bool allow_none) {
        if (text.empty() || (allow_none && text == "-1")) return;
        const std::uint64_t span_limit = allow_none ? task_count_ : result_.schedule.shape.pieces;
        std::size_t pos = 0;
        while (pos <= text.size()) {
            const std::size_t comma = std::min(text.find(',', pos), text.size());
            const std::string_view item = text.substr(pos, comma - pos);
            const std::size_t dash = item.find('-', 1);
            const auto first = integer<std::int64_t>(node, name, item.substr(0, dash), 0);
            std::int64_t last = first;
            if (dash != std::string_view::npos)
                last = integer<std::int64_t>(node, name, item.substr(dash + 1), first);
            const auto count = static_cast<std::uint64_t>(last - first) + 1;  // last >= first >= 0
            if (last > std::numeric_limits<Int>::max() || count > span_limit)
                fail(node, fmt::format("{}: value out of range in \"{}\"", name, excerpt(item)));
            if (dash != std::string_view::npos) list_items_ += count;
            if (list_items_ > kMaxListItems)
                fail(node, fmt::format("{}: the lists of the file name more than {} ids in all; "
                                       "is a range mistyped?",
                                       name, kMaxListItems));
            for (std::uint64_t i = 0; i < count; ++i)
                out.push_back(static_cast<Int>(first + static_cast<std::int64_t>(i)));
            pos = comma + 1;
        }
    }

    // Every rank of a collective takes part in a transfer, and a transfer involves two ranks:
    // more ranks than that cannot be a real schedule (and would make the simulator allocate for
    // each of them). Up to kFewRanks are let through, so that a small broken file gets the
    // verifier's more precise message.
    void check_rank_count(const pugi::xml_node& root) const {
        const Schedule& s = result_.schedule;
        const auto transfers = static_cast<std::uint64_t>(
            std::count(s.kind.begin(), s.kind.end(), TaskKind::transfer));
        const auto ranks = static_cast<std::uint64_t>(s.shape.ranks);
        if (ranks > kFewRanks && ranks > 2 * transfers)
            fail(root, fmt::format("nodes: {} ranks, but the file's {} transfer{} at most {}; "
                                   "nodes is the number of ranks",
                                   ranks, transfers, transfers == 1 ? " involves" : "s involve",
                                   2 * transfers));
    }

    void close_rows() {
        raw_deps_.close();
        raw_sent_.close();
        raw_payload_.close();
    }

    // Puts the tasks in ascending id order (a file may list them in any order): results then
    // depend on ids, never on where a task stands in the file.
    void sort_by_id() {
        Schedule& s = result_.schedule;
        const std::size_t n = ext_ids_.size();
        if (std::is_sorted(ext_ids_.begin(), ext_ids_.end())) return;
        std::vector<TaskId> order(n);
        for (TaskId t = 0; t < n; ++t) order[t] = t;
        std::sort(order.begin(), order.end(),
                  [&](TaskId a, TaskId b) { return ext_ids_[a] < ext_ids_[b]; });
        auto permute = [&order](auto& values) {
            auto copy = values;
            for (std::size_t i = 0; i < order.size(); ++i) values[i] = copy[order[i]];
        };
        permute(s.kind);
        permute(s.src);
        permute(s.dst);
        permute(s.size_class);
        permute(result_.lines);
        permute(ext_ids_);
        raw_deps_.permute(order);
        raw_sent_.permute(order);
        raw_payload_.permute(order);
        ids_.clear();
        bool dense = true;
        for (TaskId t = 0; t < n; ++t) {
            ids_.emplace(ext_ids_[t], t);
            dense = dense && ext_ids_[t] == static_cast<std::int64_t>(t);
        }
        dense_ = dense;
    }

    void resolve(const RawLists<std::int64_t>& raw, Csr<TaskId>& out, const char* name) {
        const std::size_t n = result_.schedule.size();
        out.offsets = raw.offsets;
        out.items.resize(raw.items.size());
        for (std::size_t t = 0; t < n; ++t) {
            for (std::uint32_t i = raw.offsets[t]; i < raw.offsets[t + 1]; ++i) {
                const std::int64_t id = raw.items[i];
                if (dense_ && id < static_cast<std::int64_t>(n)) {
                    out.items[i] = static_cast<TaskId>(id);
                    continue;
                }
                const auto found = dense_ ? ids_.end() : ids_.find(id);
                if (found == ids_.end())
                    throw InputError(
                        fmt::format("{}:{}: {}: task id={} depends on id {}, which does not exist",
                                    origin_, result_.lines[t], name, ext_ids_[t], id));
                out.items[i] = found->second;
            }
        }
    }

    void finish_payload() {
        if (!any_payload_) return;
        Schedule& s = result_.schedule;
        s.payload.offsets = std::move(raw_payload_.offsets);
        s.payload.items = std::move(raw_payload_.items);
    }

    std::string text_;
    std::string origin_;
    bool keep_payload_;
    pugi::xml_document document_;
    LoadedSchedule result_;
    const char* payload_name_ = "blocks";
    std::unordered_map<std::int64_t, TaskId> ids_;
    std::unordered_map<std::uint64_t, std::uint32_t> size_index_;
    std::vector<std::int64_t> ext_ids_;
    RawLists<std::int64_t> raw_deps_, raw_sent_;  // ids as written
    RawLists<std::uint32_t> raw_payload_;
    std::vector<std::size_t> newline_offsets_;
    bool any_payload_ = false;
    bool any_sent_ = false;
    bool dense_ = true;
    std::uint32_t last_size_class_ = 0;  // ids so far are 0, 1, 2, ...
    std::uint64_t task_count_ = 0;       // elements under <collective>, counted before reading
    std::uint64_t list_items_ = 0;       // ids and pieces of every range so far
    std::size_t line_cursor_ = 0;
};

}  // namespace

LoadedSchedule parse_schedule_xml_dom(std::string text, const std::string& origin,
                                      Payload payload) {
    return XmlReader(std::move(text), origin, payload).read();
}

}  // namespace piccolo
