// The schedule XML entry points: the streaming reader first (memory follows the IR, not the
// text), the DOM reader for whatever it declines, errors included (schedule_xml_stream.hpp).
#include "piccolo/schedules/schedule_xml.hpp"

#include <fmt/format.h>
#include <fstream>
#include <system_error>

#include "piccolo/core/input_file.hpp"
#include "schedule_xml_stream.hpp"

namespace piccolo {

std::string LoadedSchedule::where(TaskId task) const {
    if (task < lines.size()) return fmt::format("{}:{}", origin, lines[task]);
    return origin;
}

LoadedSchedule parse_schedule_xml(std::string text, const std::string& origin, Payload payload) {
    if (std::optional<LoadedSchedule> streamed = detail::stream_schedule_xml(text, origin, payload))
        return std::move(*streamed);
    return parse_schedule_xml_dom(std::move(text), origin, payload);
}

LoadedSchedule read_schedule_xml(const std::filesystem::path& file, Payload payload) {
    // A regular file streams from the disk and is read again, whole, only when the streaming
    // reader declines it; a pipe or a device cannot be read twice, so it is read whole at once.
    std::error_code error;
    if (std::filesystem::is_regular_file(file, error)) {
        std::ifstream in(file, std::ios::binary);
        if (in)
            if (std::optional<LoadedSchedule> streamed =
                    detail::stream_schedule_xml(in, file.string(), payload))
                return std::move(*streamed);
    }
    return parse_schedule_xml_dom(read_input_file(file, "schedule", kMaxScheduleFileBytes),
                                  file.string(), payload);
}

}  // namespace piccolo
