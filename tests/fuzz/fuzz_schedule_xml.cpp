// libFuzzer target: the schedule XML reader, then the verifier on whatever it accepts (the
// structure check and the data-flow proof). Both must end in a value or an InputError. The
// streaming reader and the DOM reader must agree: what one accepts the other reads the same.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "piccolo/core/error.hpp"
#include "piccolo/schedules/schedule_xml.hpp"
#include "piccolo/schedules/verify.hpp"

namespace {

std::optional<piccolo::LoadedSchedule> dom_reading(const std::string& text) {
    try {
        return piccolo::parse_schedule_xml_dom(text, "fuzz.xml");
    } catch (const piccolo::InputError&) {
        return std::nullopt;
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const piccolo::LoadedSchedule loaded = piccolo::parse_schedule_xml(text, "fuzz.xml");
        const std::optional<piccolo::LoadedSchedule> dom = dom_reading(text);
        if (!dom || dom->lines != loaded.lines ||
            piccolo::schedule_to_xml(dom->schedule) != piccolo::schedule_to_xml(loaded.schedule))
            __builtin_trap();  // the two readers disagree
        const piccolo::VerifyReport report = piccolo::verify(loaded.schedule);
        (void)report.ok();
    } catch (const piccolo::InputError&) {
    }
    return 0;
}
