// io/platform.h for Windows. Paths are UTF-8 in the program and UTF-16 at the system's calls.

#include "io/platform.h"

#include "io/output.h"

#include <windows.h>

#include <atomic>
#include <io.h>
#include <mutex>

namespace io::os {
namespace {

std::wstring wide(const std::string& utf8) {
    if (utf8.empty()) return {};
    const int n = MultiByteToWideChar(CP_UTF8, 0, utf8.data(), int(utf8.size()), nullptr, 0);
    std::wstring out(size_t(n), L'\0');
    MultiByteToWideChar(CP_UTF8, 0, utf8.data(), int(utf8.size()), out.data(), n);
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

struct Handle {
    HANDLE h = INVALID_HANDLE_VALUE;
    ~Handle() {
        if (h != INVALID_HANDLE_VALUE) CloseHandle(h);
    }
    bool ok() const { return h != INVALID_HANDLE_VALUE; }
};

// No sharing is refused to others: a file opened elsewhere (a CSV in a spreadsheet) is reported by
// the write that it blocks, not here.
const DWORD shareAll = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;

void writeAll(const std::string& path, HANDLE h, const std::string& bytes) {
    for (size_t done = 0; done < bytes.size();) {
        const DWORD chunk = DWORD(std::min<size_t>(bytes.size() - done, 1u << 30));
        DWORD n = 0;
        if (!WriteFile(h, bytes.data() + done, chunk, &n, nullptr)) cannotWrite(path, GetLastError());
        if (n == 0) cannotWrite(path, ERROR_WRITE_FAULT);
        done += n;
    }
}

// The file a link names, to the end of its chain (links exist on NTFS, if rarely).
std::string finalPath(const std::string& path, HANDLE h) {
    const DWORD attributes = GetFileAttributesW(wide(path).c_str());
    if (attributes == INVALID_FILE_ATTRIBUTES || !(attributes & FILE_ATTRIBUTE_REPARSE_POINT)) return path;
    std::wstring out(MAX_PATH, L'\0');
    for (;;) {
        const DWORD n = GetFinalPathNameByHandleW(h, out.data(), DWORD(out.size()), FILE_NAME_NORMALIZED);
        if (n == 0) cannotWrite(path, GetLastError());
        if (n < out.size()) {
            out.resize(n);
            break;
        }
        out.resize(n);
    }
    if (out.rfind(L"\\\\?\\UNC\\", 0) == 0)
        out = L"\\\\" + out.substr(8);
    else if (out.rfind(L"\\\\?\\", 0) == 0)
        out = out.substr(4);
    return narrow(out);
}

} // namespace

Target targetOf(const std::string& path) {
    if (path.empty()) throw InputError("cannot write '': the path is empty");
    // Opened without access, only to ask what it is; links followed, folders allowed.
    Handle file{CreateFileW(wide(path).c_str(), 0, shareAll, nullptr, OPEN_EXISTING,
                            FILE_FLAG_BACKUP_SEMANTICS, nullptr)};
    if (!file.ok()) {
        const DWORD error = GetLastError();
        if (error != ERROR_FILE_NOT_FOUND && error != ERROR_PATH_NOT_FOUND) cannotWrite(path, error);
        const DWORD attributes = GetFileAttributesW(wide(path).c_str());
        if (attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_REPARSE_POINT))
            cannotWrite(path, "it is a link to nothing");
        return {Kind::Missing, path};
    }
    switch (GetFileType(file.h)) {
    case FILE_TYPE_CHAR: return {Kind::Device, path};
    case FILE_TYPE_PIPE: return {Kind::Pipe, path};
    case FILE_TYPE_DISK: break;
    default: return {Kind::Device, path};
    }
    BY_HANDLE_FILE_INFORMATION info;
    if (!GetFileInformationByHandle(file.h, &info)) cannotWrite(path, GetLastError());
    if (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) return {Kind::Directory, path};
    return {Kind::Regular, finalPath(path, file.h)};
}

// A named pipe cannot be looked at without connecting to it; its write says whether it works.
void checkWritableInPlace(const std::string& path, const Target& target) {
    if (target.kind == Kind::Pipe) return;
    Handle file{
        CreateFileW(wide(target.file).c_str(), GENERIC_WRITE, shareAll, nullptr, OPEN_EXISTING, 0, nullptr)};
    if (!file.ok()) cannotWrite(path, GetLastError());
}

void writeInPlace(const std::string& path, const Target& target, const std::string& bytes) {
    Handle file{
        CreateFileW(wide(target.file).c_str(), GENERIC_WRITE, shareAll, nullptr, OPEN_EXISTING, 0, nullptr)};
    if (!file.ok()) cannotWrite(path, GetLastError());
    writeAll(path, file.h, bytes);
}

// The read-only attribute (Explorer's check box) is asked for by name: an administrator's open would
// pass it by. Opening for writing changes nothing, and fails for a file the user may not write.
void checkReplaceable(const std::string& path, const Target& target) {
    if (target.kind != Kind::Regular) return;
    const DWORD attributes = GetFileAttributesW(wide(target.file).c_str());
    if (attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_READONLY))
        cannotWrite(path, "the file is read-only");
    Handle file{
        CreateFileW(wide(target.file).c_str(), GENERIC_WRITE, shareAll, nullptr, OPEN_EXISTING, 0, nullptr)};
    if (!file.ok()) cannotWrite(path, GetLastError());
}

std::string temporaryName(const std::string& file) {
    return file + ".tmp" + std::to_string(GetCurrentProcessId());
}

std::string writeTemporary(const std::string& path, const Target& target, const std::string& bytes) {
    const std::string tmp = temporaryName(target.file);
    {
        Handle file{CreateFileW(wide(tmp).c_str(), GENERIC_WRITE, 0, nullptr, CREATE_ALWAYS,
                                FILE_ATTRIBUTE_NORMAL, nullptr)};
        if (!file.ok()) cannotWrite(path, GetLastError());
        try {
            writeAll(path, file.h, bytes);
        } catch (const InputError&) {
            CloseHandle(file.h);
            file.h = INVALID_HANDLE_VALUE;
            DeleteFileW(wide(tmp).c_str());
            throw;
        }
    }
    return tmp;
}

// ReplaceFileW keeps what the old file had (attributes, permissions, creation time); a new file, or
// one removed meanwhile, is moved into place.
void replace(const std::string& path, const std::string& temporary, const Target& target) {
    const std::wstring to = wide(target.file), from = wide(temporary);
    if (target.kind == Kind::Regular &&
        ReplaceFileW(to.c_str(), from.c_str(), nullptr, REPLACEFILE_IGNORE_MERGE_ERRORS, nullptr, nullptr))
        return;
    if (!MoveFileExW(from.c_str(), to.c_str(), MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
        cannotWrite(path, GetLastError());
}

void removeQuietly(const std::string& file) {
    DeleteFileW(wide(file).c_str());
}

namespace {
std::mutex deferMutex;
int deferDepth = 0;
std::atomic<bool> interruptPending{false};
std::atomic<void (*)()> interruptHandler{nullptr};

// Runs on a thread of its own. TRUE: handled, the process goes on (after a console's close the
// system ends it when this returns).
BOOL WINAPI onConsoleEvent(DWORD) {
    if (void (*handler)() = interruptHandler.load()) {
        handler();
        return TRUE;
    }
    const std::lock_guard lock(deferMutex);
    if (deferDepth == 0) return FALSE;
    interruptPending = true;
    return TRUE;
}

void installConsoleHandler() {
    static const bool installed = SetConsoleCtrlHandler(onConsoleEvent, TRUE);
    (void)installed;
}
} // namespace

DeferInterrupts::DeferInterrupts() {
    installConsoleHandler();
    const std::lock_guard lock(deferMutex);
    ++deferDepth;
}

// Ends the process as Ctrl-C would have, once the outputs are whole, unless a handler takes it.
DeferInterrupts::~DeferInterrupts() {
    const std::lock_guard lock(deferMutex);
    if (--deferDepth == 0 && interruptPending.exchange(false) && !interruptHandler.load())
        ExitProcess(STATUS_CONTROL_C_EXIT);
}

void onInterrupt(void (*handler)()) {
    interruptHandler = handler;
    installConsoleHandler();
}

void ignoreBrokenPipes() {} // Windows has no SIGPIPE: a broken pipe is an error of the write

bool isTerminal(std::FILE* stream) {
    return _isatty(_fileno(stream)) != 0;
}

std::tm localTime(std::time_t time) {
    std::tm local{};
    localtime_s(&local, &time);
    return local;
}

} // namespace io::os
