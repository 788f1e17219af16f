#pragma once
// The streaming schedule XML reader: one pass over the text in pieces, straight into the IR, for
// the XML that piccolo and PICCL write (a declaration, comments, <collective> and its empty
// <transfer>/<compute> elements, ids in increasing order). Whatever it does not take, malformed
// or merely unusual (DOCTYPE, CDATA, entity references, unsorted ids, ...), it leaves to the DOM
// reader, whose messages are the reference. The one error it reports itself, with the DOM
// reader's message, is lists adding up to more than kMaxListItems ids in an otherwise clean file.

#include <istream>
#include <optional>
#include <string>

#include "piccolo/schedules/schedule_xml.hpp"

namespace piccolo::detail {

// The schedule in `text`, or nullopt when the DOM reader must read it. `text` is unchanged
// either way (it is moved into the reader and back), but not when the reader throws.
std::optional<LoadedSchedule> stream_schedule_xml(std::string& text, const std::string& origin,
                                                  Payload payload = Payload::read);

// The same from a stream read in pieces of a few MiB, so that memory follows the IR, not the
// file. Throws InputError when the stream holds more than kMaxScheduleFileBytes or fails.
std::optional<LoadedSchedule> stream_schedule_xml(std::istream& in, const std::string& origin,
                                                  Payload payload = Payload::read);

}  // namespace piccolo::detail
