#pragma once
// The operating system, behind one small interface: one implementation for POSIX systems
// (platform_posix.cpp), one for Windows (platform_windows.cpp). Paths are UTF-8. Each function that
// fails throws InputError naming the path the user gave and the system's reason.

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <string>

namespace io::os {

// std::filesystem's paths from and to UTF-8, the same on every system (a narrow string is the
// system's code page on Windows).
inline std::filesystem::path fsPath(const std::string& utf8) {
    return std::filesystem::path(std::u8string(utf8.begin(), utf8.end()));
}
inline std::string utf8(const std::filesystem::path& path) {
    const std::u8string s = path.u8string();
    return std::string(s.begin(), s.end());
}

// What a path names, links followed to the end of their chain.
enum class Kind {
    Missing,   // nothing there yet (a link to nothing counts as missing)
    Regular,   // a file: replaced whole by a renamed temporary file
    Directory, // refused
    Device,    // a character device (/dev/null, NUL, CON): written into, never replaced
    Pipe,      // a FIFO or named pipe: written into, and only while someone reads it
};

struct Target {
    Kind kind = Kind::Missing;
    std::string file; // where a replacement goes: `path` with its links followed
};

// Throws for a name the system refuses (empty, a dangling chain of links past the limit, a folder
// that cannot be searched).
Target targetOf(const std::string& path);

// True when `path` itself is a symbolic link (on Windows, any reparse point: links and junctions).
bool isLink(const std::string& path);

// Throws unless a device opens for writing now, or a pipe may be written (checked without opening
// it: opening and closing it would give a reader already waiting on it an end of file).
void checkWritableInPlace(const std::string& path, const Target& target);

// Writes `bytes` into a device or pipe; a pipe nobody reads fails at once instead of waiting.
void writeInPlace(const std::string& path, const Target& target, const std::string& bytes);

// Throws when the regular file `target.file` exists and may not be written by this user, or is
// read-only (root too is refused a file that no one may write): replacing it would undo the
// protection its owner gave it.
void checkReplaceable(const std::string& path, const Target& target);

// A temporary file beside `target.file`, written whole and closed, keeping what the file it will
// replace has (permissions, owner) where the system lets it. Returns its name; leaves nothing on
// failure.
std::string writeTemporary(const std::string& path, const Target& target, const std::string& bytes);

// Moves the temporary file over `target.file` in one step: a reader sees the old file or the new.
void replace(const std::string& path, const std::string& temporary, const Target& target);

// The start of a regular file, read with bounded memory.
struct FileStart {
    std::string bytes; // its first bytes, at most the `maxBytes` asked for
    uint64_t size = 0; // its whole size: more than `maxBytes` (the system's figure, or maxBytes + 1) where
                       // the file goes on past them, exact otherwise
};

// Opens `path` for reading, only if it is a regular file: a directory, a device, a FIFO or a socket is
// refused without reading it or waiting on it (no writer need open a FIFO). Reads from its start until
// its end or `maxBytes` bytes. Throws InputError "cannot read 'PATH': ...".
FileStart readFileStart(const std::string& path, uint64_t maxBytes);

// Removes a temporary file; quiet when it is already gone.
void removeQuietly(const std::string& file);

// While one lives, an interrupt (Ctrl-C, SIGTERM, a console closing) waits until it ends: a run
// stopped while its outputs are written leaves them whole or leaves nothing.
class DeferInterrupts {
  public:
    DeferInterrupts();
    ~DeferInterrupts();
    DeferInterrupts(const DeferInterrupts&) = delete;
    DeferInterrupts& operator=(const DeferInterrupts&) = delete;
};

// Ctrl-C and the system's requests to end (SIGTERM; a console's close) call `handler` instead of
// ending the process. The handler may run on another thread or in a signal handler: it should only
// set an atomic flag.
void onInterrupt(void (*handler)());

// Writing into a pipe whose reader has gone is an error to report, not a reason to die (SIGPIPE).
void ignoreBrokenPipes();

// Output that arrives line by line as it is printed, piped or redirected too.
void flushEachLine(std::FILE* stream);

// True when the stream is a terminal (progress lines are drawn only there).
bool isTerminal(std::FILE* stream);

// The local time of `time`, thread-safe.
std::tm localTime(std::time_t time);

// Bytes the C library's allocator has handed out and not had back (glibc's mallinfo2), or -1 where it
// cannot tell. The soak follows it: unlike the resident size, it does not wait on the allocator's
// decisions to return pages, so a few passes of a script show whether memory is kept.
int64_t heapBytesInUse();

// The calling thread's priority against the others', so that background work (the demo's shader
// compiles) leaves the frame loop most of the CPU time: a little below (nice 10 on Linux), or the
// lowest (nice 19). Where the system lets a thread raise its priority again (Windows), Normal does.
enum class Priority { Normal, BelowNormal, Lowest };
void setThreadPriority(Priority priority);

} // namespace io::os
