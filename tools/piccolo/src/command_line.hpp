#pragma once
// The command line this process was started with, for reports that say how they were made.

#include <string>

namespace piccolo::cli {

// "piccolo select --machine delta ...": /proc/self/cmdline with the program's directory dropped
// and arguments shell-quoted where needed; "" where /proc is not there.
std::string this_command_line();

}  // namespace piccolo::cli
