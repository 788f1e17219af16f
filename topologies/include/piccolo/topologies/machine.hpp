#pragma once
// The machine model: a tree of levels (device -> node -> group -> system), one LogGP table per
// level, a radix per unit boundary, compute costs and the placement of ranks on devices.
// Pure data and arithmetic: no file formats here (see machine_io.hpp).

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "piccolo/core/style.hpp"

namespace piccolo {

// Limits on what a machine description may ask for: far above real machines (a few levels, tens
// of lanes), they keep a malformed file from making the simulator allocate gigabytes.
inline constexpr int kMaxLevels = 32;
inline constexpr int kMaxRadix = 4096;     // device_radix, levels[].radix
inline constexpr int kMaxRanks = 1 << 24;  // nodes x ranks per node of one run

// LogGP parameters in seconds (L, o_s, o_r, g) and seconds per byte (G).
struct LogGP {
    double L = 0, o_s = 0, o_r = 0, g = 0, G = 0;
    friend bool operator==(const LogGP&, const LogGP&) = default;
};

struct LogGPRow {
    double bytes = 0;  // message size s the row was measured at
    LogGP params;
    friend bool operator==(const LogGPRow&, const LogGPRow&) = default;
};

// Rows over increasing message size; linear interpolation between rows, flat outside them.
class LogGPTable {
  public:
    LogGPTable() = default;
    explicit LogGPTable(std::vector<LogGPRow> rows);  // throws InputError if unsorted/negative/NaN
    [[nodiscard]] LogGP at(double bytes) const;
    [[nodiscard]] std::span<const LogGPRow> rows() const { return rows_; }
    friend bool operator==(const LogGPTable&, const LogGPTable&) = default;

  private:
    std::vector<LogGPRow> rows_;
};

// Who carries the overheads of the messages a level prices.
enum class OverheadModel : std::uint8_t {
    // The device's send and receive slots (device_radix of each), independent of each other: a
    // GPU's copy engines or an offloading NIC send and receive at once.
    offload,
    // Classic LogGP: one processor per rank carries every o_s, o_r and compute task in turn;
    // consecutive injections, and consecutive receptions, of a rank are each spaced by g.
    cpu,
};

// How transfers share the lanes of a node or group (its radix) and a unit's internal capacity.
enum class Sharing : std::uint8_t {
    fifo,  // whole messages hold lanes one after another, first come first served
    fair,  // concurrent transfers share the capacity max-min fairly (progressive filling)
};

// One level above the device. levels[0] is the node: its table prices messages between two
// devices of one node, its radix is the node's NIC ports (node_radix). The last level is the
// whole system (fanout 0 = unbounded).
struct Level {
    std::string name;          // "node", "group", "system", ...
    int fanout = 0;            // children per unit: devices per node, nodes per group, ...; 0 = any
    std::optional<int> radix;  // transfers that may cross this unit's boundary at once, per
                               // direction; empty = unlimited
    LogGPTable loggp;          // messages whose lowest common level is this one
    // The rest applies to the messages this level prices, or to each unit of the level.
    OverheadModel overhead = OverheadModel::offload;
    // Messages of at least this many bytes are sent by rendezvous: the send completes only once
    // the receiver has taken the data (eager below: once the last byte has left). Empty: eager.
    std::optional<std::uint64_t> rendezvous{};
    // Bytes per second shared by all transfers inside one unit (a node's memory bus, a group's
    // switch); needs Sharing::fair. Empty: unlimited.
    std::optional<double> capacity{};
    // Seconds per byte a reduction pays on top of compute.reduce_per_byte when it writes into
    // data its rank has just sent over this level: the receiver's core read those bytes, so the
    // writer must take their cache lines back first (measured by the profiler's reclaim probe;
    // 0 where no core reads the sender's memory, as a NIC's DMA does not keep the lines).
    double reclaim_per_byte = 0;
    friend bool operator==(const Level&, const Level&) = default;
};

struct ComputeCosts {
    double reduce_per_byte = 0;   // gamma, s/B of reduced output
    double permute_latency = 0;   // s per permute kernel launch
    double permute_per_byte = 0;  // s/B
    double copy_per_byte = 0;     // s/B
    friend bool operator==(const ComputeCosts&, const ComputeCosts&) = default;
};

enum class PlacementKind { block, round_robin, explicit_list };

struct Placement {
    PlacementKind kind = PlacementKind::block;
    std::vector<int> node_of_rank;  // explicit_list only: node index of each rank
    friend bool operator==(const Placement&, const Placement&) = default;
};

struct Machine {
    std::string name;
    std::string description;
    std::optional<int> device_radix;  // send slots and receive slots per device; empty = unlimited
    std::vector<Level> levels;        // innermost first: node, groups, system; one level: the
                                      // node is the whole system
    ComputeCosts compute;
    Placement placement;
    Sharing sharing = Sharing::fifo;
    // The style collectives run in on this machine (NCCL on GPUs, MPI on CPUs); empty: not said.
    std::optional<Style> style;

    [[nodiscard]] int devices_per_node() const { return levels.front().fanout; }
    friend bool operator==(const Machine&, const Machine&) = default;
};

// Throws InputError (naming machine and field) unless: at least one level and at most kMaxLevels
// (node ... system; a single level is one node whose table prices every message), devices per
// node >= 1, every level but the last has fanout >= 1 (the last, when not the node: 0 = any),
// every radix in 1..kMaxRadix, every table valid, compute costs finite and >= 0, explicit
// placement nodes >= 0, rendezvous >= 1, capacities finite and > 0 and only with fair sharing,
// reclaim costs finite and >= 0.
// The loaders call it; code that builds a Machine by hand should too.
void validate_machine(const Machine& machine);

// Does a level price reclaim (Level::reclaim_per_byte > 0)? A replay then needs the schedule's
// payload, which says what each reduction writes; without payload no reduction pays it.
bool prices_reclaim(const Machine& machine);

// Where each rank of one run sits: nodes x ppn ranks placed by the machine's placement rule.
class RankLayout {
  public:
    RankLayout(const Machine& machine, int nodes, int ranks_per_node);  // throws InputError

    [[nodiscard]] int ranks() const { return static_cast<int>(node_.size()); }
    [[nodiscard]] int nodes() const { return nodes_; }
    [[nodiscard]] int node_of(int rank) const { return node_[rank]; }
    // Unit index of `rank` at level l (0 = node, 1 = the node's parent, ...).
    [[nodiscard]] int unit_of(int rank, std::size_t level) const;
    // Lowest level at which two distinct ranks share a unit: 0 = same node, 1 = same group, ...
    [[nodiscard]] std::size_t common_level(int a, int b) const;
    [[nodiscard]] std::size_t level_count() const { return level_fanout_.size(); }

  private:
    std::vector<int> node_;          // rank -> node
    std::vector<int> level_fanout_;  // copy of Machine::levels[l].fanout
    int nodes_ = 0;
};

}  // namespace piccolo
