#pragma once
// Wording shared by the accuracy report's formats (accuracy_emit.cpp, accuracy_html.cpp).

#include <string>

#include "piccolo/studies/accuracy.hpp"

namespace piccolo::detail {

std::string candidate_label(const MeasuredRow& row);  // "rm k=4 (mpi)", "ring (nccl)"
// "measured on HOST (2 ranks, 1 node(s) of 2), LIBRARY, DATE; predicted on profile NAME (FILE)"
std::string run_summary(const AccuracyReport& report);
std::string ratio_text(double value);  // "0.9812", or "-" when undefined

}  // namespace piccolo::detail
