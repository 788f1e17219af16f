// Recursive doubling: log2 p rounds, partner distance doubling each round; p that is not a power of
// two folds its extra ranks in. The rounds, mixed radix and fold-in rule are shared with the other
// exchange algorithms in recursive_exchange.cpp.
#include "algorithms.hpp"

namespace piccolo::detail {

Schedule generate_rd(const GenerateRequest& request) {
    return recursive_exchange(request, 2, ExchangeOrder::multiplying);
}

}  // namespace piccolo::detail
