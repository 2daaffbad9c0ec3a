#pragma once
// A capture's files: the CSV the user named and, beside it, its JSON summary, a file the user did
// not name (io::besidePath): never a link, device or pipe, and none beside a device or pipe.

#include "app/capture.h"

#include <string>
#include <vector>

namespace app {

// The CSV and, unless the CSV is a device or pipe, the summary beside it.
std::vector<std::string> captureFiles(const std::string& csvPath);

// Both can be written, before the capture starts. Throws io::InputError.
void checkCaptureFiles(const std::string& csvPath);

// Writes the rows and their summary, both or neither; returns what was written, for the status
// line. Throws io::InputError.
std::string writeCaptureFiles(const gpu::Context& context, const gpu::TimestampProbe& probe,
                              const Capture& capture);

} // namespace app
