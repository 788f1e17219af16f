#pragma once
// Whole input files read with a size cap: a file named by the user may be /dev/zero, a FIFO or a
// multi-gigabyte mistake, and the readers must fail with one line rather than run out of memory.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace piccolo {

// Caps per kind of input; each is far above any real file of that kind.
inline constexpr std::size_t kMaxMachineFileBytes = std::size_t{64} << 20;  // YAML, PICCL, CSV
inline constexpr std::size_t kMaxRawProfileBytes = std::size_t{256} << 20;  // profiler raw CSV
inline constexpr std::size_t kMaxScheduleFileBytes = std::size_t{4} << 30;  // schedule XML

// The whole file, read in pieces (so devices and pipes work too). Throws InputError
// "FILE: cannot open WHAT (reason)" or "FILE: WHAT larger than N MiB (...)".
std::string read_input_file(const std::filesystem::path& file, std::string_view what,
                            std::size_t max_bytes);

// Whether a file exists at `file`. Never throws: a name the system refuses (too long, bad
// bytes) is simply not there, so searches through candidate folders can go on.
bool input_file_exists(const std::filesystem::path& file);

}  // namespace piccolo
