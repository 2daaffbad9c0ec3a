// Shaders compiled from source in the running program (--shaders, src/gpu/shader_compiler.h), on the
// device: unchanged sources run every pipeline bit for bit as the embedded modules do; an edited rule
// steps as the CPU reference with the same edit; and an edit that leaves a binding or a
// specialization constant unused still builds its pipelines and steps.

#include "flock_steps.h"
#include "layouts.h"
#include "reference.h"
#include "render/imgui_renderer.h"
#include "render_test.h"
#include "search_setups.h"
#include "sim/search.h"
#include "sort/radix_sort.h"
#include "sort_test.h"

#include "gpu/program.h"
#include "gpu/shaders.h"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace {

using sim::Mode;
using sim::Params;
using sim::State;

// A context made as test::gpuContext() is (validation on), its programs built from `modules`, compiled
// from `folder`, in place of the embedded ones.
struct SourceContext {
    gpu::Context ctx;
    SourceContext(const std::string& folder, std::vector<gpu::SourceModule> modules) {
        ctx = gpu::createContext({.validation = true,
                                  .quietDeviceNote = true,
                                  .shaderFolder = folder,
                                  .shaderModules = std::move(modules)});
    }
    explicit SourceContext(const std::string& folder)
        : SourceContext(folder, gpu::compileAllModules(folder)) {}
    ~SourceContext() {
        gpu::destroyContext(ctx);
        // volk holds the functions of the instance and device made last: those of the tests' own
        // context again, for the tests that follow.
        volkLoadInstanceOnly(test::gpuContext().instance);
        volkLoadDevice(test::gpuContext().device);
    }
};

// A copy of the built shaders folder in a temporary folder of its own, removed with it.
struct ShaderCopy {
    std::filesystem::path root;
    explicit ShaderCopy(const std::string& name) {
        const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
        root = std::filesystem::temp_directory_path() / ("vkboids-" + name + "-" + std::to_string(now));
        std::filesystem::create_directories(root);
        std::filesystem::copy(std::string(gpu::builtShaderFolder()), root / "shaders",
                              std::filesystem::copy_options::recursive);
    }
    ~ShaderCopy() { std::filesystem::remove_all(root); }
    std::string folder() const { return (root / "shaders").string(); }

    // Replaces every `from` in `file` (relative to the folder) with `to`; returns how many there were.
    size_t replace(const std::string& file, const std::string& from, const std::string& to) const {
        const std::filesystem::path path = root / "shaders" / file;
        std::stringstream read;
        read << std::ifstream(path, std::ios::binary).rdbuf();
        std::string text = read.str();
        size_t count = 0;
        for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
            text.replace(at, from.size(), to);
            ++count;
        }
        std::ofstream(path, std::ios::binary) << text;
        return count;
    }
};

template <typename T> gpu::Buffer uploaded(const gpu::Context& ctx, const std::vector<T>& data) {
    gpu::Buffer b = gpu::createBuffer(ctx, sizeof(T) * std::max<size_t>(data.size(), 1), gpu::storageUsage,
                                      gpu::MemoryUse::Device);
    if (!data.empty()) gpu::uploadBuffer(ctx, b, data.data(), sizeof(T) * data.size());
    return b;
}

gpu::Buffer poisoned(const gpu::Context& ctx, VkDeviceSize bytes) {
    gpu::Buffer b = gpu::createBuffer(ctx, bytes, gpu::storageUsage, gpu::MemoryUse::Device);
    gpu::fillBuffer(ctx, b, 0xabababab);
    return b;
}

template <typename T> std::vector<T> downloaded(const gpu::Context& ctx, const gpu::Buffer& b, size_t count) {
    std::vector<T> out(count);
    gpu::downloadBuffer(ctx, b, out.data(), sizeof(T) * count);
    return out;
}

// ---- What a context's passes leave behind ----------------------------------------------------

// Bytes that a pass wrote, by what they are: two contexts that ran the same passes on the same input
// must leave the same bytes.
struct Outcome {
    std::string name;
    std::vector<uint8_t> bytes;
};
using Outcomes = std::vector<Outcome>;

template <typename T> void keep(Outcomes& out, const std::string& name, const std::vector<T>& values) {
    std::vector<uint8_t> bytes(values.size() * sizeof(T));
    if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
    out.push_back({name, std::move(bytes)});
}

void expectSameBytes(const Outcomes& embedded, const Outcomes& source) {
    ASSERT_EQ(embedded.size(), source.size());
    size_t differing = 0;
    for (size_t i = 0; i < embedded.size(); ++i) {
        const Outcome &a = embedded[i], &b = source[i];
        ASSERT_EQ(a.name, b.name);
        EXPECT_FALSE(a.bytes.empty()) << a.name << ": nothing to compare";
        if (a.bytes.size() == b.bytes.size() &&
            std::memcmp(a.bytes.data(), b.bytes.data(), a.bytes.size()) == 0)
            continue;
        size_t at = 0;
        while (at < std::min(a.bytes.size(), b.bytes.size()) && a.bytes[at] == b.bytes[at]) ++at;
        if (++differing <= 10)
            ADD_FAILURE() << a.name << ": the source modules' bytes differ from the embedded modules' (sizes "
                          << a.bytes.size() << " and " << b.bytes.size() << ", first difference at byte "
                          << at << ")";
    }
    EXPECT_EQ(differing, 0u) << "outcomes that differ, of " << embedded.size();
}

// Two steps of each mode: naive with and without the float16 filter, and every search pipeline
// (sim::searchVariants) on every grid shape (tests/search_setups.h), the radix and counting builds
// taking turns, the predator on in a third of them; and dispatches split over x and y.
struct FlockRun {
    std::string name;
    State in;
    Params params;
    sim::Grid grid;
    test::Steps steps;
};

std::vector<FlockRun> flockRuns() {
    constexpr uint32_t n = 1500;
    std::vector<FlockRun> runs;
    Params naive;
    naive.domainHalf = 12;
    for (bool float16 : {true, false})
        runs.push_back({std::string("naive, float16 filter ") + (float16 ? "on" : "off"),
                        test::uniformState(n, 301, naive),
                        naive,
                        sim::makeGrid(naive, sim::CellWidth::Reach, n),
                        {.mode = Mode::Naive, .count = 2, .flock = {.float16Filter = float16}}});
    const std::vector<test::GridShape> shapes = test::gridShapes();
    const std::vector<sim::SearchVariant>& variants = sim::searchVariants();
    for (size_t s = 0; s < shapes.size(); ++s)
        for (size_t v = 0; v < variants.size(); ++v) {
            const test::GridShape& shape = shapes[s];
            const sim::SearchVariant& variant = variants[v];
            Params p = variant.sharedRadii ? Params{} : test::distinctRadii(Params{});
            p.domainHalf = shape.domainHalf;
            p.predator = (s + v) % 3 == 0;
            p.predatorPos[0] = shape.domainHalf / 3;
            p.predatorRadius = shape.domainHalf / 2;
            const sim::GridBuild build = (s + v) % 2 ? sim::GridBuild::Counting : sim::GridBuild::Radix;
            const std::string name = sim::searchVariantName(variant) + ", " + sim::gridBuildName(build) +
                                     ", " + shape.name() + (p.predator ? ", predator" : "");
            const float spread = std::max(6.0f, shape.domainHalf / 4);
            runs.push_back({name,
                            test::clusteredState(n, 400 + s, p, 3, spread),
                            p,
                            sim::makeGrid(p, shape.width, n, shape.rows, shape.cellOrder),
                            {.mode = variant.mode,
                             .build = build,
                             .count = 2,
                             .flock = {.packedVelocity = variant.packedVelocity}}});
        }
    Params split;
    split.domainHalf = 15;
    for (Mode mode : {Mode::Naive, Mode::Scattered, Mode::Coherent})
        runs.push_back({std::string(sim::modeName(mode)) + ", dispatches split over x and y",
                        test::uniformState(n, 302, split),
                        split,
                        sim::makeGrid(split, sim::CellWidth::Reach, n),
                        {.mode = mode, .build = sim::GridBuild::Counting, .count = 2, .maxGroupsX = 3}});
    return runs;
}

// The state after each run (in boid order, and raw in slot order with its ids) and, after the grid
// steps, the sorted pairs, the key starts, the grid statistics and the search's counts.
Outcomes flockOutcomes(const gpu::Context& ctx, const std::vector<FlockRun>& runs) {
    Outcomes out;
    gpu::Buffer stats =
        gpu::createBuffer(ctx, sizeof(gpudata::GridStats), gpu::storageUsage, gpu::MemoryUse::Readback);
    for (const FlockRun& run : runs) {
        const size_t n = run.in.count();
        const auto inspect = [&](sim::Flock& f) {
            keep(out, run.name + ": positions", downloaded<float>(ctx, f.pos[f.current], 4 * n));
            keep(out, run.name + ": velocities", downloaded<float>(ctx, f.vel[f.current], 4 * n));
            keep(out, run.name + ": ids", downloaded<uint32_t>(ctx, f.ids[f.idsCurrent], n));
            if (run.steps.mode == Mode::Naive) return;
            keep(out, run.name + ": sorted keys", downloaded<uint32_t>(ctx, f.sortedKeys, n));
            keep(out, run.name + ": sorted slots", downloaded<uint32_t>(ctx, f.sortedSlots, n));
            keep(out, run.name + ": key starts",
                 downloaded<uint32_t>(ctx, f.keyStarts, sim::keyCount(run.grid) + 1));
            std::memset(stats.mapped, 0xab, sizeof(gpudata::GridStats));
            VkCommandBuffer cmd = gpu::beginOneShot(ctx);
            sim::recordGridStats(cmd, f, sim::stepConstants(run.params, run.grid, f.count), stats, nullptr);
            gpu::endOneShot(ctx, cmd);
            const auto* got = static_cast<const uint32_t*>(stats.mapped);
            keep(out, run.name + ": grid statistics", std::vector<uint32_t>(got, got + 4));
            const sim::SearchCounts counts = sim::countSearch(ctx, f, run.params, run.grid);
            keep(out, run.name + ": search counts", downloaded<uint32_t>(ctx, f.counter.perBoid, 4 * n));
            keep(out, run.name + ": search totals",
                 std::vector<double>{counts.candidates, counts.neighbours, counts.laneEfficiency,
                                     counts.ruleLanes, double(counts.subgroupSize)});
        };
        const State next = test::stepFlock(ctx, run.in, run.params, run.grid, run.steps, inspect);
        keep(out, run.name + ": state", next.data);
    }
    gpu::destroyBuffer(ctx, stats);
    return out;
}

// Each sort algorithm with narrow groups from 10,007 pairs: a sort of 32-bit keys that takes them and
// one of 13-bit keys that does not.
Outcomes sortOutcomes(const gpu::Context& ctx) {
    Outcomes out;
    for (sort::SortAlgorithm algorithm :
         {sort::SortAlgorithm::Onesweep, sort::SortAlgorithm::ReduceThenScan}) {
        sort::Sorter sorter =
            sort::createSorter(ctx, 12000, {.narrowGroupsFrom = 10007, .algorithm = algorithm});
        for (auto [n, bits] : {std::pair{12000u, 32u}, {5000u, 13u}}) {
            const std::vector<uint32_t> keys = test::makeKeys(n, bits, test::Layout::Uniform, 71);
            std::vector<uint32_t> values(n);
            std::iota(values.begin(), values.end(), 0);
            gpu::Buffer keysIn = uploaded(ctx, keys), valuesIn = uploaded(ctx, values);
            gpu::Buffer keysOut = poisoned(ctx, 4ull * n), valuesOut = poisoned(ctx, 4ull * n);
            VkCommandBuffer cmd = gpu::beginOneShot(ctx);
            sort::recordSort(cmd, sorter, keysIn, valuesIn, keysOut, valuesOut, n, bits);
            gpu::endOneShot(ctx, cmd);
            const std::string name = std::string(sort::algorithmName(algorithm)) + ", " + std::to_string(n) +
                                     " pairs of " + std::to_string(bits) + "-bit keys";
            keep(out, name + ": keys", downloaded<uint32_t>(ctx, keysOut, n));
            keep(out, name + ": values", downloaded<uint32_t>(ctx, valuesOut, n));
            for (gpu::Buffer* b : {&keysIn, &valuesIn, &keysOut, &valuesOut}) gpu::destroyBuffer(ctx, *b);
        }
        sort::destroySorter(ctx, sorter);
    }
    return out;
}

// Boids in and around a box of half-width 14 seen whole from 30 away (render_test.h's frame), drawn by
// every path in every colour mode, with the box's edges among them.
Outcomes drawOutcomes(const gpu::Context& ctx) {
    using namespace drawtest;
    Outcomes out;
    render::Renderer renderer = render::createRenderer(
        ctx, VK_FORMAT_R8G8B8A8_UNORM, gpu::findDepthFormat(ctx), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    render::Offscreen offscreen = render::createOffscreen(ctx, renderer, width, height);
    const float domainHalf = 14.0f;
    sim::Random rng(81);
    std::vector<glm::vec4> pos, vel;
    for (int i = 0; i < 400; ++i) {
        pos.emplace_back(rng.uniform(-16, 16), rng.uniform(-16, 16), rng.uniform(-16, 16), 0.0f);
        vel.emplace_back(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1), 0.0f);
    }
    gpu::Buffer posBuffer = uploaded(ctx, pos), velBuffer = uploaded(ctx, vel);
    const glm::mat4 viewProj = projection() * glm::translate(glm::mat4(1.0f), glm::vec3(0, 0, -30));
    for (DrawPath path : {DrawPath::Points, DrawPath::Glyphs, DrawPath::Compute}) {
        if (path == DrawPath::Compute && !render::computePathAvailable(ctx)) continue;
        for (render::ColorMode color : {render::ColorMode::Speed, render::ColorMode::Heading,
                                        render::ColorMode::Cell, render::ColorMode::Order}) {
            render::DrawSettings s = settings(path, 3.0f, domainHalf);
            s.viewProj = viewProj;
            s.style.colorMode = color;
            s.gridDim = 5;
            s.invCellWidth = 5 / (2 * domainHalf);
            if (path == DrawPath::Compute) gpu::fillBuffer(ctx, renderer.target, 0xabababab);
            VkCommandBuffer cmd = gpu::beginOneShot(ctx);
            render::recordOffscreenDraw(cmd, ctx, renderer, offscreen, posBuffer, velBuffer,
                                        uint32_t(pos.size()), s);
            gpu::endOneShot(ctx, cmd);
            const std::string name =
                std::string(render::drawPathName(path)) + ", " + render::colorModeName(color);
            keep(out, name + ": frame", render::readOffscreen(ctx, offscreen));
            if (path == DrawPath::Compute)
                keep(out, name + ": target",
                     downloaded<uint64_t>(ctx, renderer.target, size_t(width) * height));
        }
    }
    gpu::destroyBuffer(ctx, posBuffer);
    gpu::destroyBuffer(ctx, velBuffer);
    render::destroyOffscreen(ctx, offscreen);
    render::destroyRenderer(ctx, renderer);
    return out;
}

// The panel's pipeline: a translucent rectangle, an opaque one in a clip rectangle, and text (the
// font atlas sampled), over a frame without boids.
Outcomes imguiOutcomes(const gpu::Context& ctx) {
    using namespace drawtest;
    render::Renderer renderer = render::createRenderer(
        ctx, VK_FORMAT_R8G8B8A8_UNORM, gpu::findDepthFormat(ctx), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    render::Offscreen offscreen = render::createOffscreen(ctx, renderer, width, height);
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    ImGui::GetIO().DisplaySize = ImVec2(float(width), float(height));
    render::ImGuiRenderer imgui = render::createImGuiRenderer(ctx, VK_FORMAT_R8G8B8A8_UNORM, 1);
    ImGui::NewFrame();
    ImGui::GetBackgroundDrawList()->AddRectFilled(ImVec2(8, 6), ImVec2(40, 30), IM_COL32(240, 120, 30, 128));
    ImDrawList* front = ImGui::GetForegroundDrawList();
    front->PushClipRect(ImVec2(44, 10), ImVec2(56, 20));
    front->AddRectFilled(ImVec2(42, 4), ImVec2(60, 40), IM_COL32(20, 200, 90, 255));
    front->PopClipRect();
    front->AddText(ImVec2(4, 30), IM_COL32(255, 255, 255, 200), "vkboids");
    ImGui::Render();
    gpu::Buffer none = uploaded(ctx, std::vector<glm::vec4>{});
    VkCommandBuffer cmd = gpu::beginOneShot(ctx);
    render::recordOffscreenDraw(cmd, ctx, renderer, offscreen, none, none, 0,
                                settings(DrawPath::Points, 1.0f));
    render::beginOverlay(cmd, renderer, offscreen.frame);
    render::recordImGui(cmd, ctx, imgui, ImGui::GetDrawData(), {width, height}, 0);
    render::endOverlay(cmd, renderer, offscreen.frame);
    gpu::endOneShot(ctx, cmd);
    Outcomes out;
    keep(out, "ImGui: frame", render::readOffscreen(ctx, offscreen));
    gpu::destroyBuffer(ctx, none);
    render::destroyImGuiRenderer(ctx, imgui);
    ImGui::DestroyContext();
    render::destroyOffscreen(ctx, offscreen);
    render::destroyRenderer(ctx, renderer);
    return out;
}

Outcomes everyOutcome(const gpu::Context& ctx, const std::vector<FlockRun>& runs) {
    Outcomes out = flockOutcomes(ctx, runs);
    for (Outcomes more : {sortOutcomes(ctx), drawOutcomes(ctx), imguiOutcomes(ctx)})
        out.insert(out.end(), more.begin(), more.end());
    return out;
}

// The embedded modules that no program of `ctx` was made from, but for those this device cannot run.
std::vector<std::string> shadersWithoutProgram(const gpu::Context& ctx) {
    std::set<std::string> used;
    for (const auto& [key, kept] : ctx.keptPrograms->programs)
        used.insert(kept.recipe.shaders.begin(), kept.recipe.shaders.end());
    std::set<std::string> unreachable;
    if (!ctx.shaderFloat16) unreachable.insert("naive_float16");
    if (!render::computePathAvailable(ctx))
        for (const char* name : {"draw_raster", "draw_resolve", "box_over_target_frag"})
            unreachable.insert(name);
    std::vector<std::string> missing;
    for (const gpu::EmbeddedShader& shader : gpu::embeddedShaders()) {
        const std::string name(shader.name);
        if (!used.count(name) && !unreachable.count(name)) missing.push_back(name);
    }
    return missing;
}

std::string joined(const std::vector<std::string>& names) {
    std::string text;
    for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
    return text;
}

class SourceShaderTest : public test::GpuTest {};

// Every pipeline the product can reach, built from the modules compiled from the unchanged sources,
// writes the same bytes as the embedded modules' pipelines: the flock's passes, the grid statistics,
// the search counter, both sort algorithms at both group widths, every drawing path and the panel.
// The test checks its own reach: every embedded module must be among the programs made.
TEST_F(SourceShaderTest, UnchangedSourcesRunBitForBitAsTheEmbeddedModules) {
    const std::vector<FlockRun> runs = flockRuns();
    const Outcomes embedded = everyOutcome(ctx(), runs);
    SourceContext source{std::string(gpu::builtShaderFolder())};
    ASSERT_EQ(source.ctx.keptPrograms->sourceModules.size(), gpu::embeddedShaders().size())
        << "the context does not take its modules from source";
    const Outcomes fromSource = everyOutcome(source.ctx, runs);
    expectSameBytes(embedded, fromSource);
    const std::vector<std::string> missing = shadersWithoutProgram(source.ctx);
    EXPECT_TRUE(missing.empty()) << "modules no program was made from, so not compared: " << joined(missing);
}

// A boid's error against the reference, and how many boids sat too close to a rounding boundary to
// be compared, which must stay rare.
void expectMatches(const State& got, const test::ReferenceStep& ref, const Params& p) {
    const test::Comparison c = test::compareStates(got, ref, p);
    EXPECT_EQ(c.mismatches, 0u) << c.firstMismatch;
    EXPECT_LE(c.ambiguous, std::max(2u, got.count() / 50)) << "too many ambiguous boids";
}

// Cohesion taken out of rules.glsl in a copy of the sources: every mode steps as the reference does
// without cohesion, whatever cohesion scale it is given, and no longer as the built-in rules do.
TEST_F(SourceShaderTest, AnEditedRuleStepsAsTheReferenceWithTheSameEdit) {
    Params p;
    p.domainHalf = 12.5f; // some 60 neighbours a boid
    Params noCohesion = p;
    noCohesion.cohesionScale = 0;
    const State in = test::uniformState(2000, 501, p);
    const sim::Grid grid = sim::makeGrid(p, sim::CellWidth::Reach, in.count());
    std::vector<State> builtIn;
    for (Mode mode : {Mode::Naive, Mode::Scattered, Mode::Coherent})
        builtIn.push_back(test::stepFlock(ctx(), in, p, grid, {.mode = mode}));

    ShaderCopy copy("cohesion");
    ASSERT_EQ(
        copy.replace("sim/rules.glsl",
                     "    if (n.cohesionCount > 0.0) dv += n.cohesion / n.cohesionCount * c.cohesionScale;\n",
                     ""),
        1u)
        << "rules.glsl no longer adds cohesion in the line this test removes";
    SourceContext edited(copy.folder());
    size_t m = 0;
    for (Mode mode : {Mode::Naive, Mode::Scattered, Mode::Coherent}) {
        SCOPED_TRACE(sim::modeName(mode));
        const bool packed = sim::usesPackedVelocity(mode, {});
        const State got = test::stepFlock(edited.ctx, in, p, grid, {.mode = mode});
        expectMatches(got, test::referenceStep(in, noCohesion, packed), noCohesion);
        EXPECT_GT(test::compareStates(got, test::referenceStep(in, p, packed), p).mismatches, in.count() / 2)
            << "the edit made no difference";
        EXPECT_NE(got.data, builtIn[m++].data) << "the edited sources step as the built-in rules";
    }
}

// A copy of the sources in which the naive pass reads no velocity (its own and its neighbours' taken
// as zero), so that the optimizer drops binding 1, and the rules no longer read COHESION_IS_ALIGNMENT,
// so that it drops that specialization constant, which the grid searches are still given. Both are
// no error: the pipelines are built and step as the reference with the same edits.
TEST_F(SourceShaderTest, ABindingOrSpecializationConstantLeftUnusedIsNoError) {
    ShaderCopy copy("unused");
    ASSERT_EQ(copy.replace("sim/naive.comp", "return velIn[j].xyz;", "return vec3(0);"), 1u);
    ASSERT_EQ(
        copy.replace("sim/naive.comp", "integrate(p[b], velIn[self[b]].xyz,", "integrate(p[b], vec3(0),"),
        1u);
    ASSERT_EQ(
        copy.replace("sim/rules.glsl", "if (COHESION_IS_ALIGNMENT) addVelocity", "if (false) addVelocity"),
        1u);
    ASSERT_EQ(copy.replace("sim/rules.glsl", "!COHESION_IS_ALIGNMENT && ", ""), 1u);
    ASSERT_EQ(copy.replace("sim/rules.glsl", "COHESION_IS_ALIGNMENT ? n.cohesionCount : n.alignmentCount",
                           "n.alignmentCount"),
              2u);
    std::vector<gpu::SourceModule> modules = gpu::compileAllModules(copy.folder());

    // The edits really left them out, where the embedded modules have them.
    for (const gpu::SourceModule& m : modules) {
        const gpu::ShaderReflection mine = gpu::reflectSpirv(m.spirv, gpu::UnusedBindings::Allowed);
        const gpu::ShaderReflection built = gpu::reflectSpirv(gpu::embeddedSpirv(m.name));
        const auto declares = [](const gpu::ShaderReflection& r, const std::string& name) {
            return std::any_of(r.specConstants.begin(), r.specConstants.end(),
                               [&](const gpu::SpecConstantId& c) { return c.name == name; });
        };
        if (m.name == "naive" || m.name == "naive_float16") {
            ASSERT_EQ(built.bindings.at(1), VK_DESCRIPTOR_TYPE_STORAGE_BUFFER) << m.name;
            ASSERT_EQ(mine.bindings.at(1), gpu::unusedBinding) << m.name << " still declares its velocities";
        }
        if (m.name == "grid_search_scattered" || m.name == "grid_search_coherent") {
            ASSERT_TRUE(declares(built, "COHESION_IS_ALIGNMENT")) << m.name;
            ASSERT_FALSE(declares(mine, "COHESION_IS_ALIGNMENT")) << m.name << " still declares it";
        }
    }

    SourceContext edited(copy.folder(), std::move(modules));
    Params p; // r1 == r3: the searches' pipelines are asked for COHESION_IS_ALIGNMENT = 1
    p.domainHalf = 12.5f;
    const State in = test::clusteredState(2000, 601, p, 4, 4.0f);
    State still = in;
    for (uint32_t i = 0; i < in.count(); ++i)
        for (int a = 3; a < 6; ++a) still.data[size_t(i) * 6 + a] = 0;
    const sim::Grid grid = sim::makeGrid(p, sim::CellWidth::Reach, in.count());
    for (bool float16 : {true, false}) {
        SCOPED_TRACE(std::string("naive, float16 filter ") + (float16 ? "on" : "off"));
        const State got = test::stepFlock(edited.ctx, in, p, grid,
                                          {.mode = Mode::Naive, .flock = {.float16Filter = float16}});
        expectMatches(got, test::referenceStep(still, p), p);
    }
    for (Mode mode : {Mode::Scattered, Mode::Coherent}) {
        SCOPED_TRACE(sim::modeName(mode));
        ASSERT_TRUE(sim::searchVariant(mode, p).sharedRadii);
        const State got = test::stepFlock(edited.ctx, in, p, grid, {.mode = mode});
        expectMatches(got, test::referenceStep(in, p, sim::usesPackedVelocity(mode, {})), p);
    }
}

} // namespace

namespace {

// A live reload as the demo makes one (app/demo/live_shaders.cpp), on a context whose programs exist:
// the shaders that read rules.glsl compiled again after an edit, the pipelines of the programs made
// from them built again, and all installed. A program made between pipelinesUsing and installModules
// is made again there. The programs already handed out then step with the new pipelines.
TEST_F(SourceShaderTest, AReloadSwapsTheEditedRuleIntoTheProgramsAlreadyMade) {
    Params p;
    p.domainHalf = 12.5f;
    Params noCohesion = p;
    noCohesion.cohesionScale = 0;
    const State in = test::uniformState(1500, 77, p);
    const sim::Grid grid = sim::makeGrid(p, sim::CellWidth::Reach, in.count());
    ShaderCopy copy("reload");
    SourceContext source(copy.folder());
    const gpu::Context& ctx = source.ctx;
    for (Mode mode : {Mode::Naive, Mode::Coherent}) // their programs are made, with the rules as built
        expectMatches(test::stepFlock(ctx, in, p, grid, {.mode = mode}),
                      test::referenceStep(in, p, sim::usesPackedVelocity(mode, {})), p);

    ASSERT_EQ(
        copy.replace("sim/rules.glsl",
                     "    if (n.cohesionCount > 0.0) dv += n.cohesion / n.cohesionCount * c.cohesionScale;\n",
                     ""),
        1u);
    std::vector<std::string> names;
    for (const auto& [name, module] : ctx.keptPrograms->sourceModules)
        if (std::any_of(module.files.begin(), module.files.end(),
                        [](const gpu::SourceFile& f) { return f.path == "sim/rules.glsl"; }))
            names.push_back(name);
    ASSERT_GE(names.size(), 3u);
    std::vector<gpu::SourceModule> modules;
    for (const std::string& name : names)
        modules.push_back(gpu::compileModule(copy.folder(), *gpu::embeddedShader(name)));
    const std::vector<gpu::PipelineJob> jobs = gpu::pipelinesUsing(ctx, names);
    ASSERT_FALSE(jobs.empty());
    std::vector<gpu::BuiltPipeline> built;
    for (const gpu::PipelineJob& job : jobs)
        built.push_back({job.key, gpu::buildPipeline(ctx, job, modules)});
    // Scattered's programs are made now, from the old modules: installModules makes them again.
    test::stepFlock(ctx, in, p, grid, {.mode = Mode::Scattered});
    const std::vector<VkPipeline> replaced = gpu::installModules(ctx, std::move(modules), built);
    EXPECT_GT(replaced.size(), jobs.size()) << "scattered's programs were not made again";
    gpu::destroyPipelines(ctx, replaced); // nothing in flight: stepFlock waits for its steps

    for (Mode mode : {Mode::Naive, Mode::Scattered, Mode::Coherent}) {
        SCOPED_TRACE(sim::modeName(mode));
        const bool packed = sim::usesPackedVelocity(mode, {});
        expectMatches(test::stepFlock(ctx, in, p, grid, {.mode = mode}),
                      test::referenceStep(in, noCohesion, packed), noCohesion);
    }
}

} // namespace
