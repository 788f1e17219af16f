#include "piccolo/input_file.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <system_error>

#include "piccolo/error.hpp"

namespace piccolo {

std::string read_input_file(const std::filesystem::path& file, std::string_view what,
                            std::size_t max_bytes) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        throw InputError(
            fmt::format("{}: cannot open {} ({})", file.string(), what, std::strerror(errno)));
    }
    std::string text;
    constexpr std::size_t piece = std::size_t{1} << 20;
    while (in) {
        const std::size_t old_size = text.size();
        if (old_size > max_bytes) {
            throw InputError(fmt::format("{}: {} larger than {} MiB; is this the right file?",
                                         file.string(), what, max_bytes >> 20));
        }
        text.resize(old_size + piece);
        in.read(text.data() + old_size, static_cast<std::streamsize>(piece));
        text.resize(old_size + static_cast<std::size_t>(in.gcount()));
    }
    if (text.size() > max_bytes) {
        throw InputError(fmt::format("{}: {} larger than {} MiB; is this the right file?",
                                     file.string(), what, max_bytes >> 20));
    }
    if (in.bad()) throw InputError(fmt::format("{}: read error on {}", file.string(), what));
    return text;
}

bool input_file_exists(const std::filesystem::path& file) {
    std::error_code refused;
    return std::filesystem::exists(file, refused);
}

std::string excerpt(std::string_view text, std::size_t limit) {
    if (text.size() <= limit) return std::string(text);
    std::size_t cut = limit;
    // Do not split a UTF-8 sequence: back up over continuation bytes.
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    return fmt::format("{}... ({} characters)", text.substr(0, cut), text.size());
}

bool is_utf8(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        const std::size_t length = c < 0x80           ? 1
                                   : (c >> 5) == 0x6  ? 2
                                   : (c >> 4) == 0xE  ? 3
                                   : (c >> 3) == 0x1E ? 4
                                                      : 0;
        if (length == 0 || i + length > text.size()) return false;
        std::uint32_t point = length == 1 ? c : c & (0x7F >> length);
        for (std::size_t k = 1; k < length; ++k) {
            const auto next = static_cast<unsigned char>(text[i + k]);
            if ((next & 0xC0) != 0x80) return false;
            point = (point << 6) | (next & 0x3F);
        }
        constexpr std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
        if (point < smallest[length] || point > 0x10FFFF || (point >= 0xD800 && point <= 0xDFFF))
            return false;
        i += length;
    }
    return true;
}

std::string_view strip_utf8_bom(std::string_view text) {
    if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
    return text;
}

}  // namespace piccolo
