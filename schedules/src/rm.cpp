// Recursive multiplying (MPICH's recursive exchange generalised): k-1 partners per round, spaced
// k^(r-1) apart. The rounds, mixed radix and fold-in rule are shared with the other exchange
// algorithms in recursive_exchange.cpp.
#include "algorithms.hpp"

namespace piccolo::detail {

Schedule generate_rm(const GenerateRequest& request) {
    return recursive_exchange(request, request.k, ExchangeOrder::multiplying);
}

}  // namespace piccolo::detail
