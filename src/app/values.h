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
// A comma-separated list of counts.
std::vector<uint32_t> parseCountList(const std::string& text, const std::string& flag, uint64_t max);

} // namespace app
