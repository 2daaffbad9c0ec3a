#pragma once
// The help overlay (F1 or ?): the controls, and what each mode does.

namespace app {

// A window in the middle of the screen; its close button clears `open`.
void drawHelp(bool* open);

} // namespace app
