#pragma once
// What a measurement report states about when it was taken (the profilers and the executor).

#include <string>

namespace piccolo::profiler {

// The current time in UTC, ISO 8601 to the second: "2026-11-23T20:55:00Z".
std::string utc_now();

}  // namespace piccolo::profiler
