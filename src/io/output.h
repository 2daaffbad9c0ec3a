#pragma once
// Outputs that never leave a partial file or damage what a path names, and the error for bad input.

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace io {

// Bad input from the user (flags, files, sizes): reported as one line with exit code 2.
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Writes `bytes` to `path` without leaving a partial regular file or destroying what `path` names. A
// regular file (or a new one) gets a temporary file beside it, renamed into place, with the old file's
// permissions (one that may not be written is refused); a symbolic link is
// followed to the end of its chain, and that file replaced; a device or FIFO that exists is written
// into (a FIFO nobody reads is an error, not a wait). Throws InputError naming the path.
void writeFileAtomically(const std::string& path, const std::string& bytes);

// The same for several files that belong together (a CSV and its JSON): all temporary files are
// written first, then devices and FIFOs, and only then are the temporary files renamed into place.
void writeFilesAtomically(const std::vector<std::pair<std::string, std::string>>& files);

// Throws InputError unless `path` can be written as above (checked before long runs): not empty, no
// directory, a file can be created beside the end of its links, a device opens for writing. A FIFO is
// only checked for permission: opening and closing it would end the input of a waiting reader.
void checkWritable(const std::string& path);

// Throws InputError when two regular files among `paths` are one file (by links or names): the later
// write would replace the earlier. Devices and FIFOs may be named more than once.
void checkDistinctOutputs(const std::vector<std::string>& paths);

// checkWritable, and the name must end in `extension` (".npy", ".csv", ...; any case) unless `path`
// is a device or FIFO, so that `--save-state out.csv` is refused before any work.
void checkOutputPath(const std::string& path, const char* extension);

// A file the user did not name, written beside one they did (a capture's JSON summary beside its
// CSV): `named` with its extension replaced by `extension`. Empty where `named` is a device or pipe:
// nothing the user did not name is created beside one (`--capture /dev/null` writes no
// /dev/null.json).
std::string besidePath(const std::string& named, const char* extension);

// checkWritable for such a file, `path`, written beside `named`: only a new or regular file, which
// is replaced. A link, device, pipe or directory there is refused, since only a path the user gave
// is followed or written into.
void checkBesideWritable(const std::string& path, const std::string& named);

} // namespace io
