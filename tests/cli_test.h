#pragma once
// Shared by the command-line tests: parsing an argument list as the binary would see it.

#include "app/cli/cli.h"

#include <string>
#include <vector>

namespace test {

inline app::CommandLine parse(std::vector<const char*> args) {
    args.insert(args.begin(), "vkboids");
    return app::parseCommandLine(int(args.size()), args.data());
}

// The error message that parsing `args` throws, or "" where it parses.
inline std::string parseError(std::vector<const char*> args) {
    try {
        parse(args);
    } catch (const io::InputError& e) {
        return e.what();
    }
    return "";
}

} // namespace test
