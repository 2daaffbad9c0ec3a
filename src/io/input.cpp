#include "io/input.h"

#include "io/output.h"
#include "io/platform.h"

namespace io {

std::string readFile(const std::string& path, uint64_t maxBytes, const std::string& what) {
    os::FileStart file = os::readFileStart(path, maxBytes);
    if (file.size > maxBytes)
        throw InputError("cannot read '" + path + "': it holds more than " + std::to_string(maxBytes) +
                         " bytes, the most " + what + " may have");
    return std::move(file.bytes);
}

} // namespace io
