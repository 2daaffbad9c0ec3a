// Output files on POSIX systems: what a path names (a file, a link, a device, a FIFO) is never
// damaged by writing it. Input files: only regular files are read, and no more of them than asked.

#include "app/capture_files.h"
#include "io/input.h"
#include "io/platform.h"
#include "output_test.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <future>
#include <grp.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace test {
namespace {

using namespace std::chrono_literals;

// A character device like /dev/null (1, 3) or /dev/full (1, 7) in `dir`; the errno of mknod, or 0.
int makeCharDevice(const fs::path& dir, const std::string& name, unsigned minor) {
    return ::mknod((dir / name).c_str(), S_IFCHR | 0666, makedev(1, minor)) == 0 ? 0 : errno;
}

TEST_F(Outputs, RegularFileIsReplacedByRename) {
    const fs::path file = dir / "out.csv";
    std::ofstream(file) << "old";
    struct stat before, after;
    ASSERT_EQ(::stat(file.c_str(), &before), 0);
    io::writeFileAtomically(file.string(), "new");
    ASSERT_EQ(::stat(file.c_str(), &after), 0);
    EXPECT_EQ(contents(file), "new");
    EXPECT_NE(before.st_ino, after.st_ino) << "written in place, not replaced";
    EXPECT_EQ(entries(dir), 1u);
}

TEST_F(Outputs, LinkStaysALinkToItsReplacedFile) {
    std::ofstream(dir / "target.csv") << "old";
    fs::create_symlink("target.csv", dir / "link.csv");
    io::checkWritable((dir / "link.csv").string());
    io::writeFileAtomically((dir / "link.csv").string(), "new");
    EXPECT_TRUE(fs::is_symlink(dir / "link.csv"));
    EXPECT_EQ(fs::read_symlink(dir / "link.csv"), "target.csv");
    EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(dir / "target.csv")));
    EXPECT_EQ(contents(dir / "target.csv"), "new");
    EXPECT_EQ(entries(dir), 2u);
}

// Each relative link is resolved against its own folder.
TEST_F(Outputs, ChainOfTwoLinksIsFollowedToTheEnd) {
    fs::create_directory(dir / "sub");
    std::ofstream(dir / "target.npy") << "old";
    fs::create_symlink("sub/second.npy", dir / "first.npy");
    fs::create_symlink("../target.npy", dir / "sub" / "second.npy");
    io::writeFileAtomically((dir / "first.npy").string(), "new");
    EXPECT_EQ(fs::read_symlink(dir / "first.npy"), "sub/second.npy");
    EXPECT_EQ(fs::read_symlink(dir / "sub" / "second.npy"), "../target.npy");
    EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(dir / "target.npy")));
    EXPECT_EQ(contents(dir / "target.npy"), "new");
    EXPECT_EQ(entries(dir), 3u);
    EXPECT_EQ(entries(dir / "sub"), 1u);
}

TEST_F(Outputs, DanglingLinkCreatesItsTarget) {
    fs::create_symlink("made.json", dir / "link.json");
    io::checkWritable((dir / "link.json").string());
    io::writeFileAtomically((dir / "link.json").string(), "{}");
    EXPECT_TRUE(fs::is_symlink(dir / "link.json"));
    EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(dir / "made.json")));
    EXPECT_EQ(contents(dir / "made.json"), "{}");
    EXPECT_EQ(entries(dir), 2u);
}

// More than a pipe's buffer, so the writes must block (O_NONBLOCK cleared) while the reader drains.
TEST_F(Outputs, FifoWithAReaderReceivesTheBytesAndStaysAFifo) {
    const fs::path fifo = dir / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
    const int fd = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
    ASSERT_GE(fd, 0) << std::strerror(errno);
    // The check must not open and close the FIFO: a reader would take that for the end of its input.
    io::checkWritable(fifo.string());
    pollfd hangup = {fd, POLLIN, 0};
    EXPECT_EQ(::poll(&hangup, 1, 0), 0) << "the reader saw a writer come and go";
    std::string bytes(1 << 20, '\0');
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = char(i * 7 + i / 4096);
    std::string received;
    std::thread reader([&] {
        // A read gives 0 both before the writer opens and after it closes; only the second ends it.
        std::vector<char> buffer(1 << 16);
        const auto deadline = std::chrono::steady_clock::now() + 20s;
        while (std::chrono::steady_clock::now() < deadline) {
            const ssize_t n = ::read(fd, buffer.data(), buffer.size());
            if (n > 0)
                received.append(buffer.data(), size_t(n));
            else if (n == 0 && received.size() >= bytes.size())
                break;
            else if (n == 0 || errno == EAGAIN)
                std::this_thread::sleep_for(1ms);
            else
                break;
        }
    });
    std::string error;
    try {
        io::writeFileAtomically(fifo.string(), bytes);
    } catch (const io::InputError& e) {
        error = e.what();
    }
    reader.join();
    ::close(fd);
    EXPECT_EQ(error, "");
    EXPECT_EQ(received.size(), bytes.size());
    EXPECT_TRUE(received == bytes);
    EXPECT_TRUE(fs::is_fifo(fs::symlink_status(fifo)));
    EXPECT_EQ(entries(dir), 1u);
}

TEST_F(Outputs, FifoWithoutAReaderIsAnErrorNotAWait) {
    const fs::path fifo = dir / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
    std::future<std::string> error =
        std::async(std::launch::async, [&] { return writeError(fifo.string(), "x"); });
    if (error.wait_for(10s) != std::future_status::ready) {
        // Free the writer waiting for a reader, so that the test fails rather than hangs.
        const int fd = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
        error.wait();
        ::close(fd);
        FAIL() << "the write waited for a reader";
    }
    const std::string message = error.get();
    EXPECT_NE(message.find("cannot write '" + fifo.string() + "'"), std::string::npos) << message;
    EXPECT_NE(message.find("no process is reading"), std::string::npos) << message;
    EXPECT_TRUE(fs::is_fifo(fs::symlink_status(fifo)));
    EXPECT_EQ(entries(dir), 1u);
}

TEST_F(Outputs, NullDeviceIsWrittenIntoAndStaysADevice) {
    const int made = makeCharDevice(dir, "null", 3);
    if (made == EPERM) GTEST_SKIP() << "mknod is not permitted here (not root)";
    ASSERT_EQ(made, 0) << std::strerror(made);
    const std::string node = (dir / "null").string();
    io::checkWritable(node);
    io::checkOutputPath(node, ".npy"); // devices need no extension
    io::writeFileAtomically(node, "discarded");
    io::writeFilesAtomically({{node, "a"}, {(dir / "beside.json").string(), "b"}});
    EXPECT_TRUE(fs::is_character_file(fs::symlink_status(node)));
    EXPECT_EQ(contents(dir / "beside.json"), "b");
    EXPECT_EQ(entries(dir), 2u);
}

// Nothing the user did not name is created beside a device or FIFO (`--capture /dev/null` made a
// regular file /dev/null.json).
TEST_F(Outputs, NothingIsWrittenBesideADeviceOrFifo) {
    EXPECT_EQ(io::besidePath("/dev/null", ".json"), "");
    EXPECT_EQ(app::captureFiles("/dev/null"), std::vector<std::string>{"/dev/null"});
    app::checkCaptureFiles("/dev/null");
    EXPECT_FALSE(fs::exists("/dev/null.json"));
    ASSERT_EQ(::mkfifo((dir / "rows.csv").c_str(), 0600), 0) << std::strerror(errno);
    EXPECT_EQ(io::besidePath((dir / "rows.csv").string(), ".json"), "");
    const int made = makeCharDevice(dir, "null", 3);
    if (made == EPERM) GTEST_SKIP() << "mknod is not permitted here (not root)";
    ASSERT_EQ(made, 0) << std::strerror(made);
    EXPECT_EQ(io::besidePath((dir / "null").string(), ".json"), "");
    app::checkCaptureFiles((dir / "null").string());
    EXPECT_EQ(entries(dir), 2u) << names(dir);
}

// Beside the named file, a link, a device or a FIFO is refused and left as it was: only what the
// user names is followed or written into.
TEST_F(Outputs, TheFileBesideIsNeverALinkADeviceOrAFifo) {
    const std::string csv = (dir / "run.csv").string(), json = (dir / "run.json").string();
    const std::string why = " (only a path given on the command line is followed or written into)";
    fs::create_symlink("elsewhere.json", json);
    EXPECT_EQ(besideError(json, csv), "cannot write '" + json + "' beside '" + csv + "': it is a link" + why);
    std::string error;
    try {
        app::checkCaptureFiles(csv);
    } catch (const io::InputError& e) {
        error = e.what();
    }
    EXPECT_NE(error.find("it is a link"), std::string::npos) << error;
    EXPECT_TRUE(fs::is_symlink(json));
    EXPECT_EQ(entries(dir), 1u) << names(dir);
    fs::remove(json);
    ASSERT_EQ(::mkfifo(json.c_str(), 0600), 0) << std::strerror(errno);
    EXPECT_EQ(besideError(json, csv), "cannot write '" + json + "' beside '" + csv + "': it is a pipe" + why);
    EXPECT_TRUE(fs::is_fifo(fs::symlink_status(json)));
    fs::remove(json);
    const int made = makeCharDevice(dir, "run.json", 3);
    if (made == EPERM) GTEST_SKIP() << "mknod is not permitted here (not root)";
    ASSERT_EQ(made, 0) << std::strerror(made);
    EXPECT_EQ(besideError(json, csv),
              "cannot write '" + json + "' beside '" + csv + "': it is a device" + why);
    EXPECT_TRUE(fs::is_character_file(fs::symlink_status(json)));
    EXPECT_EQ(entries(dir), 1u) << names(dir);
}

TEST_F(Outputs, FullDeviceIsAnErrorAndStaysADevice) {
    const int made = makeCharDevice(dir, "full", 7);
    if (made == EPERM) GTEST_SKIP() << "mknod is not permitted here (not root)";
    ASSERT_EQ(made, 0) << std::strerror(made);
    const std::string node = (dir / "full").string();
    io::checkWritable(node);
    const std::string message = writeError(node, "bytes");
    EXPECT_EQ(message, "cannot write '" + node + "': No space left on device");
    EXPECT_TRUE(fs::is_character_file(fs::symlink_status(node)));
    // Written together with a regular file: the device fails, and the file is not replaced.
    std::ofstream(dir / "kept.csv") << "old";
    EXPECT_THROW(io::writeFilesAtomically({{(dir / "kept.csv").string(), "new"}, {node, "bytes"}}),
                 io::InputError);
    EXPECT_EQ(contents(dir / "kept.csv"), "old");
    EXPECT_TRUE(fs::is_character_file(fs::symlink_status(node)));
    EXPECT_EQ(entries(dir), 2u);
}

// A replaced file keeps its permissions: a private file stays private.
TEST_F(Outputs, ReplacedFileKeepsItsPermissions) {
    for (mode_t mode : {0600, 0640, 0755}) {
        const fs::path file = dir / "out.npy";
        std::ofstream(file) << "old";
        ASSERT_EQ(::chmod(file.c_str(), mode), 0);
        io::writeFileAtomically(file.string(), "new");
        struct stat info;
        ASSERT_EQ(::stat(file.c_str(), &info), 0);
        EXPECT_EQ(info.st_mode & 07777, mode);
        EXPECT_EQ(contents(file), "new");
    }
}

// Root may write any file, but one that no one may write is read-only for root too: refused before
// the run and at the write, through a link as well, and kept.
TEST_F(Outputs, ReadOnlyFileIsRefusedEvenForRoot) {
    const fs::path file = dir / "kept.csv";
    std::ofstream(file) << "old";
    ASSERT_EQ(::chmod(file.c_str(), 0444), 0);
    fs::create_symlink("kept.csv", dir / "link.csv");
    for (const fs::path& path : {file, dir / "link.csv"}) {
        const std::string expected = "cannot write '" + path.string() + "': the file is read-only";
        EXPECT_EQ(outputPathError(path.string(), ".csv"), expected);
        EXPECT_EQ(writeError(path.string(), "new"), expected);
    }
    EXPECT_EQ(contents(file), "old");
    EXPECT_EQ(entries(dir), 2u);
}

// A file that its owner alone may write is refused to others, though its folder would allow the
// rename, and is kept. As root, the file is root's and the write runs as nobody in a child process;
// as another user, their own file made read-only stands in for it.
TEST_F(Outputs, FileOthersMayNotWriteIsRefusedAndKept) {
    ASSERT_EQ(::chmod(dir.c_str(), 0777), 0);
    const fs::path file = dir / "kept.csv";
    std::ofstream(file) << "old";
    const bool root = ::geteuid() == 0;
    ASSERT_EQ(::chmod(file.c_str(), root ? 0644 : 0444), 0);
    const std::string reason = root ? "Permission denied" : "the file is read-only";
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        if (::geteuid() == 0 &&
            (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0))
            ::_exit(3);
        if (::access(dir.c_str(), W_OK | X_OK) != 0) ::_exit(4); // a private temporary folder
        std::string checked, written;
        try {
            io::checkOutputPath(file.string(), ".csv");
        } catch (const io::InputError& e) {
            checked = e.what();
        }
        written = writeError(file.string(), "new");
        const bool refused =
            checked.find(reason) != std::string::npos && written.find(reason) != std::string::npos;
        ::_exit(refused ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    if (WEXITSTATUS(status) == 3) GTEST_SKIP() << "root here cannot become nobody (no CAP_SETUID)";
    if (WEXITSTATUS(status) == 4) GTEST_SKIP() << "nobody cannot reach the temporary folder " << dir;
    EXPECT_EQ(WEXITSTATUS(status), 0) << "the file was not refused";
    EXPECT_EQ(contents(file), "old");
    EXPECT_EQ(entries(dir), 1u);
}

// Through a link, two outputs are one file too, and neither is written.
TEST_F(Outputs, OutputsThatAreOneFileThroughALinkAreRefused) {
    std::ofstream(dir / "a.csv") << "old";
    fs::create_symlink("a.csv", dir / "b.json");
    EXPECT_NE(distinctError({(dir / "a.csv").string(), (dir / "b.json").string()}).find("are the same file"),
              std::string::npos);
    EXPECT_THROW(
        io::writeFilesAtomically({{(dir / "a.csv").string(), "csv"}, {(dir / "b.json").string(), "json"}}),
        io::InputError);
    EXPECT_EQ(contents(dir / "a.csv"), "old");
    EXPECT_EQ(entries(dir), 2u);
}

// A CSV through a link and its JSON: one that cannot be written, and neither is replaced; then both.
TEST_F(Outputs, FilesWrittenTogetherThroughALinkAreAllOrNothing) {
    std::ofstream(dir / "run.csv") << "old csv";
    fs::create_symlink("run.csv", dir / "latest.csv");
    EXPECT_THROW(io::writeFilesAtomically({{(dir / "latest.csv").string(), "new csv"},
                                           {(dir / "no" / "run.json").string(), "{}"}}),
                 io::InputError);
    EXPECT_EQ(contents(dir / "run.csv"), "old csv");
    EXPECT_EQ(entries(dir), 2u);
    io::writeFilesAtomically(
        {{(dir / "latest.csv").string(), "new csv"}, {(dir / "run.json").string(), "{}"}});
    EXPECT_TRUE(fs::is_symlink(dir / "latest.csv"));
    EXPECT_EQ(contents(dir / "run.csv"), "new csv");
    EXPECT_EQ(entries(dir), 3u);
}

std::string readError(const fs::path& path, uint64_t maxBytes) {
    try {
        io::readFile(path.string(), maxBytes, "a test file");
    } catch (const io::InputError& e) {
        return e.what();
    }
    return "";
}

// A regular file is read up to the most asked for, and the rest is only counted; io::readFile
// refuses a file that holds more.
TEST_F(Outputs, InputsAreReadUpToTheMostAskedFor) {
    const fs::path file = dir / "ten.txt";
    std::ofstream(file) << "0123456789";
    io::os::FileStart start = io::os::readFileStart(file.string(), 4);
    EXPECT_EQ(start.bytes, "0123");
    EXPECT_EQ(start.size, 10u);
    for (uint64_t most : {10, 100}) {
        start = io::os::readFileStart(file.string(), most);
        EXPECT_EQ(start.bytes, "0123456789");
        EXPECT_EQ(start.size, 10u);
    }
    EXPECT_EQ(io::readFile(file.string(), 10, "a test file"), "0123456789");
    EXPECT_EQ(readError(file, 9), "cannot read '" + file.string() +
                                      "': it holds more than 9 bytes, the most a test file may have");
    // Far larger than its bytes on disk (a sparse file): refused by its size, without reading it.
    fs::resize_file(file, 1ull << 40);
    EXPECT_NE(readError(file, 1 << 20).find("it holds more than 1048576 bytes"), std::string::npos);
    // /proc's files say they hold 0 bytes but hold more: read to their end too, and bounded.
    if (fs::exists("/proc/self/status")) {
        start = io::os::readFileStart("/proc/self/status", 8);
        EXPECT_EQ(start.bytes, "Name:\tun");
        EXPECT_GT(start.size, 8u);
        EXPECT_NE(io::readFile("/proc/self/status", 1 << 20, "a test file").find("Pid:"), std::string::npos);
    }
}

// Only regular files are read: a FIFO that nobody writes is refused at once, not waited on; a device
// that reads zeros for ever (/dev/zero's numbers) is refused without reading it; a directory too.
TEST_F(Outputs, InputsThatAreNoFilesAreRefusedAtOnce) {
    const fs::path fifo = dir / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
    auto fifoError = std::async(std::launch::async, [&] { return readError(fifo, 1 << 20); });
    if (fifoError.wait_for(10s) != std::future_status::ready) {
        // A writer's open releases a reader that waits, so that the test ends; it has failed.
        const int writer = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
        if (writer >= 0) ::close(writer);
        ADD_FAILURE() << "reading a FIFO that nobody writes waited";
    }
    EXPECT_EQ(fifoError.get(), "cannot read '" + fifo.string() + "': it is a FIFO, not a file");
    fs::path zeros = dir / "zeros";
    if (makeCharDevice(dir, "zeros", 5) != 0) zeros = "/dev/zero";
    EXPECT_EQ(readError(zeros, 1 << 20), "cannot read '" + zeros.string() + "': it is a device, not a file");
    EXPECT_EQ(readError(dir, 1 << 20), "cannot read '" + dir.string() + "': it is a directory");
    EXPECT_NE(readError(dir / "absent", 1 << 20).find("No such file or directory"), std::string::npos);
}

// Ctrl-C while outputs are written waits until they are whole: the signal ends the process only
// when the deferral does.
TEST_F(Outputs, AnInterruptWaitsForTheOutputs) {
    const fs::path marker = dir / "after-the-signal";
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        {
            const io::os::DeferInterrupts deferred;
            ::kill(::getpid(), SIGINT);
            std::ofstream(marker) << "still running";
        }
        ::_exit(0); // not reached: the deferred SIGINT ends the process here
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << "status " << status;
    EXPECT_EQ(contents(marker), "still running");
}

// A write that waits on a FIFO nobody reads still ends on Ctrl-C, and leaves no temporary file of
// the file written with it.
TEST_F(Outputs, AnInterruptEndsAWriteThatWaits) {
    const fs::path fifo = dir / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
    const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK); // open, never read
    ASSERT_GE(reader, 0) << std::strerror(errno);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        try {
            io::writeFilesAtomically(
                {{(dir / "rows.csv").string(), "csv"}, {fifo.string(), std::string(1 << 22, 'x')}});
        } catch (const io::InputError&) {
            ::_exit(3); // the deferred signal should have ended the process before this
        }
        ::_exit(4);
    }
    std::this_thread::sleep_for(300ms); // the child fills the FIFO's buffer and waits
    ::kill(child, SIGINT);
    int status = 0;
    const auto deadline = std::chrono::steady_clock::now() + 20s;
    pid_t done = 0;
    while ((done = ::waitpid(child, &status, WNOHANG)) == 0 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(10ms);
    if (done == 0) ::kill(child, SIGKILL), ::waitpid(child, &status, 0);
    ::close(reader);
    EXPECT_NE(done, 0) << "the write waited on, Ctrl-C notwithstanding";
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << "status " << status;
    EXPECT_FALSE(fs::exists(dir / "rows.csv"));
    EXPECT_EQ(entries(dir), 1u) << "a temporary file was left behind";
}

} // namespace
} // namespace test
