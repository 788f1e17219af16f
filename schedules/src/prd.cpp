// Distance-halving recursive doubling: the permuted variant of rd (partners p/2, p/4, ... apart),
// ending with a permute. The rounds, mixed radix and fold-in rule are shared with the other
// exchange algorithms in recursive_exchange.cpp.
#include "algorithms.hpp"

namespace piccolo::detail {

Schedule generate_prd(const GenerateRequest& request) {
    return recursive_exchange(request, 2, ExchangeOrder::permuted);
}

}  // namespace piccolo::detail
