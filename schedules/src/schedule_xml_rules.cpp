// The schedule XML rules (schedule_xml_rules.hpp): the header, each task, the lists, the limits
// and the checks that need every task, with their messages.
#include "schedule_xml_rules.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <numeric>

#include "piccolo/core/error.hpp"
#include "piccolo/core/text.hpp"
#include "piccolo/core/style.hpp"

namespace piccolo::detail {

namespace {

// Up to this many ranks are let through check_rank_count, so that a small broken file gets the
// verifier's more precise message.
constexpr std::uint64_t kFewRanks = 4096;
// One pass holds ids in 4 bytes, with one value to spare.
constexpr std::int64_t kLargestOnePassId = std::numeric_limits<std::uint32_t>::max() - 1;

const XmlAttribute* first_attribute(const XmlTag& tag, std::string_view name) {
    for (const XmlAttribute& a : tag.attributes)
        if (a.name == name) return &a;
    return nullptr;
}

template <class T>
void permute_rows(Csr<T>& rows, const std::vector<TaskId>& order) {
    Csr<T> sorted;
    sorted.items.reserve(rows.items.size());
    for (TaskId t : order) {
        sorted.items.insert(sorted.items.end(), rows.items.begin() + rows.offsets[t],
                            rows.items.begin() + rows.offsets[t + 1]);
        sorted.close_row();
    }
    rows = std::move(sorted);
}

// A task's attributes; of repeated ones the last counts (the DOM's attribute order).
struct TaskAttributes {
    std::string_view id, size, src, dst, rank, kind, deps, sent, pieces;
    bool has_id = false, has_size = false, has_src = false, has_dst = false, has_rank = false,
         has_kind = false, has_deps = false, has_sent = false, has_pieces = false;
};

TaskAttributes task_attributes(const XmlTag& tag, std::string_view payload_name) {
    TaskAttributes t;
    for (const XmlAttribute& a : tag.attributes) {
        const std::string_view n = a.name;
        if (n == "id")
            t.id = a.value, t.has_id = true;
        else if (n == "size")
            t.size = a.value, t.has_size = true;
        else if (n == "src")
            t.src = a.value, t.has_src = true;
        else if (n == "dst")
            t.dst = a.value, t.has_dst = true;
        else if (n == "deps")
            t.deps = a.value, t.has_deps = true;
        else if (n == "sent_deps")
            t.sent = a.value, t.has_sent = true;
        else if (n == "rank")
            t.rank = a.value, t.has_rank = true;
        else if (n == "kind")
            t.kind = a.value, t.has_kind = true;
        else if (n == payload_name)  // payload_name is empty when the payload is skipped
            t.pieces = a.value, t.has_pieces = true;
    }
    return t;
}

}  // namespace

template <class Id>
ScheduleRules<Id>::ScheduleRules(std::string origin, Payload payload, std::uint64_t elements)
    : origin_(std::move(origin)),
      keep_payload_(payload == Payload::read),
      elements_(one_pass ? 0 : elements) {}

template <class Id>
void ScheduleRules<Id>::fail(std::uint32_t line, const std::string& message) const {
    if constexpr (one_pass)
        throw NotStreamable{};
    else
        throw InputError(fmt::format("{}:{}: {}", origin_, line, message));
}

template <class Id>
template <class Int>
Int ScheduleRules<Id>::integer(std::uint32_t line, std::string_view name, std::string_view value,
                               Int min_value) const {
    Int parsed{};
    const char* const last = value.data() + value.size();
    const auto [end, error] = std::from_chars(value.data(), last, parsed);
    if (error != std::errc() || end != last || value.empty() || parsed < min_value) [[unlikely]]
        not_an_integer(line, name, value, static_cast<std::int64_t>(min_value));
    return parsed;
}

template <class Id>
void ScheduleRules<Id>::not_an_integer(std::uint32_t line, std::string_view name,
                                       std::string_view value, std::int64_t min_value) const {
    fail(line, fmt::format("{}: must be an integer >= {} (got \"{}\")", name, min_value,
                           excerpt(value)));
}

// The first attribute of that name (what pugixml's node.attribute(name) finds).
template <class Id>
std::string_view ScheduleRules<Id>::required(const XmlTag& tag, std::string_view name) const {
    const XmlAttribute* a = first_attribute(tag, name);
    if (a == nullptr) fail(tag.line, fmt::format("<{}> lacks the attribute {}", tag.name, name));
    return a->value;
}

template <class Id>
void ScheduleRules<Id>::root(const XmlTag& tag) {
    root_line_ = tag.line;
    if (tag.name != "collective")
        fail(tag.line,
             fmt::format("root element is <{}>, expected <collective>", excerpt(tag.name)));
    Schedule& s = result_.schedule;
    std::string collective(required(tag, "name"));
    std::transform(collective.begin(), collective.end(), collective.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    try {
        s.shape.collective = parse_collective(collective);
    } catch (const InputError& e) {
        fail(tag.line, fmt::format("name: {}", e.what()));
    }
    s.shape.ranks = integer<Rank>(tag.line, "nodes", required(tag, "nodes"), 1);
    if (s.shape.ranks > kMaxScheduleRanks)
        fail(tag.line, fmt::format("nodes: {} ranks is more than the {} a schedule may have",
                                   s.shape.ranks, kMaxScheduleRanks));
    const auto buffer =
        integer<std::uint64_t>(tag.line, "buffer_size", required(tag, "buffer_size"), 0);
    if (const XmlAttribute* a = first_attribute(tag, "algorithm")) s.algorithm = a->value;
    if (const XmlAttribute* a = first_attribute(tag, "k"))
        s.k = integer<int>(tag.line, "k", a->value, 0);
    if (const XmlAttribute* a = first_attribute(tag, "style")) {
        try {
            s.style = std::string(to_string(parse_style(a->value)));
        } catch (const InputError& e) {
            fail(tag.line, fmt::format("style: {}", e.what()));
        }
    }
    read_shape(tag, buffer);
}

template <class Id>
void ScheduleRules<Id>::read_shape(const XmlTag& tag, std::uint64_t buffer) {
    Schedule& s = result_.schedule;
    if (pieces_follow_ranks(s.shape.collective)) {
        s.shape.pieces = pieces_of(s.shape.collective, s.shape.ranks);
        s.shape.bytes = buffer / static_cast<std::uint64_t>(s.shape.ranks);
    } else {
        s.shape.bytes = buffer;
        const XmlAttribute* segments = first_attribute(tag, "segments");
        s.shape.pieces =
            segments ? integer<std::uint32_t>(tag.line, "segments", segments->value, 1) : 1;
        read_cut(tag);
    }
    if (const XmlAttribute* root = first_attribute(tag, "root")) {
        s.shape.root = integer<Rank>(tag.line, "root", root->value, 0);
        if (s.shape.root >= s.shape.ranks)
            fail(tag.line, fmt::format("root: rank {} is not one of the {} nodes (0..{})",
                                       s.shape.root, s.shape.ranks, s.shape.ranks - 1));
    }
    const bool blocks = moves_blocks(s.shape.collective);
    const std::string_view name = blocks ? "blocks" : "segments";
    payload_name_ = keep_payload_ ? name : std::string_view();
    // The verifier keeps a record per (rank, piece); allgather has a block per rank.
    const std::uint64_t pairs =
        std::uint64_t{s.shape.pieces} * static_cast<std::uint64_t>(s.shape.ranks);
    if (keep_payload_ && pairs > kMaxRankPieces)
        fail(tag.line,
             fmt::format("nodes x {}: {} x {} is more than the {} (rank, {}) pairs a schedule "
                         "may have when its {} are read (piccolo sim reads the file without "
                         "them)",
                         name, s.shape.ranks, s.shape.pieces, kMaxRankPieces,
                         blocks ? "block" : "segment", name));
}

// cut="ceil": MPICH's scatter chunks (CollectiveShape::cut), as many segments as hold bytes;
// without the attribute, or "even", segments whose sizes differ by at most a byte.
template <class Id>
void ScheduleRules<Id>::read_cut(const XmlTag& tag) {
    Schedule& s = result_.schedule;
    const XmlAttribute* cut = first_attribute(tag, "cut");
    if (cut == nullptr || cut->value == "even") return;
    if (cut->value != "ceil")
        fail(tag.line,
             fmt::format("cut: \"{}\" is not a cut (even or ceil)", excerpt(cut->value)));
    s.shape.cut = Cut::ceil;
    const std::uint32_t holding = ceil_cut_pieces(s.shape.bytes, s.shape.ranks);
    if (s.shape.pieces != holding)
        fail(tag.line, fmt::format("segments: a ceil cut of {} bytes over {} nodes has {} "
                                   "segments that hold bytes (got segments=\"{}\")",
                                   s.shape.bytes, s.shape.ranks, holding, s.shape.pieces));
}

template <class Id>
std::uint32_t ScheduleRules<Id>::intern_size(std::uint64_t bytes) {
    auto& values = result_.schedule.size_values;
    if (!values.empty() && values[last_size_class_] == bytes) return last_size_class_;
    auto [it, inserted] = size_index_.try_emplace(bytes, static_cast<std::uint32_t>(values.size()));
    if (inserted) values.push_back(bytes);
    last_size_class_ = it->second;
    return it->second;
}

template <class Id>
void ScheduleRules<Id>::element(const XmlTag& tag) {
    if constexpr (one_pass) {
        ++elements_;
        if (over_limit_line_ != 0) return;  // the whole-text reading stops at the limit
    }
    Schedule& s = result_.schedule;
    const std::uint32_t line = tag.line;
    const bool transfer = tag.name == "transfer";
    result_.lines.push_back(line);
    if (!transfer && tag.name != "compute")
        fail(line, fmt::format("unknown element <{}> (expected <transfer> or <compute>)",
                               excerpt(tag.name)));
    const TaskAttributes a = task_attributes(tag, payload_name_);
    auto need = [&](bool has, std::string_view value, std::string_view name) {
        if (!has) fail(line, fmt::format("<{}> lacks the attribute {}", tag.name, name));
        return value;
    };
    register_id(line, integer<std::int64_t>(line, "id", need(a.has_id, a.id, "id"), 0));
    const auto bytes = integer<std::int64_t>(line, "size", need(a.has_size, a.size, "size"), 0);
    if (transfer) {
        s.kind.push_back(TaskKind::transfer);
        s.src.push_back(integer<Rank>(line, "src", need(a.has_src, a.src, "src"), 0));
        s.dst.push_back(integer<Rank>(line, "dst", need(a.has_dst, a.dst, "dst"), 0));
    } else {
        read_kind(line, need(a.has_kind, a.kind, "kind"));
        const Rank r = integer<Rank>(line, "rank", need(a.has_rank, a.rank, "rank"), 0);
        s.src.push_back(r);
        s.dst.push_back(r);
    }
    s.size_class.push_back(intern_size(static_cast<std::uint64_t>(bytes)));
    if (a.has_deps) parse_list(line, "deps", a.deps, deps_.items, true);
    deps_.close_row();
    any_sent_ = any_sent_ || a.has_sent;
    if (a.has_sent) parse_list(line, "sent_deps", a.sent, sent_.items, true);
    sent_.close_row();
    any_payload_ = any_payload_ || a.has_pieces;
    if (a.has_pieces) parse_list(line, payload_name_, a.pieces, s.payload.items, false);
    s.payload.close_row();
}

template <class Id>
void ScheduleRules<Id>::read_kind(std::uint32_t line, std::string_view kind) {
    std::vector<TaskKind>& kinds = result_.schedule.kind;
    if (kind == "reduce")
        kinds.push_back(TaskKind::reduce);
    else if (kind == "permute")
        kinds.push_back(TaskKind::permute);
    else if (kind == "copy")
        kinds.push_back(TaskKind::copy);
    else
        fail(line, fmt::format("kind: unknown compute kind \"{}\" (reduce, permute, copy)",
                               excerpt(kind)));
}

// Ids are usually 0, 1, 2, ...: they are kept only once a file departs from that, and a set of
// them is built only once they stop ascending (ascending ids cannot repeat).
template <class Id>
void ScheduleRules<Id>::register_id(std::uint32_t line, std::int64_t id) {
    const std::size_t task = result_.lines.size() - 1;
    if (one_pass && id > kLargestOnePassId) throw NotStreamable{};
    if (ascending_ && task > 0 && id <= last_id_) {
        if (one_pass) throw NotStreamable{};
        ascending_ = false;
        for (std::size_t t = 0; t < task; ++t) ids_seen_.insert(external_id(t));
    }
    if (!ascending_ && !ids_seen_.insert(id).second)
        fail(line, fmt::format("id {} is used twice (ids must be unique)", id));
    if (dense_ && id != static_cast<std::int64_t>(task)) {
        dense_ = false;
        external_ids_.resize(task);
        std::iota(external_ids_.begin(), external_ids_.end(), std::int64_t{0});
    }
    if (!dense_) external_ids_.push_back(id);
    last_id_ = id;
}

template <class Id>
std::int64_t ScheduleRules<Id>::external_id(std::size_t task) const {
    return dense_ ? static_cast<std::int64_t>(task) : external_ids_[task];
}

// "1,4,7-9" (ranges ascend, inclusive); "-1" alone (deps only) means none. Dependencies name
// tasks of this file and pieces are below `pieces`, so a longer range is a typo (say
// "0-99999999999"): it is refused before it is expanded, and so is a file whose ranges add up to
// more than kMaxListItems ids (ids written one by one are bounded by the file's size). One pass
// does not know the task count yet: it checks its widest dependency range at the end.
template <class Id>
template <class Int>
void ScheduleRules<Id>::parse_list(std::uint32_t line, std::string_view name,
                                   std::string_view text, std::vector<Int>& out, bool deps) {
    if (over_limit_line_ != 0 || text.empty() || (deps && text == "-1")) return;
    const std::uint64_t span_limit =
        !deps ? result_.schedule.shape.pieces
              : (one_pass ? std::numeric_limits<std::uint64_t>::max() : elements_);
    std::size_t pos = 0;
    while (pos <= text.size()) {
        const std::size_t comma = std::min(text.find(',', pos), text.size());
        const std::string_view item = text.substr(pos, comma - pos);
        const std::size_t dash = item.find('-', 1);
        const auto first = integer<std::int64_t>(line, name, item.substr(0, dash), 0);
        std::int64_t last = first;
        if (dash != std::string_view::npos)
            last = integer<std::int64_t>(line, name, item.substr(dash + 1), first);
        const auto count = static_cast<std::uint64_t>(last - first) + 1;  // last >= first >= 0
        if (last > std::numeric_limits<Int>::max() || count > span_limit)
            fail(line, fmt::format("{}: value out of range in \"{}\"", name, excerpt(item)));
        if (deps) widest_dep_range_ = std::max(widest_dep_range_, count);
        if (dash != std::string_view::npos) list_items_ += count;
        if (list_items_ > kMaxListItems && over_list_limit(line, name)) return;
        for (std::uint64_t i = 0; i < count; ++i)
            out.push_back(static_cast<Int>(first + static_cast<std::int64_t>(i)));
        pos = comma + 1;
    }
}

template <class Id>
bool ScheduleRules<Id>::over_list_limit(std::uint32_t line, std::string_view name) {
    std::string message = fmt::format(
        "{}: the lists of the file name more than {} ids in all; is a range mistyped?", name,
        kMaxListItems);
    if (!one_pass) fail(line, message);
    over_limit_line_ = line;
    over_limit_message_ = std::move(message);
    return true;
}

// Every rank of a collective takes part in a transfer, and a transfer involves two ranks: more
// ranks than that cannot be a real schedule (and would make the simulator allocate for each).
template <class Id>
void ScheduleRules<Id>::check_rank_count() const {
    const Schedule& s = result_.schedule;
    const auto transfers = static_cast<std::uint64_t>(
        std::count(s.kind.begin(), s.kind.end(), TaskKind::transfer));
    const auto ranks = static_cast<std::uint64_t>(s.shape.ranks);
    if (ranks > kFewRanks && ranks > 2 * transfers)
        fail(root_line_, fmt::format("nodes: {} ranks, but the file's {} transfer{} at most {}; "
                                     "nodes is the number of ranks",
                                     ranks, transfers, transfers == 1 ? " involves" : "s involve",
                                     2 * transfers));
}

// Puts the tasks in ascending id order (a file may list them in any order): results then
// depend on ids, never on where a task stands in the file.
template <class Id>
void ScheduleRules<Id>::sort_by_id() {
    Schedule& s = result_.schedule;
    std::vector<TaskId> order(external_ids_.size());
    std::iota(order.begin(), order.end(), TaskId{0});
    std::sort(order.begin(), order.end(),
              [&](TaskId a, TaskId b) { return external_ids_[a] < external_ids_[b]; });
    auto permute = [&order](auto& values) {
        auto copy = values;
        for (std::size_t i = 0; i < order.size(); ++i) values[i] = copy[order[i]];
    };
    permute(s.kind);
    permute(s.src);
    permute(s.dst);
    permute(s.size_class);
    permute(result_.lines);
    permute(external_ids_);
    permute_rows(deps_, order);
    permute_rows(sent_, order);
    permute_rows(s.payload, order);
    bool dense = true;
    for (std::size_t t = 0; t < external_ids_.size(); ++t)
        dense = dense && external_ids_[t] == static_cast<std::int64_t>(t);
    dense_ = dense;
    if (dense_) external_ids_.clear();
}

// Ids as written to tasks: the same when dense, else by binary search (ids ascend by now).
template <class Id>
void ScheduleRules<Id>::resolve(Csr<Id>& raw, Csr<TaskId>& out, std::string_view name) {
    const std::size_t n = result_.schedule.size();
    if constexpr (!one_pass) out.items.resize(raw.items.size());
    for (std::size_t t = 0; t < n; ++t)
        for (std::uint32_t i = raw.offsets[t]; i < raw.offsets[t + 1]; ++i) {
            const auto id = static_cast<std::int64_t>(raw.items[i]);
            std::size_t task = 0;
            if (dense_) {
                task = static_cast<std::size_t>(id);
            } else {
                const auto at = std::lower_bound(external_ids_.begin(), external_ids_.end(), id);
                task = at != external_ids_.end() && *at == id
                           ? static_cast<std::size_t>(at - external_ids_.begin())
                           : n;
            }
            if (task >= n)
                fail(result_.lines[t],
                     fmt::format("{}: task id={} depends on id {}, which does not exist", name,
                                 external_id(t), id));
            if constexpr (one_pass)
                raw.items[i] = static_cast<TaskId>(task);
            else
                out.items[i] = static_cast<TaskId>(task);
        }
    if constexpr (one_pass)
        out = std::move(raw);
    else
        out.offsets = std::move(raw.offsets);
}

template <class Id>
LoadedSchedule ScheduleRules<Id>::finish() {
    if constexpr (one_pass) {
        if (widest_dep_range_ > elements_) throw NotStreamable{};
        if (over_limit_line_ != 0)
            throw InputError(
                fmt::format("{}:{}: {}", origin_, over_limit_line_, over_limit_message_));
    }
    Schedule& s = result_.schedule;
    check_rank_count();
    if (!ascending_) sort_by_id();
    resolve(deps_, s.deps, "deps");
    if (any_sent_) resolve(sent_, s.sent_deps, "sent_deps");
    if (!dense_) s.external_ids = std::move(external_ids_);
    if (!any_payload_) s.payload = {};
    result_.origin = origin_;
    return std::move(result_);
}

template class ScheduleRules<std::uint32_t>;
template class ScheduleRules<std::int64_t>;

}  // namespace piccolo::detail
