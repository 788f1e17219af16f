// Permuted recursive multiplying: k-1 partners spaced p/k^r apart, data received contiguously, one
// permute at the end. The rounds, mixed radix and fold-in rule are shared with the other exchange
// algorithms in recursive_exchange.cpp.
#include "algorithms.hpp"

namespace piccolo::detail {

Schedule generate_prm(const GenerateRequest& request) {
    return recursive_exchange(request, request.k, ExchangeOrder::permuted);
}

}  // namespace piccolo::detail
