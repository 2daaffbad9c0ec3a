// The running program's GLSL compiler (--shaders): the same modules as the build's, and a clear
// message for each way an edit can go wrong. No device is needed.

#include "gpu/shader_compiler.h"
#include "gpu/spirv_reflect.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#ifndef _WIN32
#include <sys/stat.h>
#endif

namespace {

namespace fs = std::filesystem;

// The module without what names its source files and lines (OpSourceContinued, OpSource,
// OpSourceExtension, OpString, OpLine, OpNoLine, OpModuleProcessed): the build passes glslc absolute
// paths, the program relative ones.
std::vector<uint32_t> withoutSourceNames(std::span<const uint32_t> code) {
    std::vector<uint32_t> out(code.begin(), code.begin() + 5);
    for (size_t at = 5; at < code.size();) {
        const uint32_t count = code[at] >> 16, opcode = code[at] & 0xffff;
        if (count == 0) break;
        if (opcode != 2 && opcode != 3 && opcode != 4 && opcode != 7 && opcode != 8 && opcode != 317 &&
            opcode != 330)
            out.insert(out.end(), code.begin() + at, code.begin() + at + count);
        at += count;
    }
    return out;
}

const gpu::EmbeddedShader& shader(std::string_view name) {
    const gpu::EmbeddedShader* s = gpu::embeddedShader(name);
    if (!s) throw std::runtime_error("no shader " + std::string(name));
    return *s;
}

std::string readText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

void writeText(const fs::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

// A copy of the source tree's shaders, edited by each test and removed after it.
class ShaderCompiler : public ::testing::Test {
  protected:
    void SetUp() override {
        folder = fs::temp_directory_path() /
                 ("vkboids-shaders-" +
                  std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::remove_all(folder);
        fs::copy(fs::path(std::string(gpu::builtShaderFolder())), folder, fs::copy_options::recursive);
    }
    void TearDown() override { fs::remove_all(folder); }

    // Replaces the one occurrence of `from` in the file.
    void edit(const std::string& file, const std::string& from, const std::string& to) {
        std::string text = readText(folder / file);
        const size_t at = text.find(from);
        ASSERT_NE(at, std::string::npos) << from;
        ASSERT_EQ(text.find(from, at + 1), std::string::npos) << from;
        writeText(folder / file, text.replace(at, from.size(), to));
    }

    // The line of the file that holds `what`, counted from 1.
    int lineOf(const std::string& file, const std::string& what) {
        const std::string text = readText(folder / file);
        const size_t at = text.find(what);
        EXPECT_NE(at, std::string::npos) << what;
        return 1 + int(std::count(text.begin(), text.begin() + at, '\n'));
    }

    // The message of the ShaderError that compiling `name` throws, or a failure where it compiles.
    std::string errorOf(std::string_view name) {
        try {
            gpu::compileModule(folder.string(), shader(name));
        } catch (const gpu::ShaderError& e) {
            return e.what();
        }
        ADD_FAILURE() << name << " compiled";
        return "";
    }

    fs::path folder;
};

// Word for word where the build's glslc and the program's libshaderc are one release (Debian's
// packages); elsewhere (the MinGW build's libshaderc is built from a newer release) the interfaces are
// the same, and tests/test_shader_sources.cpp shows that every pipeline runs bit for bit alike.
TEST(ShaderSources, EveryModuleCompiledFromTheSourceTreeIsTheEmbeddedOne) {
    const std::vector<gpu::SourceModule> modules =
        gpu::compileAllModules(std::string(gpu::builtShaderFolder()));
    ASSERT_EQ(modules.size(), gpu::embeddedShaders().size());
    for (const gpu::SourceModule& m : modules) {
        const gpu::EmbeddedShader& embedded = shader(m.name);
        if (VKBOIDS_SHADERC_IS_GLSLC) {
            EXPECT_EQ(withoutSourceNames(m.spirv), withoutSourceNames(embedded.spirv)) << m.name;
        }
        EXPECT_NO_THROW(gpu::checkInterface(embedded, m.spirv)) << m.name;
        const gpu::ShaderReflection mine = gpu::reflectSpirv(m.spirv),
                                    built = gpu::reflectSpirv(embedded.spirv);
        EXPECT_EQ(mine.bindings, built.bindings) << m.name;
        EXPECT_EQ(mine.pushConstantSize, built.pushConstantSize) << m.name;
        ASSERT_FALSE(m.files.empty());
        EXPECT_EQ(m.files.front().path, embedded.source);
    }
    // The files each module read: the source, then each include once, relative to the folder.
    const gpu::SourceModule& coherent =
        *std::find_if(modules.begin(), modules.end(),
                      [](const gpu::SourceModule& m) { return m.name == "grid_search_coherent"; });
    std::vector<std::string> files;
    for (const gpu::SourceFile& f : coherent.files) files.push_back(f.path);
    for (const char* expected : {"sim/rules.glsl", "sim/common.glsl", "dispatch.glsl", "sim/grid_walk.glsl"})
        EXPECT_NE(std::find(files.begin(), files.end(), expected), files.end()) << expected;
}

TEST_F(ShaderCompiler, TheHashTellsEditedSourcesApart) {
    const std::string before = gpu::sourceHash({gpu::compileModule(folder.string(), shader("naive"))});
    EXPECT_EQ(before.size(), 16u);
    EXPECT_EQ(before, gpu::sourceHash({gpu::compileModule(folder.string(), shader("naive"))}));
    edit("sim/rules.glsl", "// Accumulated neighbour sums of one boid.", "// Sums of one boid's neighbours.");
    EXPECT_NE(before, gpu::sourceHash({gpu::compileModule(folder.string(), shader("naive"))}));
}

TEST_F(ShaderCompiler, AnErrorInAnIncludedFileNamesThatFileAndItsLine) {
    edit("sim/rules.glsl", "    n.cohesionCount = 0.0;", "    n.cohesionCount = 0.0 +;");
    const int line = lineOf("sim/rules.glsl", "0.0 +;");
    const std::string message = errorOf("naive");
    EXPECT_EQ(message.rfind("sim/rules.glsl:" + std::to_string(line) + ": error: ", 0), 0u) << message;
    EXPECT_EQ(message.find("errors generated"), std::string::npos) << message;
    // The folder's other shaders that read the file fail the same way.
    EXPECT_EQ(errorOf("grid_search_coherent").rfind("sim/rules.glsl:" + std::to_string(line) + ":", 0), 0u);
}

TEST_F(ShaderCompiler, AnErrorInTheShaderItselfNamesIt) {
    edit("sim/naive.comp", "const uint TILE = gl_WorkGroupSize.x * BOIDS;", "const uint TILE = undeclared;");
    const std::string message = errorOf("naive");
    EXPECT_EQ(message.rfind("sim/naive.comp:" + std::to_string(lineOf("sim/naive.comp", "= undeclared")), 0),
              0u)
        << message;
    EXPECT_NE(message.find("undeclared"), std::string::npos) << message;
}

TEST_F(ShaderCompiler, AnInterfaceTheProgramCannotFeedIsRefused) {
    edit("sim/naive.comp", "layout(push_constant) uniform Push { StepConstants c; };",
         "layout(push_constant) uniform Push { StepConstants c; };\n"
         "layout(std430, binding = 7) buffer Extra { uint extra[]; };");
    edit("sim/naive.comp", "const uint TILE = gl_WorkGroupSize.x * BOIDS;",
         "const uint TILE = gl_WorkGroupSize.x * BOIDS;\nvoid touchExtra() { extra[0] = 1u; }");
    const std::string before = readText(folder / "sim/naive.comp");
    // A binding that is new, and one that is used: main() must call it for the optimizer to keep it.
    std::string text = before;
    const size_t mainAt = text.find("void main() {");
    ASSERT_NE(mainAt, std::string::npos);
    writeText(folder / "sim/naive.comp", text.insert(mainAt + 13, "\n    touchExtra();"));
    EXPECT_EQ(errorOf("naive"),
              "sim/naive.comp: binding 7 is new (a storage buffer); the program binds only bindings 0 to 3");

    // A binding of another type.
    writeText(folder / "sim/naive.comp",
              readText(fs::path(std::string(gpu::builtShaderFolder())) / "sim/naive.comp"));
    edit("sim/naive.comp", "layout(std430, binding = 1) readonly buffer VelIn { vec4 velIn[]; };",
         "layout(std140, binding = 1) uniform VelIn { vec4 velIn[64]; };");
    EXPECT_EQ(
        errorOf("naive"),
        "sim/naive.comp: binding 1 is now a uniform buffer, and the program binds a storage buffer there");

    // Another work-group size.
    writeText(folder / "sim/naive.comp",
              readText(fs::path(std::string(gpu::builtShaderFolder())) / "sim/naive.comp"));
    edit("sim/naive.comp", "layout(local_size_x_id = 0) in;", "layout(local_size_x = 64) in;");
    EXPECT_NE(errorOf("naive").find("the work-group size changed"), std::string::npos);

    // Another push-constant block, read where it is new.
    writeText(folder / "sim/naive.comp",
              readText(fs::path(std::string(gpu::builtShaderFolder())) / "sim/naive.comp"));
    edit("sim/naive.comp", "layout(push_constant) uniform Push { StepConstants c; };",
         "layout(push_constant) uniform Push { StepConstants c; vec4 extraPush; };");
    text = readText(folder / "sim/naive.comp");
    writeText(folder / "sim/naive.comp",
              text.insert(text.find("void main() {") + 13, "\n    velOut[0] = extraPush;"));
    EXPECT_NE(errorOf("naive").find("sim/naive.comp: the push-constant block is now "), std::string::npos)
        << errorOf("naive");
}

TEST_F(ShaderCompiler, ASpecializationConstantRenamedOrRenumberedIsRefused) {
    // Renamed, it would keep its default where the program sets it.
    edit("sim/rules.glsl", "layout(constant_id = 1) const bool COHESION_IS_ALIGNMENT = false;",
         "layout(constant_id = 1) const bool COHESION_AS_ALIGNMENT = false;\n"
         "#define COHESION_IS_ALIGNMENT COHESION_AS_ALIGNMENT");
    EXPECT_EQ(errorOf("grid_search_coherent"),
              "sim/grid_search_coherent.comp: the specialization constant "
              "COHESION_AS_ALIGNMENT is new; the program sets only those of the "
              "built-in shader");
    writeText(folder / "sim/rules.glsl",
              readText(fs::path(std::string(gpu::builtShaderFolder())) / "sim/rules.glsl"));
    edit("sim/rules.glsl", "layout(constant_id = 1) const bool COHESION_IS_ALIGNMENT = false;",
         "layout(constant_id = 9) const bool COHESION_IS_ALIGNMENT = false;");
    EXPECT_EQ(errorOf("grid_search_coherent"),
              "sim/grid_search_coherent.comp: the specialization constant "
              "COHESION_IS_ALIGNMENT now has constant_id 9, and the program sets "
              "it as 1");
}

TEST_F(ShaderCompiler, AVersionLineIsNeededAndAByteOrderMarkIsNoError) {
    writeText(folder / "sim/naive.comp", "\xef\xbb\xbf" + readText(folder / "sim/naive.comp"));
    EXPECT_FALSE(gpu::compileModule(folder.string(), shader("naive")).spirv.empty());
    edit("sim/naive.comp", "#version 460", "");
    EXPECT_EQ(errorOf("naive").rfind("sim/naive.comp:1: error: the shader must begin with #version 450", 0),
              0u);
}

TEST_F(ShaderCompiler, AFailedCompileSaysWhatItReadAndLookedFor) {
    edit("sim/rules.glsl", "vec3 neighbourVelocity(uint j);",
         "vec3 neighbourVelocity(uint j);\n#include \"fov.glsl\"");
    try {
        gpu::compileModule(folder.string(), shader("naive"));
        ADD_FAILURE() << "compiled without sim/fov.glsl";
    } catch (const gpu::ShaderError& e) {
        for (const char* file : {"sim/naive.comp", "sim/rules.glsl", "sim/fov.glsl"})
            EXPECT_NE(std::find(e.files.begin(), e.files.end(), file), e.files.end()) << file;
    }
}

TEST_F(ShaderCompiler, AMissingFileIsNamed) {
    fs::remove(folder / "sim/rules.glsl");
    const std::string message = errorOf("naive");
    EXPECT_EQ(message.rfind("no file 'rules.glsl' beside sim/naive.comp or in ", 0), 0u) << message;
    EXPECT_NE(message.find(" (included at sim/naive.comp:" +
                           std::to_string(lineOf("sim/naive.comp", "#include \"rules.glsl\"")) + ")"),
              std::string::npos)
        << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    fs::remove(folder / "sim/naive.comp");
    EXPECT_EQ(errorOf("naive").rfind("sim/naive.comp: ", 0), 0u);
}

TEST_F(ShaderCompiler, AnIncludeThatLoopsIsRefused) {
    edit("sim/rules.glsl", "vec3 neighbourVelocity(uint j);",
         "vec3 neighbourVelocity(uint j);\n#include \"loop.glsl\"");
    writeText(folder / "sim/loop.glsl", "#include \"rules.glsl\"\n");
    const std::string message = errorOf("naive");
    EXPECT_NE(message.find(
                  "the includes loop: sim/naive.comp -> sim/rules.glsl -> sim/loop.glsl -> sim/rules.glsl"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("(included at sim/loop.glsl:1)"), std::string::npos) << message;
}

TEST_F(ShaderCompiler, AFileThatIsNotTextIsRefused) {
    std::string text = readText(folder / "sim/rules.glsl");
    text.insert(text.find("// Accumulated neighbour sums"), "// caf\xe9\n");
    writeText(folder / "sim/rules.glsl", text);
    const std::string message = errorOf("naive");
    EXPECT_NE(message.find("sim/rules.glsl: not UTF-8 text (byte 0xe9 on line " +
                           std::to_string(lineOf("sim/rules.glsl", "// caf")) + ")"),
              std::string::npos)
        << message;
    writeText(folder / "sim/naive.comp", std::string("#version 460\0void main() {}\n", 28));
    EXPECT_EQ(errorOf("naive"), "sim/naive.comp: not UTF-8 text (byte 0x00 on line 1)");
}

TEST_F(ShaderCompiler, AHugeFileIsRefusedUnread) {
    writeText(folder / "sim/rules.glsl",
              readText(folder / "sim/rules.glsl") + std::string(gpu::maxShaderFileBytes, '/'));
    const std::string message = errorOf("naive");
    EXPECT_NE(message.find("sim/rules.glsl: "), std::string::npos) << message;
    EXPECT_NE(message.find("1048576"), std::string::npos) << message;
}

#ifndef _WIN32
TEST_F(ShaderCompiler, AFifoIsRefusedWithoutWaiting) {
    fs::remove(folder / "sim/rules.glsl");
    ASSERT_EQ(::mkfifo((folder / "sim/rules.glsl").c_str(), 0600), 0);
    const std::string message = errorOf("naive");
    EXPECT_NE(message.find("sim/rules.glsl: "), std::string::npos) << message;
}
#endif

TEST_F(ShaderCompiler, AHalfWrittenFileFailsAndTheWholeOneCompiles) {
    const std::string whole = readText(folder / "sim/rules.glsl");
    writeText(folder / "sim/rules.glsl", whole.substr(0, whole.size() / 2));
    EXPECT_NE(errorOf("naive").find("error"), std::string::npos);
    writeText(folder / "sim/rules.glsl", whole);
    EXPECT_FALSE(gpu::compileModule(folder.string(), shader("naive")).spirv.empty());
}

TEST_F(ShaderCompiler, AFolderThatIsNotOneIsRefused) {
    EXPECT_THROW(gpu::compileAllModules((folder / "sim/rules.glsl").string()), io::InputError);
    fs::remove(folder / "sim/naive.comp");
    try {
        gpu::compileAllModules(folder.string());
        ADD_FAILURE() << "compiled without sim/naive.comp";
    } catch (const gpu::ShaderError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("sim/naive.comp: ", 0), 0u) << e.what();
    }
}

} // namespace
