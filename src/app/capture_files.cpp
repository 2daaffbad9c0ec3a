#include "app/capture_files.h"

#include "io/output.h"

namespace app {

std::vector<std::string> captureFiles(const std::string& csvPath) {
    const std::string json = io::besidePath(csvPath, ".json");
    if (json.empty()) return {csvPath};
    return {csvPath, json};
}

void checkCaptureFiles(const std::string& csvPath) {
    io::checkOutputPath(csvPath, ".csv");
    const std::vector<std::string> files = captureFiles(csvPath);
    if (files.size() == 1) return;
    io::checkBesideWritable(files[1], csvPath);
    io::checkDistinctOutputs(files);
}

std::string writeCaptureFiles(const gpu::Context& ctx, const gpu::TimestampProbe& probe, const Capture& c) {
    // Checked again: what lies beside the CSV may have changed during the capture.
    checkCaptureFiles(c.csvPath);
    const std::vector<std::string> paths = captureFiles(c.csvPath);
    std::string csv = csvHeader();
    for (const FrameRow& r : c.rows) csv += csvRow(r);
    std::vector<std::pair<std::string, std::string>> files = {{paths[0], csv}};
    if (paths.size() == 1) {
        io::writeFilesAtomically(files);
        return "wrote " + paths[0] + " (no JSON summary: nothing is written beside a device or pipe)";
    }
    files.push_back({paths[1], captureJson(ctx, probe, {summarizeRun(c.info, c.rows)}).dump(2) + "\n"});
    io::writeFilesAtomically(files);
    return "wrote " + paths[0] + " and " + paths[1];
}

} // namespace app
