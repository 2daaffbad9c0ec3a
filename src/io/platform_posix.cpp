// io/platform.h for Linux, macOS and other POSIX systems.

#include "io/platform.h"

#include "io/output.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <filesystem>
#include <iterator>
#include <mutex>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace io::os {
namespace {

[[noreturn]] void cannotWrite(const std::string& path, const std::string& why) {
    throw InputError("cannot write '" + path + "': " + why);
}

[[noreturn]] void cannotRead(const std::string& path, const std::string& why) {
    throw InputError("cannot read '" + path + "': " + why);
}

// The end of a chain of symbolic links, which need not exist yet: renaming over a link itself would
// turn it into a regular file.
std::string followLinks(const std::string& path) {
    std::filesystem::path file = fsPath(path);
    for (int hops = 0;; ++hops) {
        std::error_code error;
        if (std::filesystem::symlink_status(file, error).type() != std::filesystem::file_type::symlink)
            return utf8(file);
        if (hops == 40) cannotWrite(path, std::strerror(ELOOP));
        const std::filesystem::path target = std::filesystem::read_symlink(file, error);
        if (error) cannotWrite(path, error.message());
        // The path is not normalized, because the kernel resolves ".." after following the links in the
        // parent, and so must we.
        file = target.is_absolute() ? target : file.parent_path() / target;
    }
}

// Opens without blocking first, so that a FIFO nobody reads fails at once (ENXIO) instead of waiting
// for ever.
int openInPlace(const std::string& path, const Target& target) {
    const int fd = ::open(target.file.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENXIO && target.kind == Kind::Pipe) cannotWrite(path, "no process is reading the FIFO");
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

void (*interruptHandler)() = nullptr;

const int deferredSignals[] = {SIGINT, SIGTERM, SIGHUP};
std::mutex deferMutex;
int deferDepth = 0;
struct sigaction deferSaved[std::size(deferredSignals)];
volatile std::sig_atomic_t deferredSignal = 0;

void recordSignal(int signal) {
    deferredSignal = signal;
}

// Writes all of `bytes`. Into a device or FIFO (`interruptible`), a signal while deferred ends a
// write that may wait for ever (a FIFO nobody reads) as an error, so that the outputs are cleaned up
// and the signal then ends the run.
int writeAll(int fd, const std::string& bytes, bool interruptible) {
    for (size_t done = 0; done < bytes.size();) {
        if (interruptible && deferredSignal) return EINTR;
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (interruptible && deferredSignal) return EINTR; // a cut-short write returns its part
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return n < 0 ? errno : EIO;
        done += size_t(n);
    }
    return 0;
}

void onSignal(int) {
    if (interruptHandler) interruptHandler();
}

// A temporary file's name beside `file`, unique to this process.
std::string temporaryName(const std::string& file) {
    return file + ".tmp" + std::to_string(::getpid());
}

} // namespace

Target targetOf(const std::string& path) {
    if (path.empty()) throw InputError("cannot write '': the path is empty");
    struct stat info;
    if (::stat(path.c_str(), &info) == 0) {
        if (S_ISDIR(info.st_mode)) return {Kind::Directory, path};
        if (S_ISFIFO(info.st_mode)) return {Kind::Pipe, path};
        if (!S_ISREG(info.st_mode)) return {Kind::Device, path};
        return {Kind::Regular, followLinks(path)};
    }
    if (errno != ENOENT) cannotWrite(path, std::strerror(errno));
    return {Kind::Missing, followLinks(path)};
}

bool isLink(const std::string& path) {
    struct stat info;
    return ::lstat(path.c_str(), &info) == 0 && S_ISLNK(info.st_mode);
}

void checkWritableInPlace(const std::string& path, const Target& target) {
    if (target.kind == Kind::Pipe) {
        // Opening and closing a FIFO would give a reader already waiting on it an end of file.
        if (::access(target.file.c_str(), W_OK) != 0) cannotWrite(path, std::strerror(errno));
        return;
    }
    ::close(openInPlace(path, target));
}

void writeInPlace(const std::string& path, const Target& target, const std::string& bytes) {
    const int fd = openInPlace(path, target);
    if (const int e = writeAll(fd, bytes, true)) {
        ::close(fd);
        cannotWrite(path, std::strerror(e));
    }
    if (::close(fd) != 0 && errno != EINTR) cannotWrite(path, std::strerror(errno));
}

// Renaming over a file needs only its folder, so its own permission is checked here. A file that no
// one may write is read-only for root too, who may write any file: asked of its mode bits, as Windows
// asks of its read-only attribute.
void checkReplaceable(const std::string& path, const Target& target) {
    if (target.kind != Kind::Regular) return;
    struct stat info;
    if (::stat(target.file.c_str(), &info) == 0 && (info.st_mode & 0222) == 0)
        cannotWrite(path, "the file is read-only");
    if (::faccessat(AT_FDCWD, target.file.c_str(), W_OK, AT_EACCESS) != 0)
        cannotWrite(path, std::strerror(errno));
}

std::string writeTemporary(const std::string& path, const Target& target, const std::string& bytes) {
    struct stat existing;
    const bool replacing = target.kind == Kind::Regular && ::stat(target.file.c_str(), &existing) == 0;
    const std::string tmp = temporaryName(target.file);
    // A new file only: never through a link or into a FIFO that has the name. One left by an earlier
    // run of the same process id is removed first.
    const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
    int fd = ::open(tmp.c_str(), flags, 0666);
    if (fd < 0 && errno == EEXIST && ::unlink(tmp.c_str()) == 0) fd = ::open(tmp.c_str(), flags, 0666);
    if (fd < 0) cannotWrite(path, std::strerror(errno));
    auto fail = [&](int e) {
        ::close(fd);
        ::unlink(tmp.c_str());
        cannotWrite(path, std::strerror(e));
    };
    if (replacing) {
        // Root may replace another user's file, which then stays theirs (where the file system keeps
        // owners: a failure is no reason to lose the output); others cannot give a file away.
        [[maybe_unused]] const int owned =
            ::geteuid() == 0 ? ::fchown(fd, existing.st_uid, existing.st_gid) : 0;
        if (::fchmod(fd, existing.st_mode & 0777) != 0) fail(errno);
    }
    if (const int e = writeAll(fd, bytes, false)) fail(e);
    if (::close(fd) != 0 && errno != EINTR) {
        const int e = errno;
        ::unlink(tmp.c_str());
        cannotWrite(path, std::strerror(e));
    }
    return tmp;
}

void replace(const std::string& path, const std::string& temporary, const Target& target) {
    if (std::rename(temporary.c_str(), target.file.c_str()) != 0) cannotWrite(path, std::strerror(errno));
}

void removeQuietly(const std::string& file) {
    ::unlink(file.c_str());
}

// Non-blocking, so that opening a FIFO that no process writes returns at once; what the path names is
// then asked of the open file itself, so that nothing can take its place in between.
FileStart readFileStart(const std::string& path, uint64_t maxBytes) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) cannotRead(path, std::strerror(errno));
    auto fail = [&](const std::string& why) {
        ::close(fd);
        cannotRead(path, why);
    };
    struct stat info;
    if (::fstat(fd, &info) != 0) fail(std::strerror(errno));
    if (S_ISDIR(info.st_mode)) fail("it is a directory");
    if (S_ISFIFO(info.st_mode)) fail("it is a FIFO, not a file");
    if (S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode)) fail("it is a device, not a file");
    if (!S_ISREG(info.st_mode)) fail("it is not a regular file");
    // One byte past the most asked for tells a file that goes on (one that grows, or /proc's, whose
    // size reads as 0) from one that ends there.
    const uint64_t want = maxBytes + 1;
    FileStart start;
    start.bytes.resize(size_t(std::min<uint64_t>(uint64_t(info.st_size), maxBytes) + 1));
    size_t done = 0;
    while (done < want) {
        if (done == start.bytes.size())
            start.bytes.resize(size_t(std::min<uint64_t>(want, uint64_t(done) * 2 + 4096)));
        const ssize_t n = ::read(fd, start.bytes.data() + done, start.bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) fail(std::strerror(errno));
        if (n == 0) break;
        done += size_t(n);
    }
    ::close(fd);
    start.bytes.resize(std::min<uint64_t>(done, maxBytes));
    start.size = done > maxBytes ? std::max<uint64_t>(uint64_t(info.st_size), want) : done;
    return start;
}

// The signals are deferred by installing a process-wide handler rather than by blocking them in a
// mask, because a signal goes to whichever thread does not block it, and the driver has threads of
// its own.
DeferInterrupts::DeferInterrupts() {
    const std::lock_guard lock(deferMutex);
    if (deferDepth++ > 0) return;
    deferredSignal = 0;
    struct sigaction record {};
    record.sa_handler = recordSignal;
    sigemptyset(&record.sa_mask);
    // A signal the run ignores (nohup, a background job) stays ignored.
    for (size_t i = 0; i < std::size(deferredSignals); ++i)
        if (::sigaction(deferredSignals[i], nullptr, &deferSaved[i]) == 0 &&
            deferSaved[i].sa_handler != SIG_IGN)
            ::sigaction(deferredSignals[i], &record, nullptr);
}

// A signal that came while interrupts were deferred is raised again, to whatever handles it now.
DeferInterrupts::~DeferInterrupts() {
    const std::lock_guard lock(deferMutex);
    if (--deferDepth > 0) return;
    for (size_t i = 0; i < std::size(deferredSignals); ++i)
        ::sigaction(deferredSignals[i], &deferSaved[i], nullptr);
    if (deferredSignal) std::raise(deferredSignal);
}

void onInterrupt(void (*handler)()) {
    const std::lock_guard lock(deferMutex);
    interruptHandler = handler;
    struct sigaction action {};
    action.sa_handler = onSignal;
    action.sa_flags = SA_RESTART; // as std::signal does, so that the frame loop's calls are not cut short
    sigemptyset(&action.sa_mask);
    // Installed for SIGINT and SIGTERM. While outputs are being written, the handler is stored instead,
    // and the deferral installs it when it ends.
    for (size_t i = 0; i < 2; ++i) {
        if (deferDepth > 0)
            deferSaved[i] = action;
        else
            ::sigaction(deferredSignals[i], &action, nullptr);
    }
}

void ignoreBrokenPipes() {
    std::signal(SIGPIPE, SIG_IGN);
}

void flushEachLine(std::FILE* stream) {
    std::setvbuf(stream, nullptr, _IOLBF, BUFSIZ);
}

bool isTerminal(std::FILE* stream) {
    return ::isatty(::fileno(stream)) != 0;
}

std::tm localTime(std::time_t time) {
    std::tm local{};
    ::localtime_r(&time, &local);
    return local;
}

void setThreadPriority(Priority priority) {
#ifdef __linux__
    // On Linux a thread has its own nice value, set through its thread id; raising it back needs a
    // privilege, and is left undone without one. Elsewhere (macOS) the thread keeps its priority.
    const int nice = priority == Priority::Lowest ? 19 : priority == Priority::BelowNormal ? 10 : 0;
    ::setpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid)), nice);
#else
    (void)priority;
#endif
}

int64_t heapBytesInUse() {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
    const struct mallinfo2 info = ::mallinfo2();
    return int64_t(info.uordblks + info.hblkhd); // small blocks in use, and those mapped on their own
#else
    return -1;
#endif
}

} // namespace io::os
