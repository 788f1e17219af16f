// The whole-text token source: a pugixml DOM of the text, in place, walked into the schedule XML
// rules (schedule_xml_rules.hpp). It reads whatever the streaming tokenizer declines, malformed
// or merely unusual XML (DOCTYPE, CDATA, entity references, unsorted ids, ...), so its messages
// are the reference: a syntax error anywhere in the text comes before any broken rule.
#include <fmt/format.h>
#include <algorithm>
#include <cstring>
#include <pugixml.hpp>

#include "piccolo/core/error.hpp"
#include "piccolo/schedules/schedule_xml.hpp"
#include "schedule_xml_rules.hpp"

namespace piccolo {

namespace {

using detail::XmlTag;

class DomSource {
  public:
    DomSource(std::string text, std::string origin)
        : text_(std::move(text)), origin_(std::move(origin)) {}

    LoadedSchedule read(Payload payload) {
        index_lines();
        const pugi::xml_parse_result parsed =
            document_.load_buffer_inplace(text_.data(), text_.size(), pugi::parse_default);
        if (!parsed)
            throw InputError(fmt::format("{}:{}: not well-formed XML: {}", origin_,
                                         line_at(parsed.offset), parsed.description()));
        const pugi::xml_node root = document_.document_element();
        std::uint64_t elements = 0;
        for (pugi::xml_node node = root.first_child(); node; node = node.next_sibling())
            elements += node.type() == pugi::node_element ? 1 : 0;
        detail::ScheduleRules<std::int64_t> rules(origin_, payload, elements);
        rules.root(tag_of(root, line_at(root.offset_debug())));
        for (pugi::xml_node node = root.first_child(); node; node = node.next_sibling())
            if (node.type() == pugi::node_element)  // PICCL's loose text, comments
                rules.element(tag_of(node, line_of(node)));
        return rules.finish();
    }

  private:
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

    const XmlTag& tag_of(const pugi::xml_node& node, std::uint32_t line) {
        tag_.name = node.name();
        tag_.line = line;
        tag_.attributes.clear();
        for (pugi::xml_attribute a = node.first_attribute(); a; a = a.next_attribute())
            tag_.attributes.push_back({a.name(), a.value()});
        return tag_;
    }

    std::string text_;
    std::string origin_;
    pugi::xml_document document_;
    XmlTag tag_;
    std::vector<std::size_t> newline_offsets_;
    std::size_t line_cursor_ = 0;
};

}  // namespace

LoadedSchedule parse_schedule_xml_dom(std::string text, const std::string& origin,
                                      Payload payload) {
    return DomSource(std::move(text), origin).read(payload);
}

}  // namespace piccolo
