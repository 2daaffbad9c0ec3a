#include "sim/search.h"

#include "sim/flock.h"

#include <algorithm>
#include <cfloat>

namespace sim {

using gpudata::StepConstants;

SearchVariant searchVariant(Mode mode, const Params& params, bool packedVelocity) {
    return {mode, params.cohesionRadius == params.alignmentRadius, mode == Mode::Coherent && packedVelocity};
}

const std::vector<SearchVariant>& searchVariants() {
    static const std::vector<SearchVariant> variants = {
        {Mode::Scattered, false, false}, {Mode::Scattered, true, false}, {Mode::Coherent, false, false},
        {Mode::Coherent, true, false},   {Mode::Coherent, false, true},  {Mode::Coherent, true, true}};
    return variants;
}

std::string searchVariantName(const SearchVariant& v) {
    return std::string(modeName(v.mode)) + (v.sharedRadii ? ", r1 = r3" : "") +
           (v.packedVelocity ? ", packed velocity" : "");
}

float velocityPackScale(float maxSpeed) {
    return std::min(float(PACKED_VELOCITY_LEVELS) / maxSpeed, FLT_MAX);
}

float velocityPackStep(float maxSpeed) {
    return maxSpeed / float(PACKED_VELOCITY_LEVELS);
}

namespace {

size_t variantIndex(const SearchVariant& v) {
    const std::vector<SearchVariant>& all = searchVariants();
    const auto it = std::find(all.begin(), all.end(), v);
    CHECK(it != all.end());
    return size_t(it - all.begin());
}

} // namespace

Search createSearch(const gpu::Context& ctx, uint32_t workgroupSize) {
    Search s;
    s.pipelines.resize(searchVariants().size());
    s.gatherVelocities =
        gpu::createComputeProgram(ctx, "gather_velocities", {{gpu::localSizeX, workgroupSize}});
    return s;
}

void prepareSearch(const gpu::Context& ctx, Search& s, Mode mode, uint32_t workgroupSize, bool packedVelocity,
                   uint32_t packedRoom) {
    // Only this mode's pipelines are compiled, on first use: compiling all of them would take seconds
    // on a CPU driver, and a flock needs only a few. They run at the driver's own subgroup size, which
    // on NVIDIA and lavapipe is the device's default, the size countSearch pins its count to.
    CHECK(packedRoom >= 1 && packedRoom <= PACKED_VELOCITY_ROOM);
    for (bool shared : {false, true}) {
        const SearchVariant v = {mode, shared, mode == Mode::Coherent && packedVelocity};
        gpu::Program& program = s.pipelines[variantIndex(v)];
        if (program.pipeline) continue;
        std::vector<gpu::SpecConstant> specs = {{gpu::localSizeX, workgroupSize},
                                                {"COHESION_IS_ALIGNMENT", shared ? 1u : 0u}};
        if (mode == Mode::Coherent) {
            specs.push_back({"PACKED_VELOCITY", v.packedVelocity ? 1u : 0u});
            specs.push_back({"PACKED_ROOM", packedRoom});
        }
        program = gpu::createComputeProgram(
            ctx, mode == Mode::Coherent ? "grid_search_coherent" : "grid_search_scattered", specs);
    }
}

std::vector<gpu::Program*> searchPrograms(Search& s) {
    std::vector<gpu::Program*> programs = {&s.gatherVelocities};
    for (gpu::Program& p : s.pipelines) programs.push_back(&p);
    return programs;
}

void destroySearch(const gpu::Context& ctx, Search& s) {
    for (gpu::Program* p : searchPrograms(s)) gpu::destroyProgram(ctx, *p);
    s = Search{};
}

void recordGridSearch(VkCommandBuffer cmd, Flock& f, const StepConstants& c, const SearchVariant& v,
                      gpu::Profiler* profiler) {
    gpu::Scope scope(profiler, cmd, "flock");
    const uint32_t next = 1 - f.current;
    const gpu::Program& program = f.search.pipelines[variantIndex(v)];
    CHECK(program.pipeline != VK_NULL_HANDLE); // prepareGrid compiles the mode's pipelines
    if (v.mode == Mode::Coherent) {
        gpu::bindProgram(cmd, program,
                         {f.pos[f.current], f.vel[f.current], f.keyStarts, f.pos[next], f.vel[next],
                          f.cellKeys, f.slotValues});
    } else {
        // The rules read the velocities in sorted order rather than gather each neighbour's. The last
        // step's search, which read velSorted, is behind the barrier that ends every step.
        gpu::bindProgram(cmd, f.search.gatherVelocities, {f.sortedSlots, f.vel[f.current], f.velSorted});
        gpu::dispatch(cmd, f.search.gatherVelocities, f.count, c);
        gpu::computeBarrier(cmd); // velSorted is the search's input
        gpu::bindProgram(cmd, program,
                         {f.pos[f.current], f.velSorted, f.sortedSlots, f.keyStarts, f.pos[next], f.vel[next],
                          f.cellKeys, f.slotValues});
    }
    gpu::dispatch(cmd, program, f.count, c);
    f.current = next;
    f.keysCurrent = true; // the new state's pairs for this grid
    f.keysFor = c;
}
} // namespace sim
