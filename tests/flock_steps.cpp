#include "flock_steps.h"

#include "gpu_test.h"

namespace test {

sim::State stepFlock(const gpu::Context& ctx, const sim::State& in, const sim::Params& p,
                     const sim::Grid& grid, const Steps& steps,
                     const std::function<void(sim::Flock&)>& inspect) {
    sim::Flock f = sim::createFlock(ctx, in.count(), steps.flock);
    sim::uploadState(ctx, f, in);
    for (gpu::Buffer* b : {&f.pos[1], &f.vel[1], &f.ids[1]}) gpu::fillBuffer(ctx, *b, 0xffffffffu); // NaN
    sim::prepareGrid(ctx, f, grid, steps.mode, steps.build); // compiles the mode's search pipelines
    if (steps.maxGroupsX) {
        std::vector<gpu::Program*> programs = sim::flockPrograms(f);
        programs.push_back(&f.radix.sorter.histogram);
        programs.push_back(&f.radix.sorter.onesweep);
        programs.push_back(&f.radix.sorter.onesweepNarrow);
        for (gpu::Program* program : programs) program->maxGroupsX = steps.maxGroupsX;
    }
    for (int s = 0; s < steps.count; ++s) {
        VkCommandBuffer cmd = gpu::beginOneShot(ctx); // ctx's own: it need not be test::gpuContext()
        sim::recordStep(cmd, f, p, steps.mode, grid, steps.build, nullptr);
        gpu::endOneShot(ctx, cmd);
    }
    sim::State out = sim::downloadState(ctx, f);
    if (inspect) inspect(f);
    sim::destroyFlock(ctx, f);
    return out;
}

} // namespace test
