// PICCOLO_ASSERT where checks are on (as in the debug and asan presets): the condition runs.
#include <doctest/doctest.h>

#ifndef PICCOLO_ENABLE_ASSERTS
#define PICCOLO_ENABLE_ASSERTS 1
#endif
#include "piccolo/core/assert.hpp"

TEST_CASE("PICCOLO_ASSERT evaluates its condition where checks are on") {
    static_assert(PICCOLO_ASSERTS_ON == 1);
    int evaluated = 0;
    const auto evaluate = [&evaluated] { return ++evaluated == 1; };
    PICCOLO_ASSERT(evaluate());
    PICCOLO_ASSERT(evaluated == 1);
    CHECK(evaluated == 1);
}
