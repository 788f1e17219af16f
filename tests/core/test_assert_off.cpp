// PICCOLO_ASSERT compiled out (the release preset: NDEBUG, no PICCOLO_ASSERTIONS): the condition
// is compiled but never runs, so even a false one passes.
#include <doctest/doctest.h>

#ifndef NDEBUG
#define NDEBUG 1
#endif
#undef PICCOLO_ENABLE_ASSERTS
#include "piccolo/core/assert.hpp"

TEST_CASE("PICCOLO_ASSERT is compiled out in release builds without PICCOLO_ASSERTIONS") {
    static_assert(PICCOLO_ASSERTS_ON == 0);
    int evaluated = 0;
    const auto evaluate = [&evaluated] { return ++evaluated == 1; };
    PICCOLO_ASSERT(evaluate());
    PICCOLO_ASSERT(evaluated == 42);
    CHECK(evaluated == 0);
}
