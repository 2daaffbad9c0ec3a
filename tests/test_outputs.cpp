// Output files, on every system: a failure leaves nothing, and two names for one file are refused.

#include "output_test.h"

#include <gtest/gtest.h>

#include <tuple>
#include <vector>

namespace test {
namespace {

TEST_F(Outputs, EmptyPathsDirectoriesAndWrongExtensionsAreRefused) {
    fs::create_directory(dir / "taken.npy");
    const std::string taken = (dir / "taken.npy").string();
    const std::vector<std::tuple<std::string, const char*, std::string>> refused = {
        {"", ".npy", "the path is empty"},
        {taken, ".npy", "it is a directory"},
        {(dir / "state.txt").string(), ".npy", "must end in .npy"},
        {(dir / "state").string(), ".npy", "must end in .npy"},
        {(dir / ".npy").string(), ".npy", "must end in .npy"},
        {(dir / "shot.jpg").string(), ".png", "must end in .png"},
        {(dir / "rows.json").string(), ".csv", "must end in .csv"},
        {(dir / "summary.csv").string(), ".json", "must end in .json"},
        {(dir / "no" / "such.csv").string(), ".csv", "cannot write"},
    };
    for (const auto& [path, extension, mention] : refused) {
        const std::string message = outputPathError(path, extension);
        EXPECT_NE(message.find(mention), std::string::npos) << "'" << path << "': '" << message << "'";
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
    EXPECT_EQ(outputPathError((dir / "state.NPY").string(), ".npy"), "");
    EXPECT_EQ(outputPathError((dir / "shot.png").string(), ".png"), "");
    EXPECT_NE(writeError("", "x").find("the path is empty"), std::string::npos);
    EXPECT_NE(writeError(taken, "x").find("it is a directory"), std::string::npos);
    EXPECT_TRUE(fs::is_directory(taken));
    EXPECT_EQ(entries(dir), 1u);
}

// A CSV and its JSON: one that cannot be written, and neither file is replaced.
TEST_F(Outputs, FilesWrittenTogetherAreAllOrNothing) {
    std::ofstream(dir / "run.csv") << "old csv";
    EXPECT_THROW(io::writeFilesAtomically(
                     {{(dir / "run.csv").string(), "new csv"}, {(dir / "no" / "run.json").string(), "{}"}}),
                 io::InputError);
    EXPECT_EQ(contents(dir / "run.csv"), "old csv");
    EXPECT_EQ(entries(dir), 1u);
    io::writeFilesAtomically({{(dir / "run.csv").string(), "new csv"}, {(dir / "run.json").string(), "{}"}});
    EXPECT_EQ(contents(dir / "run.csv"), "new csv");
    EXPECT_EQ(contents(dir / "run.json"), "{}");
    EXPECT_EQ(entries(dir), 2u);
}

// Two outputs that are one file (another spelling or a hard link) are refused before
// anything is written: the second would replace the first.
TEST_F(Outputs, OutputsThatAreOneFileAreRefused) {
    const fs::path a = dir / "a.csv";
    std::ofstream(a) << "old";
    fs::create_hard_link(a, dir / "c.json");
    const std::string same = "are the same file";
    EXPECT_NE(distinctError({a.string(), (dir / "." / "a.csv").string()}).find(same), std::string::npos);
    EXPECT_NE(distinctError({a.string(), (dir / "c.json").string()}).find(same), std::string::npos);
    EXPECT_NE(distinctError({(dir / "new.csv").string(), (dir / ".." / dir.filename() / "new.csv").string()})
                  .find(same),
              std::string::npos);
    // A file not made yet, named relative to the working folder and absolutely (where one can be
    // named from the other: on Windows, they may be on different drives).
    const fs::path relative = fs::relative(dir / "new.csv");
    if (!relative.empty()) {
        EXPECT_NE(distinctError({relative.string(), (dir / "new.csv").string()}).find(same),
                  std::string::npos);
    }
    EXPECT_EQ(distinctError({a.string(), (dir / "a.json").string(), (dir / "new.csv").string()}), "");
    std::string error;
    try {
        io::writeFilesAtomically({{a.string(), "csv"}, {(dir / "c.json").string(), "json"}});
    } catch (const io::InputError& e) {
        error = e.what();
    }
    EXPECT_NE(error.find(same), std::string::npos) << error;
    EXPECT_EQ(contents(a), "old");
    EXPECT_EQ(entries(dir), 2u);
}

// A file the user did not name (a capture's JSON beside its CSV) is a new or regular file only.
TEST_F(Outputs, TheFileBesideIsANewOrRegularFile) {
    const std::string csv = (dir / "run.csv").string(), json = (dir / "run.json").string();
    EXPECT_EQ(io::besidePath(csv, ".json"), json);
    EXPECT_EQ(io::besidePath((dir / "a.d" / "run").string(), ".json"), (dir / "a.d" / "run.json").string());
    EXPECT_EQ(besideError(json, csv), "");
    std::ofstream(json) << "old";
    EXPECT_EQ(besideError(json, csv), "");
    fs::remove(json);
    fs::create_directory(json);
    const std::string message = besideError(json, csv);
    EXPECT_EQ(message, "cannot write '" + json + "' beside '" + csv +
                           "': it is a directory (only a path given on the command line is followed or "
                           "written into)");
    EXPECT_TRUE(fs::is_directory(json));
    EXPECT_EQ(entries(dir), 1u);
}

} // namespace
} // namespace test
