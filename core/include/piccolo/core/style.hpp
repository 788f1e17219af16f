#pragma once
// How an implementation synchronizes the rounds of a collective (schedules/README.md, "Styles").
// In every style a rank's next round waits for the receives that bring its data; the styles
// differ in what it waits for of its own sends:
//   mpi        until they are sent (MPI_Sendrecv / MPI_Waitall: eager sends complete locally),
//   nccl       until they are delivered (one grouped ncclSend/ncclRecv call per round),
//   pipelined  not at all (a rank forwards data as soon as it has it).

#include <cstdint>
#include <string_view>

namespace piccolo {

enum class Style : std::uint8_t { mpi, nccl, pipelined };
inline constexpr Style all_styles[] = {Style::mpi, Style::nccl, Style::pipelined};
std::string_view to_string(Style style);
Style parse_style(std::string_view name);  // throws InputError listing the styles

}  // namespace piccolo
