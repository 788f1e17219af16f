#include "style_option.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "piccolo/core/error.hpp"

namespace piccolo::cli {

void add_style_option(CLI::App& command, std::string& value, std::string_view default_text) {
    command.add_option(
        "--style", value,
        fmt::format("how rounds synchronize: mpi (a rank's next round waits for its sends to be "
                    "sent, as MPI_Sendrecv/Waitall), nccl (to be delivered, as grouped NCCL "
                    "calls) or pipelined (a rank forwards data as soon as it has it); default: {}",
                    default_text));
}

Style parse_style_option(std::string_view value) {
    try {
        return parse_style(value);
    } catch (const InputError& e) {
        throw InputError(fmt::format("--style: {}", e.what()));
    }
}

}  // namespace piccolo::cli
