#include "piccolo/core/input_file.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <system_error>

#include "piccolo/core/error.hpp"

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

}  // namespace piccolo
