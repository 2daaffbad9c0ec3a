#pragma once
// The interactive demo: a window, the flock drawn each frame, the panel, and the controls.

#include "app/demo/demo_options.h"
#include "app/demo/panel.h"
#include "app/run.h"

#include <functional>

namespace app {

struct Demo;

// The one seam through which a test harness (src/harness) drives and reads the demo; the product's
// default does nothing. `frame` runs once a pass of the frame loop, after the window's events are
// polled (minimized passes too), and returns what the harness asked for as the panel would; `end`
// runs once, after the run's summary line.
struct DemoHarness {
    std::function<PanelRequest(Demo&)> frame = [](Demo&) { return PanelRequest{}; };
    std::function<void(const Demo&)> end = [](const Demo&) {};
};

int runDemo(const GlobalOptions& global, const DemoOptions& options, const DemoHarness& harness = {});

} // namespace app
