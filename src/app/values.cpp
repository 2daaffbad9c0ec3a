#include "app/values.h"

#include "io/output.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace app {

using io::InputError;

std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) out.push_back(item);
    if (!text.empty() && text.back() == ',') out.push_back("");
    return out;
}

uint64_t parseCount(const std::string& text, const std::string& flag, uint64_t max) {
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(v))
        throw InputError(flag + ": '" + text + "' is not a number");
    if (v != std::floor(v)) throw InputError(flag + ": '" + text + "' is not a whole number");
    if (v < 1) throw InputError(flag + ": must be at least 1 (got '" + text + "')");
    if (v > double(max))
        throw InputError(flag + ": '" + text + "' is too large (at most " + std::to_string(max) + ")");
    return uint64_t(v);
}

uint64_t parseCountOrZero(const std::string& text, const std::string& flag, uint64_t max) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (!text.empty() && end == text.c_str() + text.size()) {
        if (v == 0) return 0; // "0", "0.0", "0e0"
        if (v < 0) throw InputError(flag + ": must be 0 or more (got '" + text + "')");
    }
    return parseCount(text, flag, max);
}

std::vector<uint32_t> parseCountList(const std::string& text, const std::string& flag, uint64_t max) {
    const std::vector<std::string> items = splitList(text);
    std::vector<uint32_t> out;
    for (const std::string& item : items) out.push_back(uint32_t(parseCount(item, flag, max)));
    if (out.empty()) throw InputError(flag + ": the list is empty");
    refuseRepeats(out, items, flag);
    return out;
}

void refuseRepeat(const std::string& flag, const std::string& first, const std::string& again) {
    if (first == again) throw InputError(flag + ": '" + first + "' is listed twice");
    throw InputError(flag + ": '" + again + "' is '" + first + "' again");
}

} // namespace app
