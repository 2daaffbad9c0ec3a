#pragma once
// The output tests' folder and helpers, shared by the portable tests and each system's own.

#include "io/output.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#ifdef _WIN32
#include <process.h>
#else
#include <unistd.h>
#endif

namespace test {

namespace fs = std::filesystem;

inline int processId() {
#ifdef _WIN32
    return _getpid();
#else
    return int(::getpid());
#endif
}

// A fresh folder in the system's temporary folder, unique to this process and test.
inline fs::path freshTestDir(const std::string& prefix) {
    const fs::path dir =
        fs::temp_directory_path() / (prefix + "-" + std::to_string(processId()) + "-" +
                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

inline std::string contents(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

inline std::string writeError(const std::string& path, const std::string& bytes) {
    try {
        io::writeFileAtomically(path, bytes);
    } catch (const io::InputError& e) {
        return e.what();
    }
    return "";
}

inline std::string outputPathError(const std::string& path, const char* extension) {
    try {
        io::checkOutputPath(path, extension);
    } catch (const io::InputError& e) {
        return e.what();
    }
    return "";
}

inline std::string distinctError(const std::vector<std::string>& paths) {
    try {
        io::checkDistinctOutputs(paths);
    } catch (const io::InputError& e) {
        return e.what();
    }
    return "";
}

// The error checking `path` as the file beside `named` throws, or "".
inline std::string besideError(const std::string& path, const std::string& named) {
    try {
        io::checkBesideWritable(path, named);
    } catch (const io::InputError& e) {
        return e.what();
    }
    return "";
}

inline size_t entries(const fs::path& dir) {
    return size_t(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

// The names in `dir`, for a failure's message.
inline std::string names(const fs::path& dir) {
    std::string out;
    for (const auto& entry : fs::directory_iterator(dir))
        out += " '" + entry.path().filename().string() + "'";
    return out;
}

class Outputs : public ::testing::Test {
  protected:
    void SetUp() override { dir = freshTestDir("vkboids-outputs"); }
    void TearDown() override { fs::remove_all(dir); }

    fs::path dir;
};

} // namespace test
