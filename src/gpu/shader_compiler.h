#pragma once
// GLSL compiled by the running program (libshaderc), for --shaders: the same modules as the build's
// glslc step (shaders/CMakeLists.txt), with its options, include folder and definitions, so that
// unchanged sources give the embedded modules word for word.

#include "gpu/shaders.h"
#include "io/output.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpu {

// A file a module was compiled from: its path relative to the folder, and a hash of the bytes read.
struct SourceFile {
    std::string path;
    uint64_t hash = 0;
};

// A module from source, in place of the embedded module of the same name.
struct SourceModule {
    std::string name;
    std::vector<uint32_t> spirv;
    std::vector<SourceFile> files; // the source first, then each file it includes, once
};

// GLSL that does not compile, or a module the program cannot feed. The message is one or more lines,
// each "FILE:LINE: error: what" where the compiler gave a line (a line of an included file is counted
// in that file), or "FILE: what".
struct ShaderError : io::InputError {
    using io::InputError::InputError;
    ShaderError(const std::string& message, std::vector<std::string> files)
        : io::InputError(message), files(std::move(files)) {}
    // What compileModule read, or looked for and did not find, before it failed: where a fix will come.
    std::vector<std::string> files;
};

// The largest source or included file read (bytes), and the deepest nesting of includes.
constexpr uint64_t maxShaderFileBytes = 1 << 20;
constexpr size_t maxIncludeDepth = 32;

// Compiles `shader` from the GLSL under `folder`. Safe to call from several threads at once. Throws
// ShaderError: on a compile error; on a file that is missing, not a regular file, larger than
// maxShaderFileBytes or not UTF-8 text; on an include that loops or nests deeper than maxIncludeDepth;
// and on an interface that differs from the embedded module's (checkInterface).
SourceModule compileModule(const std::string& folder, const EmbeddedShader& shader);

// Throws ShaderError when `spirv` has an interface that the program, written for the embedded
// module, cannot feed: another stage or local size, a binding that is new or of another type, a
// push-constant block of another size, or a specialization constant that is new or has another id (a
// renamed one would keep its default, which the program may not allow). A binding, push-constant
// block or specialization constant that the compiler dropped because the code no longer uses it is
// no error. A specialization constant made a plain constant is not caught.
void checkInterface(const EmbeddedShader& shader, std::span<const uint32_t> spirv);

// Every embedded module compiled from `folder`, on all cores. Throws the first module's ShaderError
// (in the order of embeddedShaders()), or io::InputError when `folder` is not a folder.
std::vector<SourceModule> compileAllModules(const std::string& folder);

// A 64-bit hash of the files that `modules` were compiled from (each once: its path and its bytes),
// as 16 hex digits: what tells one set of sources from another in a result.
std::string sourceHash(const std::vector<SourceModule>& modules);

} // namespace gpu
