#pragma once
// The rules of the schedule XML format (schedules/README.md, "XML format"), stated once: what the
// <collective> start tag and each element under it must hold, the limits that keep memory bounded
// on hostile input, and every error message. Two token sources feed them the same tags: the
// streaming tokenizer (xml_window.cpp, through schedule_xml_stream.cpp) and the walk of a pugixml
// DOM (schedule_xml_dom.cpp). Tasks end up in the order of their ids, whatever their order in the
// file, so that ties in the engine go by id.
//
// Two instances, one per kind of reading:
// - ScheduleRules<std::int64_t> reads a whole text whose element count is known beforehand (the
//   DOM walk). Every broken rule throws InputError "FILE:LINE: problem"; its messages are the
//   reference.
// - ScheduleRules<std::uint32_t> reads in one pass, ids and dependencies held in 4 bytes: ids
//   must ascend and stay below 2^32 - 1. Where a rule is broken, or the file leaves those two
//   limits, it throws NotStreamable and the whole-text reading decides, since a syntax error
//   further on in the file comes before any broken rule. The one exception: lists adding up to
//   more than kMaxListItems ids. Reading the file again would expand those ids a second time, 8
//   bytes each, only to reach the same line; so it stops expanding there, only counts the
//   elements that follow, and finish() throws the message itself, unless a dependency range
//   before that line is wider than the file's task count (the whole-text reading stops there).

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "piccolo/schedules/schedule_xml.hpp"

namespace piccolo::detail {

// Thrown by a one-pass reading where the whole-text reading must decide.
struct NotStreamable {};

struct XmlAttribute {
    // The value as the DOM reads it (references decoded, whitespace normalized): the streaming
    // tokenizer passes only values where that is the text as written.
    std::string_view name, value;
};

// A start tag as a token source hands it over.
struct XmlTag {
    std::string_view name;
    std::vector<XmlAttribute> attributes;
    bool empty = false;      // <name ... />
    std::uint32_t line = 0;  // of its '<', 1-based (newlines counted, nothing else)
};

template <class Id>
class ScheduleRules {
  public:
    static constexpr bool one_pass = std::is_same_v<Id, std::uint32_t>;

    // `elements`: the number of elements under the root (the whole-text reading only).
    ScheduleRules(std::string origin, Payload payload, std::uint64_t elements = 0);

    void root(const XmlTag& tag);     // the document element: must be <collective>
    void element(const XmlTag& tag);  // each element under it, in document order
    LoadedSchedule finish();          // the checks that need every task, then the IR

  private:
    [[noreturn]] void fail(std::uint32_t line, const std::string& message) const;
    // The failure of integer(), kept out of line so that the parse itself inlines.
    [[noreturn, gnu::cold, gnu::noinline]] void not_an_integer(std::uint32_t line,
                                                               std::string_view name,
                                                               std::string_view value,
                                                               std::int64_t min_value) const;
    template <class Int>
    Int integer(std::uint32_t line, std::string_view name, std::string_view value,
                Int min_value) const;
    std::string_view required(const XmlTag& tag, std::string_view name) const;
    void read_shape(const XmlTag& tag, std::uint64_t buffer);
    void read_cut(const XmlTag& tag);
    void read_kind(std::uint32_t line, std::string_view kind);
    void register_id(std::uint32_t line, std::int64_t id);
    std::uint32_t intern_size(std::uint64_t bytes);
    template <class Int>
    void parse_list(std::uint32_t line, std::string_view name, std::string_view text,
                    std::vector<Int>& out, bool deps);
    bool over_list_limit(std::uint32_t line, std::string_view name);
    void check_rank_count() const;
    void sort_by_id();
    void resolve(Csr<Id>& raw, Csr<TaskId>& out, std::string_view name);
    [[nodiscard]] std::int64_t external_id(std::size_t task) const;

    std::string origin_;
    bool keep_payload_;
    std::uint64_t elements_;  // known beforehand (whole text) or counted (one pass)
    LoadedSchedule result_;
    std::uint32_t root_line_ = 1;
    std::string_view payload_name_ = "blocks";
    Csr<Id> deps_, sent_;  // ids as written, resolved to tasks at the end
    std::unordered_map<std::uint64_t, std::uint32_t> size_index_;
    std::vector<std::int64_t> external_ids_;  // only once ids departed from 0, 1, 2, ...
    std::unordered_set<std::int64_t> ids_seen_;  // only once ids stopped ascending
    std::int64_t last_id_ = -1;
    bool dense_ = true;      // task i has id i
    bool ascending_ = true;  // ids ascend in document order
    bool any_sent_ = false;
    bool any_payload_ = false;
    std::uint32_t last_size_class_ = 0;
    std::uint64_t widest_dep_range_ = 0;  // one pass: checked against the task count at the end
    std::uint64_t list_items_ = 0;        // ids and pieces of every range so far
    std::uint32_t over_limit_line_ = 0;   // one pass: the task whose list passed kMaxListItems
    std::string over_limit_message_;
};

extern template class ScheduleRules<std::uint32_t>;
extern template class ScheduleRules<std::int64_t>;

}  // namespace piccolo::detail
