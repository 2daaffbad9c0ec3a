#pragma once
// Counts and lists as a user types them, on the command line or in the demo's input script: each
// throws io::InputError with a one-line message naming the flag (or the setting).

#include <cstdint>
#include <string>
#include <vector>

namespace app {

// "a,b,,c" -> {"a", "b", "", "c"}; a trailing comma gives a last empty item.
std::vector<std::string> splitList(const std::string& text);

// "100000", "1e6", "2.5e5": a whole number in [1, max]. Throws InputError naming `flag`.
uint64_t parseCount(const std::string& text, const std::string& flag, uint64_t max);
// A count as parseCount, or 0.
uint64_t parseCountOrZero(const std::string& text, const std::string& flag, uint64_t max);
// A comma-separated list of counts, each at most once.
std::vector<uint32_t> parseCountList(const std::string& text, const std::string& flag, uint64_t max);

// A list whose items `texts` give `values`, refused where two give the same value (it would run
// twice): the one-line error names both texts.
[[noreturn]] void refuseRepeat(const std::string& flag, const std::string& first, const std::string& again);
template <typename T>
void refuseRepeats(const std::vector<T>& values, const std::vector<std::string>& texts,
                   const std::string& flag) {
    for (size_t j = 0; j < values.size(); ++j)
        for (size_t i = 0; i < j; ++i)
            if (values[i] == values[j]) refuseRepeat(flag, texts[i], texts[j]);
}

} // namespace app
