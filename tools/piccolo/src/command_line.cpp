#include "command_line.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>

namespace piccolo::cli {

namespace {

// Quoted for a POSIX shell unless every character is plainly safe.
std::string shell_word(const std::string& word) {
    const bool plain = !word.empty() && word.find_first_not_of(
                                            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                            "0123456789-_=.,:/+@%") == std::string::npos;
    if (plain) return word;
    std::string out = "'";
    for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

}  // namespace

std::string this_command_line() {
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    const std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string out;
    std::size_t start = 0;
    for (bool first = true; start < raw.size(); first = false) {
        std::size_t end = raw.find('\0', start);
        if (end == std::string::npos) end = raw.size();
        std::string word = raw.substr(start, end - start);
        if (first) word = std::filesystem::path(word).filename().string();
        if (!out.empty()) out += ' ';
        out += shell_word(word);
        start = end + 1;
    }
    return out;
}

}  // namespace piccolo::cli
