// State files: the .npy round trip and every way a file can be wrong.

#include "app/formed_flock.h"
#include "output_test.h"
#include "sim/npy.h"
#include "sim/params.h"
#include "sim/state.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace {

namespace fs = std::filesystem;

std::string header(const std::string& dict, int major = 1) {
    std::string h = dict;
    const size_t pre = major == 1 ? 10 : 12;
    h.append((64 - (pre + h.size() + 1) % 64) % 64, ' ');
    h += '\n';
    std::string out("\x93NUMPY", 6);
    out += char(major);
    out += char(0);
    if (major == 1) {
        out += char(h.size() & 0xff);
        out += char(h.size() >> 8);
    } else {
        for (int i = 0; i < 4; ++i) out += char((h.size() >> (8 * i)) & 0xff);
    }
    return out + h;
}

std::string floats(size_t count, float value = 1.5f) {
    std::string out(count * 4, '\0');
    for (size_t i = 0; i < count; ++i) std::memcpy(&out[i * 4], &value, 4);
    return out;
}

std::string rejection(const std::string& bytes) {
    try {
        sim::decodeNpy(bytes, "f.npy");
    } catch (const io::InputError& e) {
        return e.what();
    }
    return "";
}

class TempDir : public ::testing::Test {
  protected:
    void SetUp() override { dir = test::freshTestDir("vkboids-npy"); }
    void TearDown() override { fs::remove_all(dir); }
    fs::path dir;
};

TEST(Npy, RoundTripKeepsEveryBit) {
    sim::State s = sim::randomState(1001, 7, 100, 1);
    s.data[5] = -0.0f;
    s.data[6] = std::nextafter(100.0f, 0.0f);
    const std::string bytes = sim::encodeNpy(s);
    EXPECT_EQ(bytes.size() % 16, (1001 * 24) % 16); // header padded to a multiple of 64
    EXPECT_EQ((bytes.size() - 1001 * 24) % 64, 0u);
    const sim::State back = sim::decodeNpy(bytes, "x");
    ASSERT_EQ(back.data.size(), s.data.size());
    EXPECT_EQ(std::memcmp(back.data.data(), s.data.data(), s.data.size() * 4), 0);
}

TEST(Npy, AcceptsOtherKeyOrdersAndVersions) {
    EXPECT_EQ(
        sim::decodeNpy(header("{'shape': (2, 6), 'fortran_order': False, 'descr': '<f4'}") + floats(12), "x")
            .count(),
        2u);
    EXPECT_EQ(sim::decodeNpy(header("{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (3,6)}", 2) +
                                 floats(18),
                             "x")
                  .count(),
              3u);
}

TEST(Npy, RejectsMalformedFilesWithOneLineNamingTheProblem) {
    const std::string good = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 6), }";
    EXPECT_NE(rejection("not numpy at all").find("bad magic"), std::string::npos);
    EXPECT_NE(rejection(header(good).substr(0, 20)).find("truncated"), std::string::npos);
    EXPECT_NE(rejection(header(good) + floats(11)).find("truncated"), std::string::npos);
    EXPECT_NE(rejection(header(good) + floats(13)).find("unexpected bytes"), std::string::npos);
    EXPECT_NE(rejection(header("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 6), }") + floats(24))
                  .find("'<f8'"),
              std::string::npos);
    EXPECT_NE(rejection(header("{'descr': '>f4', 'fortran_order': False, 'shape': (2, 6), }") + floats(12))
                  .find("big-endian"),
              std::string::npos);
    EXPECT_NE(rejection(header("{'descr': '<i4', 'fortran_order': False, 'shape': (2, 6), }") + floats(12))
                  .find("not float32"),
              std::string::npos);
    EXPECT_NE(rejection(header("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 6), }") + floats(12))
                  .find("Fortran"),
              std::string::npos);
    EXPECT_NE(rejection(header("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 5), }") + floats(10))
                  .find("(2, 5)"),
              std::string::npos);
    EXPECT_NE(rejection(header("{'descr': '<f4', 'fortran_order': False, 'shape': (12,), }") + floats(12))
                  .find("is not (N, 6)"),
              std::string::npos);
    EXPECT_NE(rejection(header("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 6, 1), }") + floats(12))
                  .find("is not (N, 6)"),
              std::string::npos);
    EXPECT_NE(
        rejection(header("{'descr': '<f4', 'fortran_order': False, 'shape': (0, 6), }")).find("no boids"),
        std::string::npos);
    EXPECT_NE(rejection(header("{'descr': '<f4', 'shape': (2, 6), }") + floats(12)).find("lacks"),
              std::string::npos);
    EXPECT_NE(rejection(header("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 6), 'extra': 1}") +
                        floats(12))
                  .find("unexpected key"),
              std::string::npos);
    EXPECT_NE(rejection(header("['descr']") + floats(12)).find("malformed"), std::string::npos);
    std::string v4 = header(good);
    v4[6] = 4;
    EXPECT_NE(rejection(v4 + floats(12)).find("version 4.0"), std::string::npos);
    for (float bad : {NAN, INFINITY, -INFINITY}) {
        std::string data = floats(12);
        std::memcpy(&data[7 * 4], &bad, 4);
        EXPECT_NE(rejection(header(good) + data).find("row 1 holds a non-finite"), std::string::npos);
    }
    for (int column = 0; column < 6; ++column) { // velocities only: positions are wrapped
        std::string data = floats(12);
        const float huge = column % 2 ? 3e38f : -1.5e18f;
        std::memcpy(&data[(6 + column) * 4], &huge, 4);
        const std::string message = rejection(header(good) + data);
        if (column < 3)
            EXPECT_EQ(message, "") << column;
        else
            EXPECT_NE(message.find("row 1 has a velocity beyond 1e18"), std::string::npos) << message;
    }
    for (const std::string& message : {rejection("x"), rejection(header(good))})
        EXPECT_EQ(message.find('\n'), std::string::npos);
}

TEST_F(TempDir, SaveReplacesAtomicallyAndFailuresLoseNothing) {
    const sim::State s = sim::randomState(10, 1, 10, 1);
    const std::string path = (dir / "state.npy").string();
    sim::saveNpy(path, s);
    EXPECT_EQ(sim::loadNpy(path).data, s.data);
    // Overwrite with another state: no temporary files left behind.
    const sim::State t = sim::randomState(20, 2, 10, 1);
    sim::saveNpy(path, t);
    EXPECT_EQ(sim::loadNpy(path).data, t.data);
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);

    // A directory where the file should go: an error, and the directory is untouched.
    fs::create_directory(dir / "taken");
    EXPECT_THROW(sim::saveNpy((dir / "taken").string(), s), io::InputError);
    EXPECT_TRUE(fs::is_directory(dir / "taken"));
    EXPECT_THROW(sim::saveNpy((dir / "missing" / "x.npy").string(), s), io::InputError);
    EXPECT_THROW(io::checkWritable((dir / "missing" / "x.npy").string()), io::InputError);
    EXPECT_THROW(sim::loadNpy((dir / "absent.npy").string()), io::InputError);
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 2);

    // Files written together: one bad target, and none of them appears.
    EXPECT_THROW(
        io::writeFilesAtomically({{(dir / "one.csv").string(), "a"}, {(dir / "taken").string(), "b"}}),
        io::InputError);
    EXPECT_FALSE(fs::exists(dir / "one.csv"));
    io::writeFilesAtomically({{(dir / "one.csv").string(), "a"}, {(dir / "one.json").string(), "b"}});
    EXPECT_TRUE(fs::exists(dir / "one.csv") && fs::exists(dir / "one.json"));
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 4);
}

std::string loadError(const fs::path& path) {
    try {
        sim::loadNpy(path.string());
    } catch (const io::InputError& e) {
        return e.what();
    }
    return "";
}

// A state larger than the first read (the header's megabyte) loads whole: its header first, then
// exactly the data that its shape says.
TEST_F(TempDir, LargeStateLoadsBack) {
    const sim::State s = sim::randomState(50000, 3, 100, 1);
    const fs::path file = dir / "large.npy";
    sim::saveNpy(file.string(), s);
    ASSERT_GT(fs::file_size(file), 1u << 20);
    EXPECT_EQ(sim::loadNpy(file.string()).data, s.data);
}

// A file far longer than its shape says (a sparse gigabyte here) is refused by its size before its
// data is read, and so is one far shorter.
TEST_F(TempDir, FileLongerOrShorterThanItsShapeIsRefusedBeforeReading) {
    const std::string tenBoids = header("{'descr': '<f4', 'fortran_order': False, 'shape': (10, 6), }");
    const fs::path longer = dir / "longer.npy";
    std::ofstream(longer, std::ios::binary) << tenBoids << floats(60);
    fs::resize_file(longer, 1ull << 30);
    EXPECT_EQ(loadError(longer), longer.string() + ": " +
                                     std::to_string((1ull << 30) - tenBoids.size() - 240) +
                                     " unexpected bytes after the data");
    const std::string manyBoids = header("{'descr': '<f4', 'fortran_order': False, 'shape': (100000, 6), }");
    const fs::path shorter = dir / "shorter.npy";
    std::ofstream(shorter, std::ios::binary) << manyBoids;
    fs::resize_file(shorter, 3 << 19);
    EXPECT_EQ(loadError(shorter), shorter.string() + ": truncated: 2400000 bytes of data expected, " +
                                      std::to_string((3 << 19) - manyBoids.size()) + " found");
    // A header longer than any numpy writes is refused without reading on.
    std::string huge = header("{'descr': '<f4', 'fortran_order': False, 'shape': (10, 6), }", 2);
    huge[10] = char(0x20); // 2 MiB and a little
    EXPECT_EQ(rejection(huge), "f.npy: the .npy header is longer than 1048576 bytes");
}

} // namespace

namespace {

// Neighbours within `radius` (minimum image) of every 50th boid, on average.
double meanNeighbours(const sim::State& s, float domainHalf, float radius) {
    const float side = 2 * domainHalf;
    uint64_t found = 0, sampled = 0;
    for (uint32_t i = 0; i < s.count(); i += 50, ++sampled)
        for (uint32_t j = 0; j < s.count(); ++j) {
            if (j == i) continue;
            float d2 = 0;
            for (int a = 0; a < 3; ++a) {
                float d = s.data[6 * j + a] - s.data[6 * i + a];
                d -= side * std::round(d / side);
                d2 += d * d;
            }
            found += d2 < radius * radius;
        }
    return double(found) / double(sampled);
}

} // namespace

// The flock the demo opens on decodes, lies in the default domain at the default speed limit, and is
// formed: a boid has many times the neighbours that the random start of the same density gives.
TEST(FormedFlock, LoadsAndIsFormed) {
    const sim::State formed = app::formedFlock();
    ASSERT_EQ(formed.count(), app::formedFlockBoids);
    const sim::Params p;
    for (uint32_t i = 0; i < formed.count(); ++i) {
        const float* b = &formed.data[6 * i];
        for (int a = 0; a < 3; ++a) ASSERT_TRUE(b[a] >= -p.domainHalf && b[a] < p.domainHalf) << i;
        EXPECT_LE(std::hypot(b[3], b[4], b[5]), p.maxSpeed * 1.0001f) << i;
    }
    const sim::State scattered = sim::randomState(formed.count(), 1, p.domainHalf, p.maxSpeed);
    const double random = meanNeighbours(scattered, p.domainHalf, p.cohesionRadius);
    const double flocked = meanNeighbours(formed, p.domainHalf, p.cohesionRadius);
    EXPECT_LT(random, 2.0); // 20,000 boids in 200^3: 1.3 within 5 of each
    EXPECT_GT(flocked, 5 * random) << "random start " << random;
}
