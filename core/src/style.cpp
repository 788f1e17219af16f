#include "piccolo/core/style.hpp"

#include <fmt/format.h>

#include "piccolo/core/error.hpp"
#include "piccolo/core/text.hpp"

namespace piccolo {

std::string_view to_string(Style style) {
    switch (style) {
        case Style::mpi:
            return "mpi";
        case Style::nccl:
            return "nccl";
        case Style::pipelined:
            return "pipelined";
    }
    return "?";
}

Style parse_style(std::string_view name) {
    for (Style style : all_styles)
        if (name == to_string(style)) return style;
    throw InputError(
        fmt::format("unknown style '{}' (known: mpi, nccl, pipelined)", excerpt(name)));
}

}  // namespace piccolo
