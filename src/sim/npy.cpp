#include "sim/npy.h"

#include "sim/params.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace sim {
namespace {

const char magic[] = "\x93NUMPY";

[[noreturn]] void fail(const std::string& name, const std::string& what) {
    throw InputError(name + ": " + what);
}

// A minimal reader for the Python literal dict of an .npy header.
struct HeaderParser {
    const std::string& s;
    const std::string& name;
    size_t at = 0;

    void skipSpace() {
        while (at < s.size() && (s[at] == ' ' || s[at] == '\t' || s[at] == '\n')) ++at;
    }
    bool accept(char c) {
        skipSpace();
        if (at < s.size() && s[at] == c) {
            ++at;
            return true;
        }
        return false;
    }
    void expect(char c) {
        if (!accept(c)) fail(name, std::string("malformed .npy header (expected '") + c + "')");
    }
    std::string string() {
        skipSpace();
        if (at >= s.size() || (s[at] != '\'' && s[at] != '"'))
            fail(name, "malformed .npy header (expected a string)");
        const char quote = s[at++];
        const size_t end = s.find(quote, at);
        if (end == std::string::npos) fail(name, "malformed .npy header (unterminated string)");
        std::string out = s.substr(at, end - at);
        at = end + 1;
        return out;
    }
    bool boolean() {
        skipSpace();
        if (s.compare(at, 4, "True") == 0) return at += 4, true;
        if (s.compare(at, 5, "False") == 0) return at += 5, false;
        fail(name, "malformed .npy header (expected True or False)");
    }
    std::vector<uint64_t> tuple() {
        expect('(');
        std::vector<uint64_t> dims;
        while (!accept(')')) {
            skipSpace();
            if (at >= s.size() || !std::isdigit(uint8_t(s[at])))
                fail(name, "malformed .npy header (bad shape)");
            uint64_t v = 0;
            while (at < s.size() && std::isdigit(uint8_t(s[at]))) {
                v = v * 10 + uint64_t(s[at++] - '0');
                if (v > (1ull << 40)) fail(name, "shape is too large");
            }
            dims.push_back(v);
            if (!accept(',')) {
                expect(')');
                break;
            }
        }
        return dims;
    }
};

std::string shapeText(const std::vector<uint64_t>& dims) {
    std::string out = "(";
    for (size_t i = 0; i < dims.size(); ++i) out += (i ? ", " : "") + std::to_string(dims[i]);
    return out + (dims.size() == 1 ? ",)" : ")");
}

// Where a file is written before it is renamed into place.
std::string temporaryPath(const std::string& path) {
    return path + ".tmp" + std::to_string(getpid());
}

[[noreturn]] void cannotWrite(const std::string& path, const std::string& why) {
    throw InputError("cannot write '" + path + "': " + why);
}

// A regular file, old or new, is replaced by renaming a temporary file over it. Anything else that
// exists (a device, a FIFO) is written into instead: renaming over it would destroy it.
struct Output {
    std::string file; // what is opened or renamed over: symbolic links followed for a replacement
    bool direct = false;
    bool fifo = false;
};

// The end of a chain of symbolic links, which need not exist yet: renaming over a link itself would
// turn it into a regular file.
std::string followLinks(const std::string& path) {
    std::filesystem::path file = path;
    for (int hops = 0;; ++hops) {
        std::error_code error;
        if (std::filesystem::symlink_status(file, error).type() != std::filesystem::file_type::symlink)
            return file.string();
        if (hops == 40) cannotWrite(path, std::strerror(ELOOP));
        const std::filesystem::path target = std::filesystem::read_symlink(file, error);
        if (error) cannotWrite(path, error.message());
        // Not normalized: the kernel resolves ".." after links in the parent, and so must we.
        file = target.is_absolute() ? target : file.parent_path() / target;
    }
}

Output outputFor(const std::string& path) {
    if (path.empty()) throw InputError("cannot write '': the path is empty");
    struct stat info;
    if (::stat(path.c_str(), &info) == 0) {
        if (S_ISDIR(info.st_mode)) cannotWrite(path, "it is a directory");
        if (!S_ISREG(info.st_mode)) return {path, true, S_ISFIFO(info.st_mode)};
    } else if (errno != ENOENT) {
        cannotWrite(path, std::strerror(errno));
    }
    return {followLinks(path), false, false};
}

// Non-blocking first, so that a FIFO nobody reads fails at once (ENXIO) instead of waiting forever.
int openDirect(const std::string& path, const Output& output) {
    const int fd = ::open(output.file.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENXIO && output.fifo) cannotWrite(path, "no process is reading the FIFO");
        cannotWrite(path, std::strerror(errno));
    }
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        const int e = errno;
        ::close(fd);
        cannotWrite(path, std::strerror(e));
    }
    return fd;
}

void writeDirect(const std::string& path, const Output& output, const std::string& bytes) {
    const int fd = openDirect(path, output);
    for (size_t done = 0; done < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const int e = n < 0 ? errno : EIO;
            ::close(fd);
            cannotWrite(path, std::strerror(e));
        }
        done += size_t(n);
    }
    if (::close(fd) != 0 && errno != EINTR) cannotWrite(path, std::strerror(errno));
}

// An existing file that may not be written is refused, though renaming over it needs only its
// folder: replacing it would undo the protection its owner gave it. Returns what the replacement
// keeps of it (permissions, owner), or nothing where there is no file to replace.
std::optional<struct stat> checkReplaceable(const std::string& path, const Output& output) {
    struct stat info;
    if (output.direct || ::stat(output.file.c_str(), &info) != 0) return std::nullopt;
    if (::faccessat(AT_FDCWD, output.file.c_str(), W_OK, AT_EACCESS) != 0)
        cannotWrite(path, std::strerror(errno));
    return info;
}

// "state.NPY" has the extension ".npy"; ".npy" alone is the name of a hidden file without one.
bool hasExtension(const std::string& name, const std::string& extension) {
    if (name.size() <= extension.size()) return false;
    for (size_t i = 0; i < extension.size(); ++i)
        if (std::tolower(uint8_t(name[name.size() - extension.size() + i])) !=
            std::tolower(uint8_t(extension[i])))
            return false;
    return true;
}

} // namespace

std::string encodeNpy(const State& state) {
    std::string dict =
        "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(state.count()) + ", 6), }";
    // Version 1.0: 10 bytes of preamble; the header is padded with spaces to a multiple of 64 and ends in
    // '\n'.
    size_t total = 10 + dict.size() + 1;
    dict.append((64 - total % 64) % 64, ' ');
    dict += '\n';
    std::string out(magic, 6);
    out += char(1);
    out += char(0);
    out += char(dict.size() & 0xff);
    out += char(dict.size() >> 8);
    out += dict;
    out.append(reinterpret_cast<const char*>(state.data.data()), state.data.size() * sizeof(float));
    return out;
}

State decodeNpy(const std::string& bytes, const std::string& name) {
    if (bytes.size() < 10 || bytes.compare(0, 6, magic, 6) != 0) fail(name, "not an .npy file (bad magic)");
    const uint8_t major = uint8_t(bytes[6]), minor = uint8_t(bytes[7]);
    size_t headerLength = 0, headerStart = 0;
    if (major == 1) {
        headerLength = uint8_t(bytes[8]) | size_t(uint8_t(bytes[9])) << 8;
        headerStart = 10;
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12) fail(name, "truncated .npy header");
        headerLength = uint8_t(bytes[8]) | size_t(uint8_t(bytes[9])) << 8 | size_t(uint8_t(bytes[10])) << 16 |
                       size_t(uint8_t(bytes[11])) << 24;
        headerStart = 12;
    } else {
        fail(name, "unsupported .npy version " + std::to_string(major) + "." + std::to_string(minor));
    }
    if (minor != 0)
        fail(name, "unsupported .npy version " + std::to_string(major) + "." + std::to_string(minor));
    if (headerStart + headerLength > bytes.size()) fail(name, "truncated .npy header");
    const std::string header = bytes.substr(headerStart, headerLength);
    if (header.empty() || header.back() != '\n') fail(name, "malformed .npy header (no terminating newline)");

    HeaderParser parser{header, name};
    std::string descr;
    bool fortran = false, haveDescr = false, haveOrder = false, haveShape = false;
    std::vector<uint64_t> shape;
    parser.expect('{');
    while (!parser.accept('}')) {
        const std::string key = parser.string();
        parser.expect(':');
        if (key == "descr")
            descr = parser.string(), haveDescr = true;
        else if (key == "fortran_order")
            fortran = parser.boolean(), haveOrder = true;
        else if (key == "shape")
            shape = parser.tuple(), haveShape = true;
        else
            fail(name, "unexpected key '" + key + "' in the .npy header");
        if (!parser.accept(',')) {
            parser.expect('}');
            break;
        }
    }
    if (!haveDescr || !haveOrder || !haveShape)
        fail(name, "the .npy header lacks descr, fortran_order or shape");
    if (descr == ">f4") fail(name, "dtype '>f4' (big-endian float32) is not supported; save as '<f4'");
    if (descr != "<f4") fail(name, "dtype '" + descr + "' is not float32 ('<f4')");
    if (fortran) fail(name, "Fortran order is not supported; save in C order");
    if (shape.size() != 2 || shape[1] != 6) fail(name, "shape " + shapeText(shape) + " is not (N, 6)");
    if (shape[0] == 0) fail(name, "the file holds no boids (shape (0, 6))");
    if (shape[0] > 0xffffffffull) fail(name, "too many boids for one flock");

    const uint64_t expected = shape[0] * 6 * sizeof(float);
    const uint64_t found = bytes.size() - headerStart - headerLength;
    if (found < expected)
        fail(name, "truncated: " + std::to_string(expected) + " bytes of data expected, " +
                       std::to_string(found) + " found");
    if (found > expected) fail(name, std::to_string(found - expected) + " unexpected bytes after the data");

    State state;
    state.data.resize(shape[0] * 6);
    std::memcpy(state.data.data(), bytes.data() + headerStart + headerLength, expected);
    for (size_t i = 0; i < state.data.size(); ++i)
        if (!std::isfinite(state.data[i]))
            fail(name, "row " + std::to_string(i / 6) + " holds a non-finite value (NaN or infinity)");
    // The first step caps speeds at the maximum, but it sums neighbours' velocities before that: up to
    // 2^32 of them a boid, which stays finite in float32 only up to about 1e28 a component.
    for (size_t i = 3; i < state.data.size(); i += 6)
        for (size_t a = 0; a < 3; ++a)
            if (std::abs(state.data[i + a]) > 1e18f)
                fail(name,
                     "row " + std::to_string(i / 6) +
                         " has a velocity beyond 1e18 a component (a step's neighbour sums would overflow)");
    return state;
}

State loadNpy(const std::string& path) {
    std::error_code error;
    if (std::filesystem::is_directory(path, error))
        throw InputError("cannot read '" + path + "': it is a directory");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError("cannot read '" + path + "': " + std::strerror(errno));
    std::ostringstream buffer;
    buffer << in.rdbuf();
    if (in.bad()) throw InputError("cannot read '" + path + "': read error");
    return decodeNpy(buffer.str(), path);
}

void saveNpy(const std::string& path, const State& state) {
    writeFileAtomically(path, encodeNpy(state));
}

void checkWritable(const std::string& path) {
    const Output output = outputFor(path);
    if (output.fifo) {
        // Opening and closing a FIFO would give a reader already waiting on it an end of file.
        if (::access(path.c_str(), W_OK) != 0) cannotWrite(path, std::strerror(errno));
        return;
    }
    if (output.direct) {
        ::close(openDirect(path, output));
        return;
    }
    checkReplaceable(path, output);
    const std::string tmp = temporaryPath(output.file);
    FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) cannotWrite(path, std::strerror(errno));
    std::fclose(f);
    std::remove(tmp.c_str());
}

void checkOutputPath(const std::string& path, const char* extension) {
    const Output output = outputFor(path);
    const std::string name = std::filesystem::path(path).filename().string();
    if (!output.direct && !hasExtension(name, extension))
        cannotWrite(path, std::string("the file name must end in ") + extension);
    checkWritable(path);
}

void checkDistinctOutputs(const std::vector<std::string>& paths) {
    std::vector<std::filesystem::path> files(paths.size());
    for (size_t i = 0; i < paths.size(); ++i) {
        const Output output = outputFor(paths[i]);
        if (output.direct) continue;
        std::error_code error;
        // Absolute first: a name that does not exist yet stays relative in weakly_canonical.
        files[i] = std::filesystem::absolute(output.file, error);
        if (!error) files[i] = std::filesystem::weakly_canonical(files[i], error);
        if (error) cannotWrite(paths[i], error.message());
        for (size_t j = 0; j < i; ++j) {
            if (files[j].empty()) continue;
            const bool same = files[i] == files[j] || std::filesystem::equivalent(files[i], files[j], error);
            if (same)
                throw InputError("'" + paths[j] + "' and '" + paths[i] +
                                 "' are the same file: give each output its own");
        }
    }
}

void writeFileAtomically(const std::string& path, const std::string& bytes) {
    writeFilesAtomically({{path, bytes}});
}

void writeFilesAtomically(const std::vector<std::pair<std::string, std::string>>& files) {
    // Every temporary file is written before anything is written in place or renamed, so a failure
    // there leaves no new file; devices and FIFOs cannot take part in that, and come next.
    std::vector<std::string> paths;
    for (const auto& file : files) paths.push_back(file.first);
    checkDistinctOutputs(paths);
    std::vector<Output> outputs;
    std::vector<std::optional<struct stat>> existing; // what a replacement keeps: permissions, owner
    for (const auto& file : files) {
        outputs.push_back(outputFor(file.first));
        existing.push_back(checkReplaceable(file.first, outputs.back()));
    }
    std::vector<std::string> temporaries(files.size()); // empty where written in place
    auto removeTemporaries = [&](size_t from) {
        for (size_t i = from; i < files.size(); ++i)
            if (!temporaries[i].empty()) std::remove(temporaries[i].c_str());
    };
    for (size_t i = 0; i < files.size(); ++i) {
        if (outputs[i].direct) continue;
        const auto& [path, bytes] = files[i];
        const std::string tmp = temporaryPath(outputs[i].file);
        FILE* f = std::fopen(tmp.c_str(), "wb");
        if (!f) {
            const int e = errno;
            removeTemporaries(0);
            cannotWrite(path, std::strerror(e));
        }
        temporaries[i] = tmp;
        if (existing[i]) {
            // Root may replace another user's file, which then stays theirs (where the file system
            // keeps owners: a failure is no reason to lose the output); others cannot give a file away.
            [[maybe_unused]] const int owned =
                ::geteuid() == 0 ? ::fchown(::fileno(f), existing[i]->st_uid, existing[i]->st_gid) : 0;
            if (::fchmod(::fileno(f), existing[i]->st_mode & 0777) != 0) {
                const int e = errno;
                std::fclose(f);
                removeTemporaries(0);
                cannotWrite(path, std::strerror(e));
            }
        }
        const bool written = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
        const int writeError = errno;
        if (std::fclose(f) != 0 || !written) {
            const int e = written ? errno : writeError;
            removeTemporaries(0);
            cannotWrite(path, std::strerror(e));
        }
    }
    for (size_t i = 0; i < files.size(); ++i) {
        if (!outputs[i].direct) continue;
        try {
            writeDirect(files[i].first, outputs[i], files[i].second);
        } catch (const InputError&) {
            removeTemporaries(0);
            throw;
        }
    }
    for (size_t i = 0; i < files.size(); ++i)
        if (!outputs[i].direct && std::rename(temporaries[i].c_str(), outputs[i].file.c_str()) != 0) {
            const int e = errno;
            removeTemporaries(i);
            cannotWrite(files[i].first, std::strerror(e));
        }
}

} // namespace sim
