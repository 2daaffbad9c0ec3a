#include "io/output.h"

#include "io/platform.h"

#include <cctype>
#include <cstdint>
#include <filesystem>

namespace io {
namespace {

[[noreturn]] void cannotWrite(const std::string& path, const std::string& why) {
    throw InputError("cannot write '" + path + "': " + why);
}

// A regular file, old or new, is replaced by renaming a temporary file over it. A device or a pipe
// is written into instead: renaming over it would destroy it.
bool inPlace(const os::Target& target) {
    return target.kind == os::Kind::Device || target.kind == os::Kind::Pipe;
}

os::Target targetOf(const std::string& path) {
    os::Target target = os::targetOf(path);
    if (target.kind == os::Kind::Directory) cannotWrite(path, "it is a directory");
    return target;
}

// "state.NPY" has the extension ".npy"; ".npy" alone is the name of a hidden file without one.
bool hasExtension(const std::string& name, const std::string& extension) {
    if (name.size() <= extension.size()) return false;
    for (size_t i = 0; i < extension.size(); ++i)
        if (std::tolower(uint8_t(name[name.size() - extension.size() + i])) !=
            std::tolower(uint8_t(extension[i])))
            return false;
    return true;
}

} // namespace

void checkWritable(const std::string& path) {
    const os::Target target = targetOf(path);
    if (inPlace(target)) return os::checkWritableInPlace(path, target);
    os::checkReplaceable(path, target);
    // The probe's file is removed before an interrupt can end the run.
    const os::DeferInterrupts deferred;
    os::removeQuietly(os::writeTemporary(path, target, ""));
}

void checkOutputPath(const std::string& path, const char* extension) {
    const os::Target target = targetOf(path);
    const std::string name = os::utf8(os::fsPath(path).filename());
    if (!inPlace(target) && !hasExtension(name, extension))
        cannotWrite(path, std::string("the file name must end in ") + extension);
    checkWritable(path);
}

void checkDistinctOutputs(const std::vector<std::string>& paths) {
    std::vector<std::filesystem::path> files(paths.size());
    for (size_t i = 0; i < paths.size(); ++i) {
        const os::Target target = targetOf(paths[i]);
        if (inPlace(target)) continue;
        std::error_code error;
        // The path is made absolute first, because weakly_canonical leaves a name that does not exist
        // yet relative.
        files[i] = std::filesystem::absolute(os::fsPath(target.file), error);
        if (!error) files[i] = std::filesystem::weakly_canonical(files[i], error);
        if (error) cannotWrite(paths[i], error.message());
        for (size_t j = 0; j < i; ++j) {
            if (files[j].empty()) continue;
            const bool same = files[i] == files[j] || std::filesystem::equivalent(files[i], files[j], error);
            if (same)
                throw InputError("'" + paths[j] + "' and '" + paths[i] +
                                 "' are the same file: give each output its own");
        }
    }
}

std::string besidePath(const std::string& named, const char* extension) {
    if (inPlace(targetOf(named))) return "";
    return os::utf8(os::fsPath(named).replace_extension(extension));
}

void checkBesideWritable(const std::string& path, const std::string& named) {
    const auto refuse = [&](const char* what) {
        throw InputError("cannot write '" + path + "' beside '" + named + "': it is " + what +
                         " (only a path given on the command line is followed or written into)");
    };
    if (os::isLink(path)) refuse("a link");
    const os::Target target = os::targetOf(path);
    if (target.kind == os::Kind::Directory) refuse("a directory");
    if (inPlace(target)) refuse(target.kind == os::Kind::Device ? "a device" : "a pipe");
    checkWritable(path);
}

void writeFileAtomically(const std::string& path, const std::string& bytes) {
    writeFilesAtomically({{path, bytes}});
}

void writeFilesAtomically(const std::vector<std::pair<std::string, std::string>>& files) {
    // An interrupt waits until the outputs are whole or gone.
    const os::DeferInterrupts deferred;
    std::vector<std::string> paths;
    for (const auto& file : files) paths.push_back(file.first);
    checkDistinctOutputs(paths);
    std::vector<os::Target> targets;
    for (const auto& file : files) {
        targets.push_back(targetOf(file.first));
        os::checkReplaceable(file.first, targets.back());
    }
    // Every temporary file is written before anything is written in place or renamed, so a failure
    // there leaves no new file; devices and pipes cannot take part in that, and come next.
    std::vector<std::string> temporaries(files.size()); // empty where written in place
    auto removeTemporaries = [&](size_t from) {
        for (size_t i = from; i < files.size(); ++i)
            if (!temporaries[i].empty()) os::removeQuietly(temporaries[i]);
    };
    try {
        for (size_t i = 0; i < files.size(); ++i)
            if (!inPlace(targets[i]))
                temporaries[i] = os::writeTemporary(files[i].first, targets[i], files[i].second);
        for (size_t i = 0; i < files.size(); ++i)
            if (inPlace(targets[i])) os::writeInPlace(files[i].first, targets[i], files[i].second);
    } catch (const InputError&) {
        removeTemporaries(0);
        throw;
    }
    for (size_t i = 0; i < files.size(); ++i) {
        if (inPlace(targets[i])) continue;
        try {
            os::replace(files[i].first, temporaries[i], targets[i]);
        } catch (const InputError&) {
            removeTemporaries(i);
            throw;
        }
    }
}

} // namespace io
