// vkboids: the command-line entry. Errors end here as one line on stderr and an exit code.

#include "app/cli/cli.h"
#include "app/demo/demo.h"
#include "app/headless/bench.h"
#include "app/headless/list_devices.h"
#include "app/headless/sort_bench.h"
#include "app/headless/step.h"
#include "gpu/check.h"
#include "gpu/context.h"
#include "harness/harness.h"
#include "io/output.h"
#include "io/platform.h"

#include "build_info.h" // generated at each build, so only this file includes it (see buildCommit in app/run.h)

#include <cstdio>
#include <exception>

int main(int argc, char** argv) {
    app::setBuildCommit(VKBOIDS_COMMIT);
    // A FIFO whose reader quits mid-write gives EPIPE, reported as a one-line error, not a silent death.
    io::os::ignoreBrokenPipes();
    // Piped or redirected, output still arrives line by line as it is printed (a bench's rows as each
    // configuration finishes), not all at the end.
    io::os::flushEachLine(stdout);
    try {
        app::CommandLine cl = app::parseCommandLine(argc, argv);
        switch (cl.command) {
        case app::Command::Exit: return cl.exitCode;
        case app::Command::ListDevices: return app::runListDevices();
        case app::Command::Step: return app::runStep(cl.global, cl.step);
        case app::Command::SortBench: return app::runSortBench(cl.global, cl.sortBench);
        case app::Command::Bench: return app::runBench(cl.global, cl.bench);
        case app::Command::Demo: return app::runDemo(cl.global, cl.demo, harness::createHarness(cl.harness));
        }
    } catch (const gpu::OptionRefused& e) {
        std::fprintf(stderr, "vkboids: error: %s\n", app::errorText(e).c_str());
        // A missing validation layer is what the system lacks, not a mistake in the user's input.
        return e.option == gpu::ContextOption::Validation ? app::exitFailure : app::exitBadInput;
    } catch (const io::InputError& e) {
        std::fprintf(stderr, "vkboids: error: %s\n", app::errorText(e).c_str());
        return app::exitBadInput;
    } catch (const gpu::OutOfMemory& e) {
        std::fprintf(stderr, "vkboids: error: out of GPU memory: %s\n", e.what());
        return app::exitBadInput;
    } catch (const gpu::Unsupported& e) {
        std::fprintf(stderr, "vkboids: error: %s\n", e.what());
        return app::exitBadInput;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vkboids: error: %s\n", e.what());
        return app::exitFailure;
    }
    return app::exitFailure;
}
