#include "sim/npy.h"

#include "io/input.h"
#include "io/output.h"
#include "io/platform.h"

#include <cctype>
#include <cmath>
#include <cstring>
#include <optional>

namespace sim {
namespace {

using io::InputError;

const char magic[] = "\x93NUMPY";

[[noreturn]] void fail(const std::string& name, const std::string& what) {
    throw InputError(name + ": " + what);
}

// A minimal reader for the Python literal dict of an .npy header.
struct HeaderParser {
    const std::string& s;
    const std::string& name;
    size_t at = 0;

    void skipSpace() {
        while (at < s.size() && (s[at] == ' ' || s[at] == '\t' || s[at] == '\n')) ++at;
    }
    bool accept(char c) {
        skipSpace();
        if (at < s.size() && s[at] == c) {
            ++at;
            return true;
        }
        return false;
    }
    void expect(char c) {
        if (!accept(c)) fail(name, std::string("malformed .npy header (expected '") + c + "')");
    }
    std::string string() {
        skipSpace();
        if (at >= s.size() || (s[at] != '\'' && s[at] != '"'))
            fail(name, "malformed .npy header (expected a string)");
        const char quote = s[at++];
        const size_t end = s.find(quote, at);
        if (end == std::string::npos) fail(name, "malformed .npy header (unterminated string)");
        std::string out = s.substr(at, end - at);
        at = end + 1;
        return out;
    }
    bool boolean() {
        skipSpace();
        if (s.compare(at, 4, "True") == 0) return at += 4, true;
        if (s.compare(at, 5, "False") == 0) return at += 5, false;
        fail(name, "malformed .npy header (expected True or False)");
    }
    std::vector<uint64_t> tuple() {
        expect('(');
        std::vector<uint64_t> dims;
        while (!accept(')')) {
            skipSpace();
            if (at >= s.size() || !std::isdigit(uint8_t(s[at])))
                fail(name, "malformed .npy header (bad shape)");
            uint64_t v = 0;
            while (at < s.size() && std::isdigit(uint8_t(s[at]))) {
                v = v * 10 + uint64_t(s[at++] - '0');
                if (v > (1ull << 40)) fail(name, "shape is too large");
            }
            dims.push_back(v);
            if (!accept(',')) {
                expect(')');
                break;
            }
        }
        return dims;
    }
};

std::string shapeText(const std::vector<uint64_t>& dims) {
    std::string out = "(";
    for (size_t i = 0; i < dims.size(); ++i) out += (i ? ", " : "") + std::to_string(dims[i]);
    return out + (dims.size() == 1 ? ",)" : ")");
}

} // namespace

std::string encodeNpy(const State& state) {
    std::string dict =
        "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(state.count()) + ", 6), }";
    // Version 1.0: 10 bytes of preamble; the header is padded with spaces to a multiple of 64 and ends in
    // '\n'.
    size_t total = 10 + dict.size() + 1;
    dict.append((64 - total % 64) % 64, ' ');
    dict += '\n';
    std::string out(magic, 6);
    out += char(1);
    out += char(0);
    out += char(dict.size() & 0xff);
    out += char(dict.size() >> 8);
    out += dict;
    out.append(reinterpret_cast<const char*>(state.data.data()), state.data.size() * sizeof(float));
    return out;
}

namespace {

// More than any header numpy writes (version 1.0 allows 64 KiB), and the most of a file read before
// its shape is known.
const size_t maxHeaderBytes = 1 << 20;

struct NpyHeader {
    size_t dataStart = 0; // where the data begins: the preamble and the header dict before it
    uint64_t count = 0;   // the boids of its shape (N, 6)
};

// Checks the preamble and the header dict, which `bytes` must hold whole; what follows them need not
// be there.
NpyHeader parseHeader(const std::string& bytes, const std::string& name) {
    if (bytes.size() < 10 || bytes.compare(0, 6, magic, 6) != 0) fail(name, "not an .npy file (bad magic)");
    const uint8_t major = uint8_t(bytes[6]), minor = uint8_t(bytes[7]);
    size_t headerLength = 0, headerStart = 0;
    if (major == 1) {
        headerLength = uint8_t(bytes[8]) | size_t(uint8_t(bytes[9])) << 8;
        headerStart = 10;
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12) fail(name, "truncated .npy header");
        headerLength = uint8_t(bytes[8]) | size_t(uint8_t(bytes[9])) << 8 | size_t(uint8_t(bytes[10])) << 16 |
                       size_t(uint8_t(bytes[11])) << 24;
        headerStart = 12;
    } else {
        fail(name, "unsupported .npy version " + std::to_string(major) + "." + std::to_string(minor));
    }
    if (minor != 0)
        fail(name, "unsupported .npy version " + std::to_string(major) + "." + std::to_string(minor));
    if (headerLength > maxHeaderBytes - headerStart)
        fail(name, "the .npy header is longer than " + std::to_string(maxHeaderBytes) + " bytes");
    if (headerStart + headerLength > bytes.size()) fail(name, "truncated .npy header");
    const std::string header = bytes.substr(headerStart, headerLength);
    if (header.empty() || header.back() != '\n') fail(name, "malformed .npy header (no terminating newline)");

    HeaderParser parser{header, name};
    std::string descr;
    bool fortran = false, haveDescr = false, haveOrder = false, haveShape = false;
    std::vector<uint64_t> shape;
    parser.expect('{');
    while (!parser.accept('}')) {
        const std::string key = parser.string();
        parser.expect(':');
        if (key == "descr")
            descr = parser.string(), haveDescr = true;
        else if (key == "fortran_order")
            fortran = parser.boolean(), haveOrder = true;
        else if (key == "shape")
            shape = parser.tuple(), haveShape = true;
        else
            fail(name, "unexpected key '" + key + "' in the .npy header");
        if (!parser.accept(',')) {
            parser.expect('}');
            break;
        }
    }
    if (!haveDescr || !haveOrder || !haveShape)
        fail(name, "the .npy header lacks descr, fortran_order or shape");
    if (descr == ">f4") fail(name, "dtype '>f4' (big-endian float32) is not supported; save as '<f4'");
    if (descr != "<f4") fail(name, "dtype '" + descr + "' is not float32 ('<f4')");
    if (fortran) fail(name, "Fortran order is not supported; save in C order");
    if (shape.size() != 2 || shape[1] != 6) fail(name, "shape " + shapeText(shape) + " is not (N, 6)");
    if (shape[0] == 0) fail(name, "the file holds no boids (shape (0, 6))");
    if (shape[0] > 0xffffffffull) fail(name, "too many boids for one flock");
    return {headerStart + headerLength, shape[0]};
}

uint64_t dataBytes(const NpyHeader& header) {
    return header.count * 6 * sizeof(float);
}

// The data must be exactly what the shape says: a file cut short, or one with more after its data.
void checkDataSize(const NpyHeader& header, uint64_t found, const std::string& name) {
    const uint64_t expected = dataBytes(header);
    if (found < expected)
        fail(name, "truncated: " + std::to_string(expected) + " bytes of data expected, " +
                       std::to_string(found) + " found");
    if (found > expected) fail(name, std::to_string(found - expected) + " unexpected bytes after the data");
}

} // namespace

State decodeNpy(const std::string& bytes, const std::string& name) {
    const NpyHeader header = parseHeader(bytes, name);
    checkDataSize(header, bytes.size() - header.dataStart, name);
    const uint64_t expected = dataBytes(header);
    State state;
    state.data.resize(header.count * 6);
    std::memcpy(state.data.data(), bytes.data() + header.dataStart, expected);
    for (size_t i = 0; i < state.data.size(); ++i)
        if (!std::isfinite(state.data[i]))
            fail(name, "row " + std::to_string(i / 6) + " holds a non-finite value (NaN or infinity)");
    // The first step caps speeds at the maximum, but it sums neighbours' velocities before that: up to
    // 2^32 of them a boid, which stays finite in float32 only up to about 1e28 a component.
    for (size_t i = 3; i < state.data.size(); i += 6)
        for (size_t a = 0; a < 3; ++a)
            if (std::abs(state.data[i + a]) > 1e18f)
                fail(name,
                     "row " + std::to_string(i / 6) +
                         " has a velocity beyond 1e18 a component (a step's neighbour sums would overflow)");
    return state;
}

// The header first, and the data only when the file's size is exactly what its shape says: a device
// that never ends, or a file far longer than its header claims, is refused before it fills memory.
State loadNpy(const std::string& path) {
    const io::os::FileStart start = io::os::readFileStart(path, maxHeaderBytes);
    if (start.size == start.bytes.size()) return decodeNpy(start.bytes, path);
    const NpyHeader header = parseHeader(start.bytes, path);
    checkDataSize(header, start.size - header.dataStart, path);
    return decodeNpy(io::readFile(path, header.dataStart + dataBytes(header), "this state file"), path);
}

void saveNpy(const std::string& path, const State& state) {
    io::writeFileAtomically(path, encodeNpy(state));
}

} // namespace sim
