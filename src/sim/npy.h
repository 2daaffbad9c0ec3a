#pragma once
// State files: NumPy .npy, float32 little-endian, shape (N, 6), C order.

#include "sim/state.h"

#include <string>
#include <utility>
#include <vector>

namespace sim {

// Reads and checks a state file: magic, version, header, dtype, order, shape, size, finite values.
// Positions are not wrapped here. Throws InputError with a one-line message naming the problem.
State loadNpy(const std::string& path);

// Writes to a temporary file beside `path` and renames it into place, so a failed write never
// leaves a partial file or destroys an existing one. Throws InputError.
void saveNpy(const std::string& path, const State& state);

// Writes `bytes` to a temporary file beside `path`, then renames it into place. Throws InputError
// naming the path when anything fails; the temporary file is removed.
void writeFileAtomically(const std::string& path, const std::string& bytes);

// The same for several files that belong together (a CSV and its JSON): all are written to
// temporary files first, and only then renamed into place.
void writeFilesAtomically(const std::vector<std::pair<std::string, std::string>>& files);

// Throws InputError unless a file can be created beside `path` and `path` is no directory (checked
// before long runs).
void checkWritable(const std::string& path);

// The bytes of an .npy file for `state` (header and data), as saveNpy writes them.
std::string encodeNpy(const State& state);

// Parses .npy bytes; `name` is used in error messages.
State decodeNpy(const std::string& bytes, const std::string& name);

} // namespace sim
