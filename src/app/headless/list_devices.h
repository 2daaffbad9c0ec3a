#pragma once
// --list-devices: the Vulkan devices, their index for --device, and why any is unusable.

namespace app {

int runListDevices();

} // namespace app
