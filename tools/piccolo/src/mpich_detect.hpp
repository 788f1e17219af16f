#pragma once
// Which MPICH is installed: the release `mpichversion` (MPICH's own tool) reports.

#include <optional>
#include <string>

namespace piccolo::cli {

// "4.0.2", or nothing when mpichversion is not on PATH or prints no "MPICH Version:" line.
std::optional<std::string> installed_mpich_release();

}  // namespace piccolo::cli
