#pragma once
// Schedule XML at the edge: piccolo's format, a superset of PICCL's (schedules/README.md, "XML
// format").

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "piccolo/schedules/schedule.hpp"

namespace piccolo {

// A schedule read from a file, with the line each task came from (for error messages).
struct LoadedSchedule {
    Schedule schedule;
    std::vector<std::uint32_t> lines;                    // per task, 1-based
    std::string origin;                                  // file name as given
    [[nodiscard]] std::string where(TaskId task) const;  // "file.xml:12"
};

std::string schedule_to_xml(const Schedule& schedule);
void write_schedule_xml(const Schedule& schedule, std::ostream& out);  // streams in 1 MiB pieces
void write_schedule_xml(const Schedule& schedule, const std::filesystem::path& file);

// What a file may ask for. Far above real schedules; they keep a malformed or hostile file from
// allocating gigabytes before it is refused.
inline constexpr std::int32_t kMaxScheduleRanks = 1 << 24;  // the nodes attribute
// nodes x pieces of a file read with its payload: the verifier keeps a record per (rank, piece).
inline constexpr std::uint64_t kMaxRankPieces = std::uint64_t{1} << 24;
// Ids that ranges ("0-4095") of deps and payload lists expand to, in all; ids written one by one
// cost at least two bytes of text each, so the file size bounds them.
inline constexpr std::uint64_t kMaxListItems = std::uint64_t{1} << 25;

// Whether a reader keeps the payload (the blocks or segments lists). Only the verifier's
// data-flow proof reads it; the simulator needs the transfers, sizes and dependencies alone. A
// file read without it is not bounded by kMaxRankPieces (an Allgather of p ranks has p^2 (rank,
// block) pairs), and its payload attributes are skipped unread.
enum class Payload : std::uint8_t { read, skip };

// Throws InputError "FILE:LINE: problem" on malformed input (syntax, missing or non-integer
// attributes, duplicate ids, dependencies on unknown ids). Semantic checks are the verifier's.
// A streaming reader takes the files piccolo and PICCL write in one pass, in memory that follows
// the IR (read_schedule_xml reads regular files in pieces of 4 MiB); whatever it declines,
// errors included, goes to the DOM reader below, so the result and the message are the same.
LoadedSchedule parse_schedule_xml(std::string text, const std::string& origin,
                                  Payload payload = Payload::read);
LoadedSchedule read_schedule_xml(const std::filesystem::path& file,
                                 Payload payload = Payload::read);

// The reference reader: a pugixml DOM of the whole text. Exposed for the tests and the benchmark
// that compare the two readers.
LoadedSchedule parse_schedule_xml_dom(std::string text, const std::string& origin,
                                      Payload payload = Payload::read);

}  // namespace piccolo
