// Runs `mpichversion` (shipped with MPICH; Debian's package mpich) and reads its
// "MPICH Version:    4.0.2" line, so that --emit mpich-json writes for the MPICH at hand.
#include "mpich_detect.hpp"

#include <cstdio>
#include <memory>
#include <string_view>

namespace piccolo::cli {

std::optional<std::string> installed_mpich_release() {
    // `command -v` first: a missing program must not print "not found" on the user's terminal.
    const std::unique_ptr<FILE, int (*)(FILE*)> pipe(
        popen("command -v mpichversion >/dev/null 2>&1 && mpichversion 2>/dev/null", "r"), pclose);
    if (!pipe) return std::nullopt;
    std::string text;
    char buffer[512];
    while (std::fgets(buffer, sizeof buffer, pipe.get()) != nullptr) text += buffer;
    constexpr std::string_view key = "MPICH Version:";
    const std::size_t at = text.find(key);
    if (at == std::string::npos) return std::nullopt;
    std::size_t begin = at + key.size();
    while (begin < text.size() && (text[begin] == ' ' || text[begin] == '\t')) ++begin;
    std::size_t end = begin;
    while (end < text.size() && text[end] != '\n' && text[end] != ' ' && text[end] != '\t') ++end;
    if (end == begin) return std::nullopt;
    return text.substr(begin, end - begin);
}

}  // namespace piccolo::cli
