#include "gpu/shader_compiler.h"

#include "gpu/check.h"
#include "gpu/spirv_reflect.h"
#include "io/input.h"
#include "io/platform.h"

#include <shaderc/shaderc.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <thread>

namespace gpu {
namespace {

namespace fs = std::filesystem;

uint64_t fnv1a(std::string_view bytes, uint64_t hash = 0xcbf29ce484222325ull) {
    for (unsigned char c : bytes) hash = (hash ^ c) * 0x100000001b3ull;
    return hash;
}

// Where the first byte that is not UTF-8 text lies ("byte 0xff on line 3"), or nothing. A NUL byte
// counts as not text: a file cut short by an editor, or a binary saved in its place.
std::optional<std::string> notUtf8(std::string_view text) {
    size_t line = 1;
    for (size_t i = 0; i < text.size();) {
        const unsigned char c = text[i];
        size_t length = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
        bool ok = length != 0 && c != 0 && i + length <= text.size();
        for (size_t k = 1; ok && k < length; ++k) ok = (static_cast<unsigned char>(text[i + k]) >> 6) == 0x2;
        if (!ok) {
            char what[64];
            std::snprintf(what, sizeof what, "byte 0x%02x on line %zu", c, line);
            return std::string(what);
        }
        if (c == '\n') ++line;
        i += length;
    }
    return std::nullopt;
}

// The file's text, or ShaderError "NAME: why" naming it as the user knows it (relative to the folder).
std::string readSource(const fs::path& path, const std::string& name) {
    std::string text;
    try {
        text = io::readFile(io::os::utf8(path), maxShaderFileBytes, "a shader source");
    } catch (const io::InputError& e) {
        throw ShaderError(name + ": " + e.what());
    }
    if (const std::optional<std::string> where = notUtf8(text))
        throw ShaderError(name + ": not UTF-8 text (" + *where + ")");
    if (text.rfind("\xef\xbb\xbf", 0) == 0) text.erase(0, 3); // a byte-order mark, which some editors write
    return text;
}

// `path` relative to the folder where it lies inside it, with '/' between parts on every system.
std::string displayName(const fs::path& folder, const fs::path& path) {
    fs::path shown = path.lexically_normal().lexically_relative(folder);
    if (shown.empty() || *shown.begin() == "..") shown = path.lexically_normal();
    return io::os::utf8(fs::path(shown.generic_u8string()));
}

// Resolves #include as glslc does with -I FOLDER: "name" from the including file's folder and then
// FOLDER, <name> from FOLDER alone. Records each file read, and refuses loops and deep nesting with a
// message that the compiler reports at the #include's line.
class Includer : public shaderc::CompileOptions::IncluderInterface {
  public:
    struct NotFound : ShaderError {
        using ShaderError::ShaderError;
    };

    Includer(fs::path folder, std::string source, std::vector<SourceFile>& files)
        : folder_(std::move(folder)), stack_{std::move(source)}, files_(files) {}

    shaderc_include_result* GetInclude(const char* requested, shaderc_include_type type,
                                       const char* requesting, size_t depth) override {
        auto result = std::make_unique<Result>();
        // The compiler asks for a "name" include again as a <name> include when the first answer
        // failed; a failure other than a missing file is the answer to both.
        const std::string asked = std::string(requesting) + "\n" + requested;
        try {
            if (type == shaderc_include_type_standard && failedAsked_ == asked) throw ShaderError(failure_);
            stack_.resize(std::min(depth, stack_.size()));
            const fs::path found = find(requested, type, requesting);
            result->name = displayName(folder_, found);
            if (std::find(stack_.begin(), stack_.end(), result->name) != stack_.end()) {
                std::string chain;
                for (const std::string& file : stack_) chain += file + " -> ";
                throw ShaderError("the includes loop: " + chain + result->name);
            }
            if (depth > maxIncludeDepth)
                throw ShaderError("includes nest deeper than " + std::to_string(maxIncludeDepth));
            result->text = readSource(found, result->name);
            stack_.push_back(result->name);
            const SourceFile file{result->name, fnv1a(result->text)};
            if (std::none_of(files_.begin(), files_.end(),
                             [&](const SourceFile& f) { return f.path == file.path; }))
                files_.push_back(file);
        } catch (const ShaderError& e) {
            result->name.clear(); // an empty name tells the compiler that the include failed
            result->text = e.what();
            failedAsked_ = dynamic_cast<const NotFound*>(&e) ? "" : asked;
            failure_ = e.what();
        } catch (const std::exception& e) { // nothing may unwind through the compiler's C callback
            result->name.clear();
            result->text = e.what();
        }
        result->result = {result->name.c_str(), result->name.size(), result->text.c_str(),
                          result->text.size(), result.get()};
        return &result.release()->result;
    }

    void ReleaseInclude(shaderc_include_result* data) override {
        delete static_cast<Result*>(data->user_data);
    }

  private:
    struct Result {
        shaderc_include_result result{};
        std::string name, text;
    };

    fs::path find(const std::string& requested, shaderc_include_type type,
                  const std::string& requesting) const {
        fs::path wanted = folder_ / io::os::fsPath(requested);
        if (type == shaderc_include_type_relative) {
            const fs::path beside =
                (folder_ / io::os::fsPath(requesting)).parent_path() / io::os::fsPath(requested);
            std::error_code error;
            if (fs::exists(beside, error)) return beside; // readSource refuses what is not a file
            wanted = beside;
        }
        const fs::path inFolder = folder_ / io::os::fsPath(requested);
        std::error_code error;
        if (fs::exists(inFolder, error)) return inFolder;
        // Watched where it was looked for first, so that creating it there is seen.
        const std::string name = displayName(folder_, wanted);
        if (std::none_of(files_.begin(), files_.end(), [&](const SourceFile& f) { return f.path == name; }))
            files_.push_back({name, 0});
        throw NotFound("no file '" + requested + "' beside " + requesting + " or in " +
                       io::os::utf8(folder_));
    }

    fs::path folder_;
    std::vector<std::string> stack_;    // the files being read, from the source down to the current include
    std::string failedAsked_, failure_; // the last include that failed for a reason other than a missing file
    std::vector<SourceFile>& files_;
};

shaderc_shader_kind kindOf(std::string_view source) {
    const std::string_view ext = source.substr(source.rfind('.') + 1);
    if (ext == "vert") return shaderc_glsl_vertex_shader;
    if (ext == "frag") return shaderc_glsl_fragment_shader;
    CHECK(ext == "comp");
    return shaderc_glsl_compute_shader;
}

// "FILE:LINE: error: ..." lines as the compiler wrote them, without its closing count of errors. An
// include that failed is said as the includer said it, where it was included, and alone: the errors
// after it only follow from the missing text.
std::string compilerMessage(const std::string& log) {
    std::string message;
    size_t start = 0;
    while (start < log.size()) {
        size_t end = log.find('\n', start);
        if (end == std::string::npos) end = log.size();
        std::string line = log.substr(start, end - start);
        start = end + 1;
        if (line.empty() || line.find(" error generated") != std::string::npos ||
            line.find(" errors generated") != std::string::npos)
            continue;
        const std::string includeFailed = ": error: '#include' : ";
        if (const size_t at = line.find(includeFailed); at != std::string::npos) {
            std::string why = line.substr(at + includeFailed.size());
            why = why.substr(0, why.rfind(" for header name: "));
            return why + " (included at " + line.substr(0, at) + ")";
        }
        message += (message.empty() ? "" : "\n") + line;
    }
    return message.empty() ? "the compiler failed without a message" : message;
}

std::string bindingName(VkDescriptorType type) {
    switch (type) {
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER: return "a storage buffer";
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER: return "a uniform buffer";
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE: return "a storage image";
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER: return "a sampled image";
    default: return "descriptor type " + std::to_string(int(type));
    }
}

} // namespace

void checkInterface(const EmbeddedShader& shader, std::span<const uint32_t> spirv) {
    const std::string name(shader.source);
    ShaderReflection now, before;
    try {
        now = reflectSpirv(spirv, UnusedBindings::Allowed);
    } catch (const Error& e) {
        throw ShaderError(name + ": " + e.what());
    }
    before = reflectSpirv(shader.spirv);
    if (now.stage != before.stage) throw ShaderError(name + ": the stage changed");
    for (int axis = 0; axis < 3; ++axis)
        if (now.localSize[axis] != before.localSize[axis] ||
            now.localSizeSpecId[axis] != before.localSizeSpecId[axis])
            throw ShaderError(name + ": the work-group size changed (local_size_" + "xyz"[axis] +
                              "); the program dispatches the groups of the built-in shader");
    for (uint32_t b = 0; b < now.bindings.size(); ++b) {
        if (now.bindings[b] == unusedBinding) continue;
        if (b >= before.bindings.size())
            throw ShaderError(name + ": binding " + std::to_string(b) + " is new (" +
                              bindingName(now.bindings[b]) + "); the program binds only bindings 0 to " +
                              std::to_string(before.bindings.size() - 1));
        if (now.bindings[b] != before.bindings[b])
            throw ShaderError(name + ": binding " + std::to_string(b) + " is now " +
                              bindingName(now.bindings[b]) + ", and the program binds " +
                              bindingName(before.bindings[b]) + " there");
    }
    for (const SpecConstantId& c : now.specConstants) {
        const auto same = std::find_if(before.specConstants.begin(), before.specConstants.end(),
                                       [&](const SpecConstantId& b) { return b.name == c.name; });
        if (same == before.specConstants.end())
            throw ShaderError(name + ": the specialization constant " + c.name +
                              " is new; the program sets only those of the built-in shader");
        if (same->id != c.id)
            throw ShaderError(name + ": the specialization constant " + c.name + " now has constant_id " +
                              std::to_string(c.id) + ", and the program sets it as " +
                              std::to_string(same->id));
    }
    if (now.pushConstantSize != 0 && now.pushConstantSize != before.pushConstantSize)
        throw ShaderError(name + ": the push-constant block is now " + std::to_string(now.pushConstantSize) +
                          " bytes, and the program pushes " + std::to_string(before.pushConstantSize));
}

SourceModule compileModule(const std::string& folderName, const EmbeddedShader& shader) {
    const fs::path folder = io::os::fsPath(folderName).lexically_normal();
    SourceModule module{std::string(shader.name), {}, {}};
    const std::string source(shader.source);
    const std::string text = readSource(folder / io::os::fsPath(source), source);
    module.files.push_back({source, fnv1a(text)});
    // Without "#version 450" or later first, glslang fails on its own built-ins and prints them all.
    const size_t version = text.find_first_not_of(" \t\r\n");
    int number = 0;
    if (version == std::string::npos || text.compare(version, 8, "#version") != 0 ||
        std::sscanf(text.c_str() + version + 8, "%d", &number) != 1 || number < 450)
        throw ShaderError(source +
                              ":1: error: the shader must begin with #version 450 or later (the built-in " +
                              "shaders have #version 460)",
                          {source});

    shaderc::CompileOptions options;
    options.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_3);
    options.SetOptimizationLevel(shaderc_optimization_level_performance);
    options.SetGenerateDebugInfo();
    options.SetWarningsAsErrors();
    size_t start = 0;
    while (start < shader.defines.size()) {
        size_t end = shader.defines.find(' ', start);
        if (end == std::string_view::npos) end = shader.defines.size();
        const std::string_view define = shader.defines.substr(start, end - start);
        const size_t equals = define.find('=');
        if (equals == std::string_view::npos)
            options.AddMacroDefinition(std::string(define));
        else
            options.AddMacroDefinition(std::string(define.substr(0, equals)),
                                       std::string(define.substr(equals + 1)));
        start = end + 1;
    }
    options.SetIncluder(std::make_unique<Includer>(folder, source, module.files));

    const shaderc::Compiler compiler;
    const shaderc::SpvCompilationResult result =
        compiler.CompileGlslToSpv(text, kindOf(source), source.c_str(), options);
    std::vector<std::string> files;
    for (const SourceFile& f : module.files) files.push_back(f.path);
    if (result.GetCompilationStatus() != shaderc_compilation_status_success)
        throw ShaderError(compilerMessage(result.GetErrorMessage()), files);
    module.spirv.assign(result.cbegin(), result.cend());
    try {
        checkInterface(shader, module.spirv);
    } catch (const ShaderError& e) {
        throw ShaderError(e.what(), files);
    }
    return module;
}

std::vector<SourceModule> compileAllModules(const std::string& folder) {
    std::error_code error;
    if (!fs::is_directory(io::os::fsPath(folder), error))
        throw io::InputError("'" + folder + "' is not a folder");
    const std::span<const EmbeddedShader> shaders = embeddedShaders();
    std::vector<std::optional<SourceModule>> modules(shaders.size());
    std::vector<std::string> errors(shaders.size());
    std::atomic<size_t> next{0};
    auto work = [&] {
        for (size_t i = next++; i < shaders.size(); i = next++) {
            try {
                modules[i] = compileModule(folder, shaders[i]);
            } catch (const std::exception& e) { // a thread must not end on an exception
                errors[i] = e.what();
            }
        }
    };
    std::vector<std::thread> threads(std::max(1u, std::thread::hardware_concurrency()) - 1);
    for (std::thread& t : threads) t = std::thread(work);
    work();
    for (std::thread& t : threads) t.join();
    std::vector<SourceModule> compiled;
    for (size_t i = 0; i < shaders.size(); ++i) {
        if (!errors[i].empty()) throw ShaderError(errors[i]);
        compiled.push_back(std::move(*modules[i]));
    }
    return compiled;
}

std::string sourceHash(const std::vector<SourceModule>& modules) {
    std::map<std::string, uint64_t> files; // each file once, in name order
    for (const SourceModule& m : modules)
        for (const SourceFile& f : m.files) files[f.path] = f.hash;
    uint64_t hash = fnv1a("");
    for (const auto& [path, fileHash] : files) {
        hash = fnv1a(path, hash);
        hash = fnv1a(std::string_view(reinterpret_cast<const char*>(&fileHash), sizeof fileHash), hash);
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
    return hex;
}

} // namespace gpu
