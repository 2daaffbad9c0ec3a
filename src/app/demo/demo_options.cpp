#include "app/demo/demo_options.h"

#include "io/output.h"

#include <algorithm>

namespace app {

void parseWindowSize(const std::string& text, int& width, int& height) {
    const std::string problem =
        "--window: '" + text + "' must be WIDTHxHEIGHT, at least 800x600 (e.g. 1280x800)";
    const size_t x = text.find('x');
    const auto isNumber = [](const std::string& t) {
        return !t.empty() && t.size() <= 5 &&
               std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    if (x == std::string::npos || !isNumber(text.substr(0, x)) || !isNumber(text.substr(x + 1)))
        throw io::InputError(problem);
    const int w = std::stoi(text.substr(0, x)), h = std::stoi(text.substr(x + 1));
    if (w < minWindowWidth || h < minWindowHeight) throw io::InputError(problem);
    if (w > maxWindowSide || h > maxWindowSide)
        throw io::InputError("--window: '" + text + "' is larger than a window can be (at most " +
                             std::to_string(maxWindowSide) + "x" + std::to_string(maxWindowSide) + ")");
    width = w;
    height = h;
}

} // namespace app
