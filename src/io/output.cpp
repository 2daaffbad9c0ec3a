#include "io/output.h"

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

namespace io {
namespace {

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

} // namespace io
