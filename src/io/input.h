#pragma once
// Input files read with bounded memory: only regular files, and no more of them than their format
// allows. A device that never ends (/dev/zero), a FIFO that nobody writes or a file far larger than
// it may be is refused in one line, not read until memory runs out or waited on for ever.

#include <cstdint>
#include <string>

namespace io {

// The whole of the regular file `path`. Throws InputError naming the path where it is anything else
// (a directory, a device, a FIFO, a socket), cannot be read, or holds more than `maxBytes` bytes; `what`
// names the kind of file in that message ("an input script").
std::string readFile(const std::string& path, uint64_t maxBytes, const std::string& what);

} // namespace io
