#pragma once
// The interactive demo: a window, the flock drawn each frame, the panel, and the controls.

#include "app/demo/demo_options.h"
#include "app/run.h"

namespace app {

int runDemo(const GlobalOptions& global, const DemoOptions& options);

} // namespace app
