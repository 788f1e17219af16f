#pragma once
// Random LogGP times for the closed-form tests, drawn as whole femtoseconds (the engine's clock,
// sim/engine/README.md) so that a hand-derived form holds to rounding.
#include <cstdint>
#include <random>

namespace piccolo::test {

inline double femtoseconds(std::mt19937_64& rng, double low, double high) {
    std::uniform_int_distribution<std::int64_t> fs(static_cast<std::int64_t>(low * 1e15),
                                                   static_cast<std::int64_t>(high * 1e15));
    return static_cast<double>(fs(rng)) * 1e-15;
}

}  // namespace piccolo::test
