#include "radix_plan.hpp"

#include <algorithm>
#include <functional>

namespace piccolo::detail {

namespace {

std::vector<int> prime_factors(Rank n) {
    std::vector<int> factors;
    for (int d = 2; static_cast<long long>(d) * d <= n; ++d)
        while (n % d == 0) {
            factors.push_back(d);
            n /= d;
        }
    if (n > 1) factors.push_back(n);
    return factors;
}

}  // namespace

bool is_smooth(Rank n, int k) {
    for (int d = 2; d <= k && n > 1; ++d)
        while (n % d == 0) n /= d;
    return n == 1;
}

RadixPlan plan_radices(Rank p, int k) {
    RadixPlan plan;
    plan.core = p;
    // p/2 < largest power of two <= p, and powers of two are smooth for every k >= 2, so the
    // search ends within p/2 steps and fewer ranks fold in than take part.
    while (!is_smooth(plan.core, k)) --plan.core;

    // First-fit decreasing of the prime factors into as few radices <= k as it finds.
    std::vector<int> primes = prime_factors(plan.core);
    std::sort(primes.begin(), primes.end(), std::greater<>());
    for (int prime : primes) {
        auto fits = std::find_if(plan.radices.begin(), plan.radices.end(),
                                 [&](int radix) { return radix * prime <= k; });
        if (fits != plan.radices.end())
            *fits *= prime;
        else
            plan.radices.push_back(prime);
    }
    // Larger radices first: the first rounds carry the smallest messages.
    std::sort(plan.radices.begin(), plan.radices.end(), std::greater<>());
    return plan;
}

}  // namespace piccolo::detail
