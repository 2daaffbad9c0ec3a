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

// Writes the state with writeFileAtomically. Throws InputError.
void saveNpy(const std::string& path, const State& state);

// The bytes of an .npy file for `state` (header and data), as saveNpy writes them.
std::string encodeNpy(const State& state);

// Parses .npy bytes; `name` is used in error messages.
State decodeNpy(const std::string& bytes, const std::string& name);

} // namespace sim
