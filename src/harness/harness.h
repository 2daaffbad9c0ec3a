#pragma once
// The demo's test harness: what only the tests drive and read, kept apart from the product. Hidden
// options of the demo, absent from --help (docs/TESTING.md), turn it on; without them the demo runs
// with no harness at all. The demo calls it through one seam, app::DemoHarness (app/demo/demo.h).

#include "app/demo/demo.h"

#include <string>

namespace harness {

struct Options {
    bool exerciseWindow = false; // --exercise-window: resize, minimize and restore during the run
    std::string inputScript;     // --input-script: input events at given frames (input_script.h)
    bool reportMemory = false;   // --report-memory: the device memory vkboids holds, a line a second
    bool reportLayout = false;   // --report-layout: the panels' and the domain's rectangles, a line a second
};

// The calls the demo makes into a harness with these options; calls that do nothing where no option
// is given. Reads the input script: throws io::InputError in one line.
app::DemoHarness createHarness(const Options& options);

} // namespace harness
