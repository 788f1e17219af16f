// The machine YAML writer, on yaml-cpp's emitter. Numbers are written with the shortest text that
// reads back to the same double, so load(write(m)) == m exactly; optional keys are written only
// when they differ from their default.
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "detail.hpp"
#include "piccolo/topologies/machine_io.hpp"

namespace piccolo {

namespace {

std::string number(double value) {
    return detail::format_number(value);
}

std::string_view to_string(OverheadModel model) {
    return model == OverheadModel::cpu ? "cpu" : "offload";
}

void emit_parameters(YAML::Emitter& out, const LogGP& p) {
    out << YAML::Key << "L" << YAML::Value << number(p.L);
    out << YAML::Key << "o_s" << YAML::Value << number(p.o_s);
    out << YAML::Key << "o_r" << YAML::Value << number(p.o_r);
    out << YAML::Key << "g" << YAML::Value << number(p.g);
    out << YAML::Key << "G" << YAML::Value << number(p.G);
}

void emit_level(YAML::Emitter& out, const Level& level, bool last) {
    out << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << level.name;
    if (!last || level.fanout != 0) out << YAML::Key << "fanout" << YAML::Value << level.fanout;
    if (level.radix) out << YAML::Key << "radix" << YAML::Value << *level.radix;
    if (level.overhead != OverheadModel::offload)
        out << YAML::Key << "overhead" << YAML::Value << std::string(to_string(level.overhead));
    if (level.rendezvous) out << YAML::Key << "rendezvous" << YAML::Value << *level.rendezvous;
    if (level.capacity) out << YAML::Key << "capacity" << YAML::Value << number(*level.capacity);
    if (level.reclaim_per_byte != 0)
        out << YAML::Key << "reclaim_per_byte" << YAML::Value << number(level.reclaim_per_byte);
    const auto rows = level.loggp.rows();
    if (rows.size() == 1 && rows.front().bytes == 0) {
        emit_parameters(out, rows.front().params);  // the shortcut form: one constant row
    } else {
        out << YAML::Key << "loggp" << YAML::Value << YAML::BeginSeq;
        for (const LogGPRow& row : rows) {
            out << YAML::Flow << YAML::BeginMap << YAML::Key << "s" << YAML::Value
                << number(row.bytes);
            emit_parameters(out, row.params);
            out << YAML::EndMap;
        }
        out << YAML::EndSeq;
    }
    out << YAML::EndMap;
}

void emit_compute(YAML::Emitter& out, const ComputeCosts& c) {
    out << YAML::Key << "compute" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "reduce_per_byte" << YAML::Value << number(c.reduce_per_byte);
    out << YAML::Key << "permute_latency" << YAML::Value << number(c.permute_latency);
    out << YAML::Key << "permute_per_byte" << YAML::Value << number(c.permute_per_byte);
    out << YAML::Key << "copy_per_byte" << YAML::Value << number(c.copy_per_byte);
    out << YAML::EndMap;
}

void emit_placement(YAML::Emitter& out, const Placement& placement) {
    out << YAML::Key << "placement" << YAML::Value;
    switch (placement.kind) {
        case PlacementKind::block:
            out << "block";
            break;
        case PlacementKind::round_robin:
            out << "round-robin";
            break;
        case PlacementKind::explicit_list:
            out << YAML::Flow << YAML::BeginMap << YAML::Key << "list" << YAML::Value << YAML::Flow
                << placement.node_of_rank << YAML::EndMap;
            break;
    }
}

}  // namespace

std::string machine_to_yaml(const Machine& machine) {
    YAML::Emitter out;
    out << YAML::Comment("piccolo machine description (schema: configs/README.md).")
        << YAML::Newline
        << YAML::Comment("Units: seconds, bytes, bytes per second, seconds per byte.");
    out << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << machine.name;
    out << YAML::Key << "description" << YAML::Value << YAML::DoubleQuoted << machine.description;
    if (machine.style)
        out << YAML::Key << "style" << YAML::Value << std::string(to_string(*machine.style));
    if (machine.sharing == Sharing::fair) out << YAML::Key << "sharing" << YAML::Value << "fair";
    if (machine.device_radix)
        out << YAML::Key << "device_radix" << YAML::Value << *machine.device_radix;
    out << YAML::Key << "levels" << YAML::Value << YAML::BeginSeq;
    for (std::size_t l = 0; l < machine.levels.size(); ++l)
        emit_level(out, machine.levels[l], l + 1 == machine.levels.size());
    out << YAML::EndSeq;
    emit_compute(out, machine.compute);
    emit_placement(out, machine.placement);
    out << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

}  // namespace piccolo
