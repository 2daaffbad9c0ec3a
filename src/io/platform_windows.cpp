// io/platform.h for Windows. Paths are UTF-8 in the program and UTF-16 at the system's calls.

#include "io/platform.h"

#include "io/output.h"

#include <windows.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdint>
#include <io.h>
#include <mutex>

namespace io::os {
namespace {

// Bytes that are not UTF-8 are refused, because each would become U+FFFD and silently name another file.
std::wstring wide(const std::string& utf8) {
    if (utf8.empty()) return {};
    const int n =
        MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, utf8.data(), int(utf8.size()), nullptr, 0);
    if (n == 0) throw InputError("cannot write '" + utf8 + "': the name is not valid UTF-8");
    std::wstring out(size_t(n), L'\0');
    MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, utf8.data(), int(utf8.size()), out.data(), n);
    return out;
}

std::string narrow(const std::wstring& utf16) {
    if (utf16.empty()) return {};
    const int n =
        WideCharToMultiByte(CP_UTF8, 0, utf16.data(), int(utf16.size()), nullptr, 0, nullptr, nullptr);
    std::string out(size_t(n), '\0');
    WideCharToMultiByte(CP_UTF8, 0, utf16.data(), int(utf16.size()), out.data(), n, nullptr, nullptr);
    return out;
}

// The system's one-line reason, as strerror gives it on POSIX systems.
std::string reason(DWORD error) {
    wchar_t* text = nullptr;
    const DWORD n = FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM |
                                       FORMAT_MESSAGE_IGNORE_INSERTS,
                                   nullptr, error, 0, reinterpret_cast<wchar_t*>(&text), 0, nullptr);
    std::string out = n ? narrow(std::wstring(text, n)) : "error " + std::to_string(error);
    LocalFree(text);
    while (!out.empty() &&
           (out.back() == '\n' || out.back() == '\r' || out.back() == ' ' || out.back() == '.'))
        out.pop_back();
    return out;
}

[[noreturn]] void cannotWrite(const std::string& path, DWORD error) {
    throw InputError("cannot write '" + path + "': " + reason(error));
}

[[noreturn]] void cannotWrite(const std::string& path, const std::string& why) {
    throw InputError("cannot write '" + path + "': " + why);
}

[[noreturn]] void cannotRead(const std::string& path, const std::string& why) {
    throw InputError("cannot read '" + path + "': " + why);
}

struct Handle {
    HANDLE h = INVALID_HANDLE_VALUE;
    explicit Handle(HANDLE handle) : h(handle) {}
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    ~Handle() {
        if (h != INVALID_HANDLE_VALUE) CloseHandle(h);
    }
    bool ok() const { return h != INVALID_HANDLE_VALUE; }
};

// Files are opened sharing everything with other processes. A file held open elsewhere (such as a CSV
// in a spreadsheet) is then reported by the write that it blocks, not here.
const DWORD shareAll = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;

HANDLE openExisting(const std::string& file, DWORD access, DWORD flags = 0) {
    return CreateFileW(wide(file).c_str(), access, shareAll, nullptr, OPEN_EXISTING, flags, nullptr);
}

// A named pipe is told by its name: opening one, even to ask what it is, connects to its server and
// takes an instance that a reader of its own was waiting on.
bool isPipeName(const std::string& path) {
    if (path.size() < 9) return false;
    std::string head = path.substr(0, 9);
    for (char& c : head) c = c == '/' ? '\\' : char(std::tolower(uint8_t(c)));
    return head == R"(\\.\pipe\)" || head == R"(\\?\pipe\)";
}

// The file a link names, to the end of its chain (links exist on NTFS, if rarely).
std::string finalPath(const std::string& path, HANDLE h) {
    const DWORD attributes = GetFileAttributesW(wide(path).c_str());
    if (attributes == INVALID_FILE_ATTRIBUTES || !(attributes & FILE_ATTRIBUTE_REPARSE_POINT)) return path;
    std::wstring out(MAX_PATH, L'\0');
    for (;;) {
        const DWORD n = GetFinalPathNameByHandleW(h, out.data(), DWORD(out.size()), FILE_NAME_NORMALIZED);
        if (n == 0) cannotWrite(path, GetLastError());
        const bool fits = n < out.size();
        out.resize(n);
        if (fits) break;
    }
    // "\\?\C:\..." reads as "C:\..."; other forms (network shares, volumes) keep their prefix.
    if (out.size() >= 7 && out.rfind(LR"(\\?\)", 0) == 0 && out[5] == L':' && out[6] == L'\\')
        out = out.substr(4);
    return narrow(out);
}

// The interrupts handled are Ctrl-C and Ctrl-Break, and the console's close, a log-off or a shut-down;
// after the last three, Windows ends the process as soon as the handler returns (or after about 5 s).
std::mutex deferMutex; // guards deferDepth and writerInPlace
int deferDepth = 0;
HANDLE writerInPlace = nullptr; // a thread in a device or pipe's write, which may wait for ever
std::atomic<bool> interruptPending{false};
std::atomic<void (*)()> interruptHandler{nullptr};

BOOL WINAPI onConsoleEvent(DWORD event) {
    const bool closing =
        event == CTRL_CLOSE_EVENT || event == CTRL_LOGOFF_EVENT || event == CTRL_SHUTDOWN_EVENT;
    void (*handler)() = interruptHandler.load();
    {
        const std::lock_guard lock(deferMutex);
        if (deferDepth == 0 && !handler) return FALSE; // nothing to finish: the process ends as it would
        if (deferDepth > 0) {
            interruptPending = true;
            // A write into a pipe nobody reads would keep the outputs from finishing: it fails instead.
            if (writerInPlace) CancelSynchronousIo(writerInPlace);
        }
    }
    if (handler) handler();
    // While the console closes, returning ends the process at once: the main thread gets the time
    // Windows gives to finish its outputs (or the run, with a handler), and ends the process itself.
    if (closing) Sleep(INFINITE);
    return TRUE;
}

void installConsoleHandler() {
    static const bool installed = SetConsoleCtrlHandler(onConsoleEvent, TRUE);
    (void)installed;
}

void writeAll(const std::string& path, HANDLE h, const std::string& bytes) {
    for (size_t done = 0; done < bytes.size();) {
        const DWORD chunk = DWORD(std::min<size_t>(bytes.size() - done, 1u << 30));
        DWORD n = 0;
        if (!WriteFile(h, bytes.data() + done, chunk, &n, nullptr)) cannotWrite(path, GetLastError());
        if (n == 0) cannotWrite(path, ERROR_WRITE_FAULT);
        done += n;
    }
}

// A temporary file's name beside `file`, unique to this process.
std::string temporaryName(const std::string& file) {
    return file + ".tmp" + std::to_string(GetCurrentProcessId());
}

} // namespace

Target targetOf(const std::string& path) {
    if (path.empty()) throw InputError("cannot write '': the path is empty");
    if (isPipeName(path)) return {Kind::Pipe, path};
    // Opened without access rights, only to ask what it is; links are followed and folders allowed.
    Handle file{openExisting(path, 0, FILE_FLAG_BACKUP_SEMANTICS)};
    if (!file.ok()) {
        const DWORD error = GetLastError();
        if (error != ERROR_FILE_NOT_FOUND && error != ERROR_PATH_NOT_FOUND) cannotWrite(path, error);
        const DWORD attributes = GetFileAttributesW(wide(path).c_str());
        if (attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_REPARSE_POINT))
            cannotWrite(path, "it is a link to nothing");
        return {Kind::Missing, path};
    }
    switch (GetFileType(file.h)) {
    case FILE_TYPE_DISK: break;
    case FILE_TYPE_PIPE: return {Kind::Pipe, path};
    default: return {Kind::Device, path}; // NUL, CON, COM1, ...
    }
    BY_HANDLE_FILE_INFORMATION info;
    if (!GetFileInformationByHandle(file.h, &info)) cannotWrite(path, GetLastError());
    if (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) return {Kind::Directory, path};
    return {Kind::Regular, finalPath(path, file.h)};
}

bool isLink(const std::string& path) {
    if (isPipeName(path)) return false;
    const DWORD attributes = GetFileAttributesW(wide(path).c_str());
    return attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_REPARSE_POINT);
}

// A named pipe cannot be looked at without connecting to it: its write says whether it works.
void checkWritableInPlace(const std::string& path, const Target& target) {
    if (target.kind == Kind::Pipe) return;
    Handle file{openExisting(target.file, GENERIC_WRITE)};
    if (!file.ok()) cannotWrite(path, GetLastError());
}

void writeInPlace(const std::string& path, const Target& target, const std::string& bytes) {
    Handle file{openExisting(target.file, GENERIC_WRITE)};
    if (!file.ok()) cannotWrite(path, GetLastError());
    // This thread, for the console handler to cancel a write that waits on a reader.
    HANDLE self = OpenThread(THREAD_TERMINATE, FALSE, GetCurrentThreadId());
    bool interrupted = false; // an interrupt came before the write, when there was nothing to cancel yet
    {
        const std::lock_guard lock(deferMutex);
        writerInPlace = self;
        interrupted = deferDepth > 0 && interruptPending;
    }
    auto unpublish = [&] {
        const std::lock_guard lock(deferMutex);
        writerInPlace = nullptr;
    };
    try {
        if (interrupted) cannotWrite(path, ERROR_OPERATION_ABORTED);
        writeAll(path, file.h, bytes);
    } catch (const InputError&) {
        unpublish();
        if (self) CloseHandle(self);
        throw;
    }
    unpublish();
    if (self) CloseHandle(self);
}

// The read-only attribute (Explorer's check box) is asked for by name: an administrator's open would
// pass it by. Opening for writing changes nothing, and fails for a file the user may not write.
void checkReplaceable(const std::string& path, const Target& target) {
    if (target.kind != Kind::Regular) return;
    const DWORD attributes = GetFileAttributesW(wide(target.file).c_str());
    if (attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_READONLY))
        cannotWrite(path, "the file is read-only");
    Handle file{openExisting(target.file, GENERIC_WRITE)};
    if (!file.ok()) cannotWrite(path, GetLastError());
}

// The replacement keeps the old file's attributes (hidden, say); its permissions are the folder's,
// as for any new file there.
std::string writeTemporary(const std::string& path, const Target& target, const std::string& bytes) {
    const std::string tmp = temporaryName(target.file);
    const std::wstring name = wide(tmp);
    const DWORD kept = FILE_ATTRIBUTE_HIDDEN | FILE_ATTRIBUTE_SYSTEM | FILE_ATTRIBUTE_ARCHIVE |
                       FILE_ATTRIBUTE_NOT_CONTENT_INDEXED;
    const DWORD old = target.kind == Kind::Regular ? GetFileAttributesW(wide(target.file).c_str())
                                                   : INVALID_FILE_ATTRIBUTES;
    const DWORD attributes =
        old == INVALID_FILE_ATTRIBUTES || !(old & kept) ? FILE_ATTRIBUTE_NORMAL : old & kept;
    // A new file only: never through a link that has the name. One left by an earlier run of the same
    // process id is removed first.
    auto create = [&] {
        return CreateFileW(name.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW,
                           attributes | FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
    };
    Handle file{create()};
    if (!file.ok() && GetLastError() == ERROR_FILE_EXISTS && DeleteFileW(name.c_str())) file.h = create();
    if (!file.ok()) cannotWrite(path, GetLastError());
    try {
        writeAll(path, file.h, bytes);
    } catch (const InputError&) {
        CloseHandle(file.h);
        file.h = INVALID_HANDLE_VALUE;
        DeleteFileW(name.c_str());
        throw;
    }
    return tmp;
}

// One step: a reader sees the old file or the new. (ReplaceFileW would keep the old file's
// permissions too, but where it fails it may leave a file of its own behind.)
void replace(const std::string& path, const std::string& temporary, const Target& target) {
    if (!MoveFileExW(wide(temporary).c_str(), wide(target.file).c_str(),
                     MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
        cannotWrite(path, GetLastError());
}

void removeQuietly(const std::string& file) {
    DeleteFileW(wide(file).c_str());
}

// A named pipe is refused by its name, before opening it would connect to its server. Other files are
// asked what they are once open: a console (CON), NUL or a serial port is a character device, and
// none of them blocks the open.
FileStart readFileStart(const std::string& path, uint64_t maxBytes) {
    if (isPipeName(path)) cannotRead(path, "it is a named pipe, not a file");
    std::wstring name;
    try {
        name = wide(path);
    } catch (const InputError&) {
        cannotRead(path, "the name is not valid UTF-8");
    }
    Handle file{CreateFileW(name.c_str(), GENERIC_READ, shareAll, nullptr, OPEN_EXISTING,
                            FILE_FLAG_BACKUP_SEMANTICS, nullptr)};
    if (!file.ok()) cannotRead(path, reason(GetLastError()));
    switch (GetFileType(file.h)) {
    case FILE_TYPE_DISK: break;
    case FILE_TYPE_PIPE: cannotRead(path, "it is a pipe, not a file");
    default: cannotRead(path, "it is a device, not a file");
    }
    BY_HANDLE_FILE_INFORMATION info;
    if (!GetFileInformationByHandle(file.h, &info)) cannotRead(path, reason(GetLastError()));
    if (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) cannotRead(path, "it is a directory");
    const uint64_t size = uint64_t(info.nFileSizeHigh) << 32 | info.nFileSizeLow;
    // One byte past the most asked for tells a file that goes on (one that grows) from one that ends
    // there.
    const uint64_t want = maxBytes + 1;
    FileStart start;
    start.bytes.resize(size_t(std::min<uint64_t>(size, maxBytes) + 1));
    size_t done = 0;
    while (done < want) {
        if (done == start.bytes.size())
            start.bytes.resize(size_t(std::min<uint64_t>(want, uint64_t(done) * 2 + 4096)));
        const DWORD chunk = DWORD(std::min<size_t>(start.bytes.size() - done, 1u << 30));
        DWORD n = 0;
        if (!ReadFile(file.h, start.bytes.data() + done, chunk, &n, nullptr))
            cannotRead(path, reason(GetLastError()));
        if (n == 0) break;
        done += n;
    }
    start.bytes.resize(size_t(std::min<uint64_t>(done, maxBytes)));
    start.size = done > maxBytes ? std::max(size, want) : done;
    return start;
}

DeferInterrupts::DeferInterrupts() {
    installConsoleHandler();
    const std::lock_guard lock(deferMutex);
    ++deferDepth;
}

// Ends the process as Ctrl-C would have, once the outputs are whole or gone, unless a handler took it.
DeferInterrupts::~DeferInterrupts() {
    bool exit = false;
    {
        const std::lock_guard lock(deferMutex);
        if (--deferDepth == 0 && interruptPending.exchange(false)) exit = !interruptHandler.load();
    }
    if (exit) ExitProcess(STATUS_CONTROL_C_EXIT);
}

void onInterrupt(void (*handler)()) {
    interruptHandler = handler;
    installConsoleHandler();
}

void ignoreBrokenPipes() {} // Windows has no SIGPIPE; a broken pipe is already an error of the write

// Windows buffers _IOLBF streams fully (and the UCRT refuses a size of 0): unbuffered instead, which
// the C library still writes a call at a time.
void flushEachLine(std::FILE* stream) {
    std::setvbuf(stream, nullptr, _IONBF, 0);
}

// A console, not merely a character device (NUL is one too).
bool isTerminal(std::FILE* stream) {
    const HANDLE h = reinterpret_cast<HANDLE>(_get_osfhandle(_fileno(stream)));
    DWORD mode = 0;
    return h != INVALID_HANDLE_VALUE && GetConsoleMode(h, &mode);
}

std::tm localTime(std::time_t time) {
    std::tm local{};
    localtime_s(&local, &time);
    return local;
}

int64_t heapBytesInUse() {
    return -1; // the soak that reads it runs on Linux
}

void setThreadPriority(Priority priority) {
    ::SetThreadPriority(::GetCurrentThread(), priority == Priority::Lowest ? THREAD_PRIORITY_LOWEST
                                              : priority == Priority::BelowNormal
                                                  ? THREAD_PRIORITY_BELOW_NORMAL
                                                  : THREAD_PRIORITY_NORMAL);
}

} // namespace io::os
