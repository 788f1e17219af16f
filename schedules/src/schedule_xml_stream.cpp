// The streaming token source: tags from an XmlWindow straight into the one-pass schedule XML
// rules (schedule_xml_rules.hpp), which hold ids in 4 bytes and write the IR as they go.
#include "schedule_xml_stream.hpp"

#include "piccolo/core/error.hpp"
#include "schedule_xml_rules.hpp"
#include "xml_window.hpp"

namespace piccolo::detail {

namespace {

LoadedSchedule stream(XmlWindow& window, const std::string& origin, Payload payload) {
    ScheduleRules<std::uint32_t> rules(origin, payload);
    XmlTag tag;
    window.skip_prolog();
    window.read_start_tag(tag);
    rules.root(tag);
    if (!tag.empty) {
        for (;;) {
            if (!window.skip_misc(true)) throw NotStreamable{};  // the root is not closed
            if (window.at_end_tag()) {
                window.read_end_tag("collective");
                break;
            }
            window.read_start_tag(tag);
            rules.element(tag);
            if (!tag.empty) window.read_empty_content(tag.name);
        }
    }
    if (window.skip_misc(false)) throw NotStreamable{};  // something after the root
    return rules.finish();
}

}  // namespace

std::optional<LoadedSchedule> stream_schedule_xml(std::string& text, const std::string& origin,
                                                  Payload payload) {
    XmlWindow window(std::move(text));
    std::optional<LoadedSchedule> result;
    try {
        result = stream(window, origin, payload);
    } catch (const NotStreamable&) {
    }
    text = window.release();
    return result;
}

std::optional<LoadedSchedule> stream_schedule_xml(std::istream& in, const std::string& origin,
                                                  Payload payload) {
    XmlWindow window(in, origin);
    try {
        return stream(window, origin, payload);
    } catch (const NotStreamable&) {
        return std::nullopt;
    }
}

}  // namespace piccolo::detail
