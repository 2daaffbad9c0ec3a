#include "app/headless/list_devices.h"

#include "app/exit_codes.h"
#include "gpu/context.h"

#include <cstdio>

namespace app {

int runListDevices() {
    std::vector<gpu::DeviceSummary> devices = gpu::listDevices();
    if (devices.empty()) std::printf("no Vulkan devices\n");
    for (const gpu::DeviceSummary& d : devices) {
        std::printf("%u: %s (%s), Vulkan %s, %s, subgroup %u, %.1f GiB%s%s\n", d.index, d.name.c_str(),
                    d.type.c_str(), d.api.c_str(), d.driver.c_str(), d.subgroupSize,
                    double(d.localMemory) / (1 << 30),
                    d.usable ? "" : ", unusable: ", d.usable ? "" : d.whyNot.c_str());
    }
    return exitOk;
}

} // namespace app
