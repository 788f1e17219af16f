#pragma once
// MPICH's built-in selection for every collective, per release series (JSON text: its
// generic.json; mpich_defaults.cpp says where it comes from).

#include <string_view>

namespace piccolo::mpich {

std::string_view defaults_4_0();  // series 4.0
std::string_view defaults_4_1();  // series 4.1, 4.2 and 4.3 (identical)

}  // namespace piccolo::mpich
