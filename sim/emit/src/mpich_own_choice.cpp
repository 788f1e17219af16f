// MPIR_Csel_search (MPICH src/mpi/coll/src/csel.c, v4.0.2 and v4.1.2) takes at each level of the
// tree the first key, in file order, whose condition holds for the call, until it reaches an
// "algorithm=" leaf. The facts of the call are those piccolo's tuning files are written for:
// an intra-communicator, a built-in commutative operation (MPI_SUM), MPI_DOUBLE elements for
// Allreduce (as piccolo-run-mpi times it; "count<pow2" compares the element count with the
// largest power of 2 <= comm size) and bytes for Allgather, whose total_msg_size is the
// per-rank contribution x comm size.
#include "mpich_own_choice.hpp"

#include <nlohmann/json.hpp>
#include <optional>

namespace piccolo::mpich {

namespace {

using Json = nlohmann::ordered_json;

struct Facts {
    std::uint64_t comm_size;
    std::uint64_t avg_msg_size;
    std::uint64_t total_msg_size;
    std::uint64_t count;
    std::uint64_t pof2;  // the largest power of 2 <= comm size
};

std::optional<std::uint64_t> number(std::string_view text) {
    std::uint64_t value = 0;
    if (text.empty()) return std::nullopt;
    for (char c : text) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return value;
}

bool compare(std::uint64_t have, std::string_view op, std::string_view value, const Facts& f) {
    if (value == "any") return true;
    if (value == "pow2") {
        if (op == "=") return (have & (have - 1)) == 0;
        return op == "<" && have < f.pof2;  // "count<pow2"
    }
    const std::optional<std::uint64_t> n = number(value);
    if (!n) return false;
    return op == "<=" ? have <= *n : op == "<" ? have < *n : have == *n;
}

// Does the key's condition hold for the call? Keys piccolo's calls do not meet (inter
// communicators, non-commutative or user operations) and unknown ones do not.
bool holds(const std::string& key, const Facts& f) {
    const std::size_t at = key.find_first_of("<=");
    if (at == std::string::npos) return false;
    const std::string_view text = key;
    const std::string_view name = text.substr(0, at);
    const std::string_view op = text.substr(at, text.compare(at, 2, "<=") == 0 ? 2 : 1);
    const std::string_view value = text.substr(at + op.size());
    if (name == "comm_type") return value == "intra";
    if (name == "is_commutative" || name == "is_op_built_in") return value == "yes";
    if (name == "comm_size") return compare(f.comm_size, op, value, f);
    if (name == "avg_msg_size") return compare(f.avg_msg_size, op, value, f);
    if (name == "total_msg_size") return compare(f.total_msg_size, op, value, f);
    if (name == "count") return compare(f.count, op, value, f);
    return value == "any";
}

}  // namespace

std::string own_algorithm(const Json& root, const Call& call) {
    if (call.collective != Collective::allgather && call.collective != Collective::allreduce)
        return {};
    const std::string collective = call.collective == Collective::allgather ? "allgather"
                                                                            : "allreduce";
    const auto entry = root.find("collective=" + collective);
    if (entry == root.end()) return {};
    const auto p = static_cast<std::uint64_t>(call.comm_size);
    std::uint64_t pof2 = 1;
    while (pof2 * 2 <= p) pof2 *= 2;
    const bool gather = call.collective == Collective::allgather;
    const Facts facts{p, call.bytes, gather ? call.bytes * p : call.bytes,
                      gather ? call.bytes : call.bytes / 8, pof2};
    const Json* node = &*entry;
    while (node->is_object() && !node->empty()) {
        const Json* next = nullptr;
        for (const auto& [key, child] : node->items()) {
            if (key.starts_with("algorithm=")) return key.substr(std::string("algorithm=").size());
            if (holds(key, facts)) {
                next = &child;
                break;
            }
        }
        if (!next) return {};
        node = next;
    }
    return {};
}

}  // namespace piccolo::mpich
