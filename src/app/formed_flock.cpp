#include "app/formed_flock.h"

#include "sim/npy.h"

#include <string>
#include <string_view>

namespace app {

std::string_view embeddedFormedFlock(); // generated from assets/flock-20000.npy (cmake/embed_bytes.cmake)

sim::State formedFlock() {
    return sim::decodeNpy(std::string(embeddedFormedFlock()), "the embedded assets/flock-20000.npy");
}

} // namespace app
