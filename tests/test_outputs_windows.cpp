// Output files on Windows: the NUL and CON devices, named pipes, read-only and held files, names that differ
// only in case or separators, UTF-8 names, and bytes written as given (no CRLF).

#include "output_test.h"

#include <gtest/gtest.h>

#include <windows.h>

namespace test {
namespace {

// NUL is a device in every folder: written into like /dev/null, and no file of that name appears.
TEST_F(Outputs, NulIsWrittenIntoAndNoFileAppears) {
    for (const std::string& nul : {std::string("NUL"), std::string("nul"), (dir / "NUL").string()}) {
        io::checkWritable(nul);
        EXPECT_EQ(outputPathError(nul, ".npy"), "") << nul; // devices need no extension
        io::writeFileAtomically(nul, "discarded");
    }
    io::writeFilesAtomically({{"NUL", "a"}, {(dir / "beside.json").string(), "b"}});
    EXPECT_EQ(contents(dir / "beside.json"), "b");
    EXPECT_EQ(entries(dir), 1u);
}

// Nothing the user did not name is created beside a device (`--capture NUL` writes no NUL.json).
TEST_F(Outputs, NothingIsWrittenBesideNul) {
    EXPECT_EQ(io::besidePath("NUL", ".json"), "");
    EXPECT_EQ(io::besidePath((dir / "NUL").string(), ".json"), "");
    EXPECT_EQ(entries(dir), 0u) << names(dir);
}

// CON is the console in every folder, whatever the extension: written into where there is one, an
// error of one line where there is none (as under Wine with its output piped), never a file.
TEST_F(Outputs, ConIsTheConsoleNeverAFile) {
    for (const std::string& con : {(dir / "CON").string(), (dir / "con.npy").string()}) {
        const std::string message = writeError(con, "bytes");
        EXPECT_TRUE(message.empty() || message.rfind("cannot write '" + con + "': ", 0) == 0) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
    EXPECT_EQ(entries(dir), 0u) << names(dir);
}

// A read-only file (the attribute Explorer sets) is refused and kept.
TEST_F(Outputs, ReadOnlyFileIsRefusedAndKept) {
    const fs::path file = dir / "kept.csv";
    std::ofstream(file) << "old";
    fs::permissions(file, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    const std::string checked = outputPathError(file.string(), ".csv");
    const std::string written = writeError(file.string(), "new");
    for (const std::string& message : {checked, written}) {
        EXPECT_EQ(message.rfind("cannot write '" + file.string() + "': ", 0), 0u) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
    EXPECT_EQ(contents(file), "old");
    EXPECT_EQ(entries(dir), 1u);
    fs::permissions(file, fs::perms::owner_all);
}

// A file another program holds without sharing (a CSV open in a spreadsheet) is reported, kept, and
// no temporary file is left beside it.
TEST_F(Outputs, FileHeldByAnotherProgramIsReportedAndKept) {
    const fs::path file = dir / "held.csv";
    std::ofstream(file) << "old";
    HANDLE held = CreateFileW(file.wstring().c_str(), GENERIC_READ, 0, nullptr, OPEN_EXISTING, 0, nullptr);
    ASSERT_NE(held, INVALID_HANDLE_VALUE);
    const std::string message = writeError(file.string(), "new");
    CloseHandle(held);
    EXPECT_EQ(message.rfind("cannot write '" + file.string() + "': ", 0), 0u) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_EQ(contents(file), "old");
    EXPECT_EQ(entries(dir), 1u);
}

// A file held by a program that lets others read and write it but not delete it: the replacement
// fails at its last step, and its temporary file goes.
TEST_F(Outputs, FileHeldWithoutDeleteSharingIsReportedAndKept) {
    const fs::path file = dir / "held.csv";
    std::ofstream(file) << "old";
    HANDLE held = CreateFileW(file.wstring().c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE,
                              nullptr, OPEN_EXISTING, 0, nullptr);
    ASSERT_NE(held, INVALID_HANDLE_VALUE);
    const std::string message = writeError(file.string(), "new");
    CloseHandle(held);
    EXPECT_EQ(message.rfind("cannot write '" + file.string() + "': ", 0), 0u) << message;
    EXPECT_EQ(contents(file), "old");
    EXPECT_EQ(entries(dir), 1u) << "left behind:" << names(dir);
}

// A named pipe is written into like a FIFO, and checking it first does not take its server's
// connection (opening it would). The server listens before the write, so no step depends on timing.
TEST_F(Outputs, NamedPipeIsWrittenIntoAndCheckingItTakesNothing) {
    const std::string name = R"(\\.\pipe\vkboids-test-)" + std::to_string(GetCurrentProcessId());
    const std::wstring wname(name.begin(), name.end());
    HANDLE server = CreateNamedPipeW(wname.c_str(), PIPE_ACCESS_INBOUND | FILE_FLAG_OVERLAPPED,
                                     PIPE_TYPE_BYTE | PIPE_WAIT, 1, 0, 1 << 16, 0, nullptr);
    ASSERT_NE(server, INVALID_HANDLE_VALUE);
    OVERLAPPED overlapped{};
    overlapped.hEvent = CreateEventW(nullptr, TRUE, FALSE, nullptr);
    ASSERT_FALSE(ConnectNamedPipe(server, &overlapped));
    ASSERT_EQ(GetLastError(), DWORD(ERROR_IO_PENDING)); // listening
    EXPECT_EQ(outputPathError(name, ".csv"), "");       // no extension needed, and no connection made
    std::string error;
    try {
        io::writeFilesAtomically({{name, "rows"}, {(dir / "beside.json").string(), "{}"}});
    } catch (const io::InputError& e) {
        error = e.what();
    }
    EXPECT_EQ(error, "");
    std::string received;
    DWORD n = 0;
    if (error.empty() && GetOverlappedResult(server, &overlapped, &n, TRUE)) { // connected
        char buffer[256];
        for (;;) {
            ResetEvent(overlapped.hEvent);
            if (!ReadFile(server, buffer, sizeof buffer, nullptr, &overlapped) &&
                GetLastError() != ERROR_IO_PENDING)
                break;
            if (!GetOverlappedResult(server, &overlapped, &n, TRUE) || n == 0) break; // the writer closed
            received.append(buffer, n);
        }
    }
    CloseHandle(overlapped.hEvent);
    CloseHandle(server);
    EXPECT_EQ(received, "rows");
    EXPECT_EQ(contents(dir / "beside.json"), "{}");
}

// A name that is not UTF-8 is refused in one line, not turned into another name.
TEST_F(Outputs, NamesThatAreNotUtf8AreRefused) {
    const std::string bad = (dir / "").string() + "rows\xff.csv";
    const std::string message = writeError(bad, "rows");
    EXPECT_NE(message.find("not valid UTF-8"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_EQ(entries(dir), 0u);
}

// A hidden file stays hidden when it is replaced.
TEST_F(Outputs, ReplacedFileKeepsItsAttributes) {
    const fs::path file = dir / "hidden.csv";
    std::ofstream(file) << "old";
    ASSERT_TRUE(SetFileAttributesW(file.wstring().c_str(), FILE_ATTRIBUTE_HIDDEN));
    ASSERT_TRUE(GetFileAttributesW(file.wstring().c_str()) & FILE_ATTRIBUTE_HIDDEN);
    io::writeFileAtomically(file.string(), "new");
    EXPECT_TRUE(GetFileAttributesW(file.wstring().c_str()) & FILE_ATTRIBUTE_HIDDEN);
    EXPECT_EQ(contents(file), "new");
    EXPECT_EQ(entries(dir), 1u) << names(dir);
}

// Replaced whole, bytes exactly as given: a CSV's "\n" stays "\n" (text mode would write "\r\n").
TEST_F(Outputs, ReplacedFileHoldsExactlyTheBytes) {
    const fs::path file = dir / "rows.csv";
    std::ofstream(file) << "old,file\r\n";
    const std::string csv = "mode,boids\ncoherent,1000\n";
    io::writeFileAtomically(file.string(), csv);
    EXPECT_EQ(contents(file), csv);
    io::writeFileAtomically((dir / "new.csv").string(), csv);
    EXPECT_EQ(contents(dir / "new.csv"), csv);
    EXPECT_EQ(entries(dir), 2u);
}

// Windows names one file in many ways: any case, either separator.
TEST_F(Outputs, NamesThatDifferInCaseOrSeparatorAreOneFile) {
    const fs::path a = dir / "a.csv";
    std::ofstream(a) << "old";
    std::string forward = a.string();
    for (char& c : forward)
        if (c == '\\') c = '/';
    const std::string same = "are the same file";
    EXPECT_NE(distinctError({a.string(), (dir / "A.CSV").string()}).find(same), std::string::npos);
    EXPECT_NE(distinctError({a.string(), forward}).find(same), std::string::npos);
    io::writeFileAtomically(forward, "new");
    EXPECT_EQ(contents(a), "new");
    EXPECT_EQ(entries(dir), 1u);
}

// Paths are UTF-8 inside the program and reach the system as the same name.
TEST_F(Outputs, Utf8NamesAreTheSystemsNames) {
    const std::u8string name = u8"b\u00f6ids-\u2713.csv";
    const std::string utf8 = (dir / "").string() + std::string(name.begin(), name.end());
    io::checkOutputPath(utf8, ".csv");
    io::writeFileAtomically(utf8, "rows");
    EXPECT_EQ(contents(dir / fs::path(name)), "rows");
    EXPECT_EQ(entries(dir), 1u);
}

} // namespace
} // namespace test
