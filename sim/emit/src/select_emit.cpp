// Emitter names and dispatch; each format lives in its own emit_*.cpp.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <array>
#include <string_view>
#include <vector>
#include <utility>

#include "piccolo/core/error.hpp"
#include "piccolo/emit/select_emit.hpp"

namespace piccolo {

namespace {

constexpr std::array<std::pair<EmitKind, std::string_view>, 7> kinds{{
    {EmitKind::table, "table"},
    {EmitKind::csv, "csv"},
    {EmitKind::json, "json"},
    {EmitKind::yaml, "yaml"},
    {EmitKind::mpich_json, "mpich-json"},
    {EmitKind::openmpi_rules, "openmpi-rules"},
    {EmitKind::piccl_env, "piccl-env"},
}};

}  // namespace

std::vector<std::string_view> emit_kind_names() {
    std::vector<std::string_view> names;
    for (const auto& [kind, name] : kinds) names.push_back(name);
    return names;
}

EmitKind parse_emit_kind(std::string_view name) {
    for (const auto& [kind, known] : kinds)
        if (known == name) return kind;
    throw InputError(fmt::format("unknown output kind '{}' (known: {})", name,
                                 fmt::join(emit_kind_names(), ", ")));
}

std::string_view to_string(EmitKind kind) {
    for (const auto& [known, name] : kinds)
        if (known == kind) return name;
    return "?";
}

void check_tuned_collectives(EmitKind kind, std::span<const Collective> collectives) {
    // mpich-json and openmpi-rules write every collective piccolo selects.
    if (kind != EmitKind::piccl_env) return;
    std::vector<std::string_view> others;
    for (Collective c : collectives)
        if (c != Collective::allgather && c != Collective::allreduce)
            others.push_back(to_string(c));
    if (others.empty()) return;
    // Rules for the other collectives are not written yet: a file without them would be taken
    // for a complete one, so the emitter refuses instead of leaving their rows out.
    throw InputError(fmt::format(
        "--emit {} with -c {}: {} writes allgather and allreduce only; leave {} out of -c, or "
        "write the selection with --format table, csv, json or yaml",
        to_string(kind), fmt::join(others, ","), to_string(kind), fmt::join(others, ",")));
}

Emitted emit(EmitKind kind, const SelectResult& result, const EmitOptions& options) {
    switch (kind) {
        case EmitKind::table:
            return {emit_table(result), {}};
        case EmitKind::csv:
            return {emit_csv(result), {}};
        case EmitKind::json:
            return {emit_json(result), {}};
        case EmitKind::yaml:
            return {emit_yaml(result), {}};
        case EmitKind::mpich_json:
            return emit_mpich_json(result, options);
        case EmitKind::openmpi_rules:
            return emit_openmpi_rules(result);
        case EmitKind::piccl_env:
            return emit_piccl_env(result, options);
    }
    return {};
}

}  // namespace piccolo
