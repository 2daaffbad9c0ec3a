#pragma once
// vkboids' exit codes (README "Exit codes"), for every command and the run machinery below them.

namespace app {

constexpr int exitOk = 0;
constexpr int exitFailure = 1;    // a Vulkan or system failure, or an output not written
constexpr int exitBadInput = 2;   // flags, files, sizes
constexpr int exitValidation = 3; // validation errors were reported
constexpr int exitMismatch = 4;   // a GPU result disagreed with its CPU reference

} // namespace app
