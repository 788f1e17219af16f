#include "radix_factoring.hpp"

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

namespace {

// The largest product of the primes in primes[from..] times `base` that is <= limit.
long long largest_product(const std::vector<int>& primes, std::size_t from, long long base,
                          long long limit) {
    long long best = base;
    for (std::size_t i = from; i < primes.size(); ++i)
        for (long long value = base * primes[i]; value <= limit; value *= primes[i])
            best = std::max(best, largest_product(primes, i + 1, value, limit));
    return best;
}

// The largest number <= p whose prime factors are all <= k. p/2 < the largest power of two <= p,
// and powers of two are smooth for every k >= 2, so fewer ranks fold in than take part.
Rank largest_smooth(Rank p, int k) {
    if (k > 16) {  // smooth numbers are dense: a short walk down finds one
        Rank n = p;
        while (!is_smooth(n, k)) --n;
        return n;
    }
    // Sparse (for k = 2 the gaps reach p/2): enumerate the few thousand candidates instead.
    std::vector<int> primes;
    for (int d = 2; d <= k; ++d)
        if (!is_smooth(d, d - 1)) primes.push_back(d);  // d is prime
    return static_cast<Rank>(largest_product(primes, 0, 1, p));
}

}  // namespace

RadixFactoring factor_radices(Rank p, int k) {
    RadixFactoring factoring;
    factoring.core = largest_smooth(p, k);

    // First-fit decreasing of the prime factors into as few radices <= k as it finds.
    std::vector<int> primes = prime_factors(factoring.core);
    std::sort(primes.begin(), primes.end(), std::greater<>());
    for (int prime : primes) {
        auto fits = std::find_if(factoring.radices.begin(), factoring.radices.end(),
                                 [&](int radix) { return radix * prime <= k; });
        if (fits != factoring.radices.end())
            *fits *= prime;
        else
            factoring.radices.push_back(prime);
    }
    // Larger radices first: the first rounds carry the smallest messages.
    std::sort(factoring.radices.begin(), factoring.radices.end(), std::greater<>());
    return factoring;
}

}  // namespace piccolo::detail
