// libFuzzer target: the schedule XML reader, then the verifier on whatever it accepts (the
// structure check and the data-flow proof). Both must end in a value or an InputError.
#include <cstddef>
#include <cstdint>
#include <string>

#include "piccolo/error.hpp"
#include "piccolo/schedule_xml.hpp"
#include "piccolo/verify.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const piccolo::LoadedSchedule loaded = piccolo::parse_schedule_xml(
            std::string(reinterpret_cast<const char*>(data), size), "fuzz.xml");
        const piccolo::VerifyReport report = piccolo::verify(loaded.schedule);
        (void)report.ok();
    } catch (const piccolo::InputError&) {
    }
    return 0;
}
