// The streaming reader: tags from an XmlWindow straight into the IR. Its checks are the DOM
// reader's (schedule_xml_dom.cpp), but where that one would report an error this one declines
// (NotStreamable) and the DOM reader reads the input again, so a message never depends on which
// reader met the file. Two limits of its own keep it to one pass with 4-byte ids: ids must be in
// increasing order and below 2^32 - 1; other files go to the DOM reader too.
//
// One error it reports itself: lists that add up to more than kMaxListItems ids. Reading such a
// file again would expand those ids a second time, 8 bytes each, only to reach the same line; so
// the reader stops expanding there, checks that the rest of the file is XML it takes, and throws
// the DOM reader's message (it declines as usual when the rest is not).
#include "schedule_xml_stream.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <charconv>
#include <limits>
#include <unordered_map>

#include "piccolo/core/error.hpp"
#include "piccolo/schedules/generate.hpp"
#include "xml_window.hpp"

namespace piccolo::detail {

namespace {

constexpr std::uint64_t kFewRanks = 4096;  // as the DOM reader's check_rank_count
constexpr std::int64_t kLargestId = std::numeric_limits<std::uint32_t>::max() - 1;

[[noreturn]] void decline() {
    throw NotStreamable{};
}

template <class Int>
Int integer(std::string_view value, Int min_value) {
    Int parsed{};
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), parsed);
    if (error != std::errc() || end != value.data() + value.size() || value.empty() ||
        parsed < min_value)
        decline();
    return parsed;
}

// The value of the first attribute called `name`; declines when it is missing.
std::string_view required(const XmlTag& tag, std::string_view name) {
    for (const XmlAttribute& a : tag.attributes)
        if (a.name == name) return a.value;
    decline();
}
const XmlAttribute* optional(const XmlTag& tag, std::string_view name) {
    for (const XmlAttribute& a : tag.attributes)
        if (a.name == name) return &a;
    return nullptr;
}

class StreamReader {
  public:
    StreamReader(XmlWindow& window, Payload payload)
        : window_(window), keep_payload_(payload == Payload::read) {}

    LoadedSchedule read(const std::string& origin) {
        window_.skip_prolog();
        window_.read_start_tag(tag_);
        if (tag_.name != "collective") decline();
        read_header();
        if (!tag_.empty) read_tasks();
        if (window_.skip_misc(false)) decline();  // something after the root
        result_.origin = origin;
        finish();
        return std::move(result_);
    }

  private:
    void read_header() {
        Schedule& s = result_.schedule;
        for (std::size_t i = 0; i < tag_.attributes.size(); ++i)  // the DOM takes the first
            for (std::size_t j = 0; j < i; ++j)
                if (tag_.attributes[i].name == tag_.attributes[j].name) decline();
        std::string collective(required(tag_, "name"));
        std::transform(collective.begin(), collective.end(), collective.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        if (collective != "allgather" && collective != "allreduce") decline();
        s.shape.collective = parse_collective(collective);
        s.shape.ranks = integer<Rank>(required(tag_, "nodes"), 1);
        if (s.shape.ranks > kMaxScheduleRanks) decline();
        const auto buffer = integer<std::uint64_t>(required(tag_, "buffer_size"), 0);
        if (const XmlAttribute* a = optional(tag_, "algorithm")) s.algorithm = a->value;
        if (const XmlAttribute* a = optional(tag_, "k")) s.k = integer<int>(a->value, 0);
        if (const XmlAttribute* a = optional(tag_, "style")) {
            try {
                s.style = std::string(to_string(parse_style(a->value)));
            } catch (const InputError&) {
                decline();
            }
        }
        if (pieces_follow_ranks(s.shape.collective)) {
            s.shape.pieces = pieces_of(s.shape.collective, s.shape.ranks);
            s.shape.bytes = buffer / static_cast<std::uint64_t>(s.shape.ranks);
        } else {
            s.shape.bytes = buffer;
            const XmlAttribute* segments = optional(tag_, "segments");
            s.shape.pieces = segments ? integer<std::uint32_t>(segments->value, 1) : 1;
        }
        payload_name_ = moves_blocks(s.shape.collective) ? "blocks" : "segments";
        if (keep_payload_ &&
            std::uint64_t{s.shape.pieces} * static_cast<std::uint64_t>(s.shape.ranks) >
                kMaxRankPieces)
            decline();
    }

    void read_tasks() {
        for (;;) {
            if (!window_.skip_misc(true)) decline();  // the root is not closed
            if (window_.at_end_tag()) {
                window_.read_end_tag("collective");
                return;
            }
            window_.read_start_tag(tag_);
            if (over_limit_line_ == 0)
                read_task();
            else
                ++tasks_after_limit_;  // the DOM reader stops at the limit: only XML counts now
            if (!tag_.empty) window_.read_empty_content(tag_.name);
        }
    }

    std::uint32_t intern_size(std::uint64_t bytes) {
        auto& values = result_.schedule.size_values;
        if (!values.empty() && values[last_size_class_] == bytes) return last_size_class_;
        auto [it, inserted] =
            size_index_.try_emplace(bytes, static_cast<std::uint32_t>(values.size()));
        if (inserted) values.push_back(bytes);
        last_size_class_ = it->second;
        return it->second;
    }

    struct TaskAttributes {
        std::string_view id, size, src, dst, rank, kind, deps, sent, pieces;
        bool has_deps = false, has_sent = false, has_pieces = false;
    };

    // The DOM reader's loop: the last of repeated attributes counts.
    TaskAttributes task_attributes() const {
        TaskAttributes t;
        for (const XmlAttribute& a : tag_.attributes) {
            const std::string_view n = a.name;
            if (n == "id")
                t.id = a.value;
            else if (n == "size")
                t.size = a.value;
            else if (n == "src")
                t.src = a.value;
            else if (n == "dst")
                t.dst = a.value;
            else if (n == "deps")
                t.deps = a.value, t.has_deps = true;
            else if (n == "sent_deps")
                t.sent = a.value, t.has_sent = true;
            else if (n == "rank")
                t.rank = a.value;
            else if (n == "kind")
                t.kind = a.value;
            else if (n == payload_name_ && keep_payload_)
                t.pieces = a.value, t.has_pieces = true;
        }
        return t;
    }

    void read_task() {
        Schedule& s = result_.schedule;
        const bool transfer = tag_.name == "transfer";
        if (!transfer && tag_.name != "compute") decline();
        const TaskAttributes a = task_attributes();
        result_.lines.push_back(tag_.line);
        register_id(integer<std::int64_t>(a.id, 0));
        const auto bytes = integer<std::int64_t>(a.size, 0);
        if (transfer) {
            s.kind.push_back(TaskKind::transfer);
            s.src.push_back(integer<Rank>(a.src, 0));
            s.dst.push_back(integer<Rank>(a.dst, 0));
        } else {
            if (a.kind == "reduce")
                s.kind.push_back(TaskKind::reduce);
            else if (a.kind == "permute")
                s.kind.push_back(TaskKind::permute);
            else if (a.kind == "copy")
                s.kind.push_back(TaskKind::copy);
            else
                decline();
            const Rank r = integer<Rank>(a.rank, 0);
            s.src.push_back(r);
            s.dst.push_back(r);
        }
        s.size_class.push_back(intern_size(static_cast<std::uint64_t>(bytes)));
        if (a.has_deps) parse_list(a.deps, s.deps.items, "deps");
        s.deps.close_row();
        any_sent_ = any_sent_ || a.has_sent;
        if (a.has_sent) parse_list(a.sent, s.sent_deps.items, "sent_deps");
        s.sent_deps.close_row();
        any_payload_ = any_payload_ || a.has_pieces;
        if (a.has_pieces) parse_list(a.pieces, s.payload.items, payload_name_);
        s.payload.close_row();
    }

    // Ids in increasing order; dense (task i has id i) until one departs from that.
    void register_id(std::int64_t id) {
        const auto task = static_cast<std::int64_t>(result_.schedule.kind.size());
        if (id > kLargestId || (task > 0 && id <= last_id_)) decline();
        if (dense_ && id != task) {
            dense_ = false;
            external_ids_.resize(static_cast<std::size_t>(task));
            for (std::int64_t t = 0; t < task; ++t) external_ids_[t] = t;
        }
        if (!dense_) external_ids_.push_back(id);
        last_id_ = id;
    }

    // "1,4,7-9" (ranges ascend, inclusive); "-1" alone (deps only) means none. Dependency ids
    // are resolved to tasks at the end; the span of a dependency range is checked then too,
    // against the task count the DOM reader knows beforehand. `name` is the attribute's.
    void parse_list(std::string_view text, std::vector<std::uint32_t>& out, std::string_view name) {
        const bool deps = name != payload_name_;
        if (over_limit_line_ != 0 || text.empty() || (deps && text == "-1")) return;
        const std::uint64_t piece_limit = result_.schedule.shape.pieces;
        std::size_t pos = 0;
        while (pos <= text.size()) {
            const std::size_t comma = std::min(text.find(',', pos), text.size());
            const std::string_view item = text.substr(pos, comma - pos);
            const std::size_t dash = item.find('-', 1);
            const auto first = integer<std::int64_t>(item.substr(0, dash), 0);
            std::int64_t last = first;
            if (dash != std::string_view::npos)
                last = integer<std::int64_t>(item.substr(dash + 1), first);
            const auto count = static_cast<std::uint64_t>(last - first) + 1;
            if (last > kLargestId || (!deps && count > piece_limit)) decline();
            if (deps) widest_dep_range_ = std::max(widest_dep_range_, count);
            if (dash != std::string_view::npos) list_items_ += count;
            if (list_items_ > kMaxListItems) {
                over_limit_line_ = tag_.line;
                over_limit_list_ = name;
                return;
            }
            for (std::int64_t v = first; v <= last; ++v)
                out.push_back(static_cast<std::uint32_t>(v));
            pos = comma + 1;
        }
    }

    void finish() {
        Schedule& s = result_.schedule;
        const std::uint64_t n = s.size() + tasks_after_limit_;
        if (widest_dep_range_ > n) decline();
        if (over_limit_line_ != 0)
            throw InputError(
                fmt::format("{}:{}: {}: the lists of the file name more than {} ids "
                            "in all; is a range mistyped?",
                            result_.origin, over_limit_line_, over_limit_list_, kMaxListItems));
        const auto transfers = static_cast<std::uint64_t>(
            std::count(s.kind.begin(), s.kind.end(), TaskKind::transfer));
        const auto ranks = static_cast<std::uint64_t>(s.shape.ranks);
        if (ranks > kFewRanks && ranks > 2 * transfers) decline();
        resolve(s.deps.items);
        if (any_sent_)
            resolve(s.sent_deps.items);
        else
            s.sent_deps = {};
        if (!any_payload_) s.payload = {};
        if (!dense_) s.external_ids = std::move(external_ids_);
    }

    // Ids as written to task indexes: the same when dense, else by binary search (ids ascend).
    void resolve(std::vector<std::uint32_t>& ids) const {
        const std::size_t n = result_.schedule.size();
        for (std::uint32_t& id : ids) {
            if (dense_) {
                if (id >= n) decline();
                continue;
            }
            const auto at = std::lower_bound(external_ids_.begin(), external_ids_.end(),
                                             static_cast<std::int64_t>(id));
            if (at == external_ids_.end() || *at != id) decline();
            id = static_cast<std::uint32_t>(at - external_ids_.begin());
        }
    }

    XmlWindow& window_;
    bool keep_payload_;
    XmlTag tag_;
    LoadedSchedule result_;
    std::string_view payload_name_ = "blocks";
    std::unordered_map<std::uint64_t, std::uint32_t> size_index_;
    std::vector<std::int64_t> external_ids_;  // only once ids departed from 0, 1, 2, ...
    std::int64_t last_id_ = -1;
    bool dense_ = true;
    bool any_sent_ = false;
    bool any_payload_ = false;
    std::uint32_t last_size_class_ = 0;
    std::uint64_t widest_dep_range_ = 0;
    std::uint64_t list_items_ = 0;       // ids of every range so far
    std::uint32_t over_limit_line_ = 0;  // of the task whose list passed kMaxListItems
    std::string_view over_limit_list_;
    std::uint64_t tasks_after_limit_ = 0;
};

}  // namespace

std::optional<LoadedSchedule> stream_schedule_xml(std::string& text, const std::string& origin,
                                                  Payload payload) {
    XmlWindow window(std::move(text));
    std::optional<LoadedSchedule> result;
    try {
        result = StreamReader(window, payload).read(origin);
    } catch (const NotStreamable&) {
    }
    text = window.release();
    return result;
}

std::optional<LoadedSchedule> stream_schedule_xml(std::istream& in, const std::string& origin,
                                                  Payload payload) {
    XmlWindow window(in, origin);
    try {
        return StreamReader(window, payload).read(origin);
    } catch (const NotStreamable&) {
        return std::nullopt;
    }
}

}  // namespace piccolo::detail
