#include "gpu/spirv_reflect.h"

#include "gpu/check.h"

#include <algorithm>
#include <string_view>

namespace gpu {
namespace {

// The opcodes, decorations and enumerants of the SPIR-V specification that reflection needs.
enum Op : uint32_t {
    OpName = 5,
    OpEntryPoint = 15,
    OpExecutionMode = 16,
    OpTypeInt = 21,
    OpTypeFloat = 22,
    OpTypeVector = 23,
    OpTypeMatrix = 24,
    OpTypeImage = 25,
    OpTypeSampler = 26,
    OpTypeSampledImage = 27,
    OpTypeArray = 28,
    OpTypeRuntimeArray = 29,
    OpTypeStruct = 30,
    OpTypePointer = 32,
    OpConstant = 43,
    OpConstantComposite = 44,
    OpSpecConstantTrue = 48,
    OpSpecConstantFalse = 49,
    OpSpecConstant = 50,
    OpSpecConstantComposite = 51,
    OpVariable = 59,
    OpDecorate = 71,
    OpMemberDecorate = 72,
    OpExecutionModeId = 331,
};
enum Decoration : uint32_t {
    SpecId = 1,
    ArrayStride = 6,
    BuiltIn = 11,
    Binding = 33,
    DescriptorSet = 34,
    Offset = 35,
};
enum StorageClass : uint32_t { UniformConstant = 0, Uniform = 2, PushConstant = 9, StorageBuffer = 12 };
constexpr uint32_t BuiltInWorkgroupSize = 25, ModeLocalSize = 17, ModeLocalSizeId = 38;

struct Id {
    uint32_t opcode = 0;
    uint32_t typeId = 0; // the type pointed to, or of the elements or components
    uint32_t storageClass = 0;
    uint32_t width = 0;    // bits of an int or float, or the count of a vector or matrix
    uint32_t value = 0;    // a constant's value
    uint32_t lengthId = 0; // an array's length (OpTypeArray)
    uint32_t sampled = 0;  // for OpTypeImage, 1 means sampled and 2 storage
    std::vector<uint32_t> members;
    std::vector<uint32_t> memberOffsets;
    uint32_t arrayStride = 0;
    int binding = -1, set = -1, specId = -1;
    bool workgroupSizeBuiltin = false;
    std::string name; // OpName
};

bool isSpecConstant(uint32_t opcode) {
    return opcode == OpSpecConstant || opcode == OpSpecConstantTrue || opcode == OpSpecConstantFalse;
}

uint32_t typeSize(const std::vector<Id>& ids, uint32_t type) {
    const Id& t = ids[type];
    switch (t.opcode) {
    case OpTypeInt:
    case OpTypeFloat: return t.width / 8;
    case OpTypeVector: return t.width * typeSize(ids, t.typeId);
    case OpTypeArray: return ids[t.lengthId].value * t.arrayStride;
    case OpTypeStruct: {
        uint32_t size = 0;
        for (size_t m = 0; m < t.members.size(); ++m)
            size = std::max(size, t.memberOffsets[m] + typeSize(ids, t.members[m]));
        return size;
    }
    default: throw Error("SPIR-V reflection: unsupported type in a push-constant block");
    }
}

// The ids a module defines, and the local size it names by id (LocalSizeId, or a WorkgroupSize
// built-in), which is resolved once every constant is known.
struct Module {
    std::vector<Id> ids;
    uint32_t localSizeIds[3] = {0, 0, 0};
    bool hasLocalSizeIds = false;
};

VkShaderStageFlagBits stageOf(uint32_t executionModel) {
    switch (executionModel) {
    case 0: return VK_SHADER_STAGE_VERTEX_BIT;
    case 4: return VK_SHADER_STAGE_FRAGMENT_BIT;
    case 5: return VK_SHADER_STAGE_COMPUTE_BIT;
    default: throw Error("SPIR-V reflection: unsupported execution model");
    }
}

void recordDecoration(std::vector<Id>& ids, const uint32_t* w) {
    Id& id = ids[w[1]];
    if (w[2] == Binding) id.binding = int(w[3]);
    if (w[2] == DescriptorSet) id.set = int(w[3]);
    if (w[2] == SpecId) id.specId = int(w[3]);
    if (w[2] == ArrayStride) id.arrayStride = w[3];
    if (w[2] == BuiltIn && w[3] == BuiltInWorkgroupSize) id.workgroupSizeBuiltin = true;
}

// A type, constant or variable instruction (of `count` words at `w`) into the id it defines; any
// other instruction is skipped.
void recordDefinition(std::vector<Id>& ids, uint32_t opcode, uint32_t count, const uint32_t* w) {
    switch (opcode) {
    case OpTypeInt:
    case OpTypeFloat:
        ids[w[1]].opcode = opcode;
        ids[w[1]].width = w[2];
        break;
    case OpTypeVector:
    case OpTypeMatrix:
        ids[w[1]].opcode = opcode;
        ids[w[1]].typeId = w[2];
        ids[w[1]].width = w[3];
        break;
    case OpTypeArray:
        ids[w[1]].opcode = opcode;
        ids[w[1]].typeId = w[2];
        ids[w[1]].lengthId = w[3];
        break;
    case OpTypeImage:
        ids[w[1]].opcode = opcode;
        ids[w[1]].sampled = count > 7 ? w[7] : 0;
        break;
    case OpTypeRuntimeArray:
    case OpTypeSampler:
    case OpTypeSampledImage:
        ids[w[1]].opcode = opcode;
        ids[w[1]].typeId = count > 2 ? w[2] : 0;
        break;
    case OpTypeStruct:
        ids[w[1]].opcode = opcode;
        ids[w[1]].members.assign(w + 2, w + count);
        ids[w[1]].memberOffsets.resize(count - 2);
        break;
    case OpTypePointer:
        ids[w[1]].opcode = opcode;
        ids[w[1]].storageClass = w[2];
        ids[w[1]].typeId = w[3];
        break;
    case OpConstant:
    case OpSpecConstant:
    case OpSpecConstantTrue:
    case OpSpecConstantFalse:
        ids[w[2]].opcode = opcode;
        ids[w[2]].typeId = w[1];
        ids[w[2]].value = count > 3 ? w[3] : 0;
        break;
    case OpConstantComposite:
    case OpSpecConstantComposite:
        ids[w[2]].opcode = opcode;
        ids[w[2]].members.assign(w + 3, w + count);
        break;
    case OpVariable:
        ids[w[2]].opcode = opcode;
        ids[w[2]].typeId = w[1];
        ids[w[2]].storageClass = w[3];
        break;
    default: break;
    }
}

// Every instruction after the header, in order: names, decorations and definitions into the module's
// ids; the stage and literal local size straight into `r`.
Module decodeModule(std::span<const uint32_t> code, ShaderReflection& r) {
    Module m;
    m.ids.resize(code[3]); // the id bound
    std::vector<Id>& ids = m.ids;
    for (size_t at = 5; at < code.size();) {
        const uint32_t opcode = code[at] & 0xffff, count = code[at] >> 16;
        if (count == 0 || at + count > code.size()) throw Error("malformed SPIR-V module");
        const uint32_t* w = &code[at];
        switch (opcode) {
        case OpName:
            // A nul-terminated UTF-8 string packed into the words after the target.
            if (count > 2) {
                const std::string_view text(reinterpret_cast<const char*>(w + 2), (count - 2) * 4);
                ids[w[1]].name = text.substr(0, text.find('\0'));
            }
            break;
        case OpEntryPoint: r.stage = stageOf(w[1]); break;
        case OpExecutionMode:
            if (w[2] == ModeLocalSize)
                for (int i = 0; i < 3; ++i) r.localSize[i] = w[3 + i];
            break;
        case OpExecutionModeId:
            if (w[2] == ModeLocalSizeId) {
                m.hasLocalSizeIds = true;
                for (int i = 0; i < 3; ++i) m.localSizeIds[i] = w[3 + i];
            }
            break;
        case OpDecorate: recordDecoration(ids, w); break;
        case OpMemberDecorate:
            if (w[3] == Offset) {
                Id& id = ids[w[1]];
                if (id.memberOffsets.size() <= w[2]) id.memberOffsets.resize(w[2] + 1);
                id.memberOffsets[w[2]] = w[4];
            }
            break;
        default: recordDefinition(ids, opcode, count, w);
        }
        at += count;
    }
    return m;
}

// Local size: LocalSizeId operands, or a WorkgroupSize built-in composite (which overrides LocalSize).
void resolveLocalSize(Module& m, ShaderReflection& r) {
    const std::vector<Id>& ids = m.ids;
    for (uint32_t i = 0; i < ids.size(); ++i)
        if (ids[i].workgroupSizeBuiltin && ids[i].members.size() == 3) {
            m.hasLocalSizeIds = true;
            for (int a = 0; a < 3; ++a) m.localSizeIds[a] = ids[i].members[a];
        }
    if (m.hasLocalSizeIds)
        for (int a = 0; a < 3; ++a) {
            const Id& c = ids[m.localSizeIds[a]];
            r.localSize[a] = c.value;
            r.localSizeSpecId[a] = c.opcode == OpSpecConstant ? c.specId : -1;
        }
}

VkDescriptorType descriptorType(const std::vector<Id>& ids, const Id& variable) {
    uint32_t t = ids[variable.typeId].typeId;
    while (ids[t].opcode == OpTypeArray || ids[t].opcode == OpTypeRuntimeArray) t = ids[t].typeId;
    if (variable.storageClass == StorageBuffer) return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    if (variable.storageClass == Uniform) return VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    if (ids[t].opcode == OpTypeSampledImage) return VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    if (ids[t].opcode == OpTypeImage && ids[t].sampled == 2) return VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    throw Error("SPIR-V reflection: unsupported descriptor type");
}

// The push-constant block's size and the descriptor bindings, from the variables.
void collectVariables(const std::vector<Id>& ids, ShaderReflection& r, UnusedBindings unused) {
    for (uint32_t i = 0; i < ids.size(); ++i) {
        const Id& v = ids[i];
        if (v.opcode != OpVariable) continue;
        if (v.storageClass == PushConstant) {
            r.pushConstantSize = typeSize(ids, ids[v.typeId].typeId);
            continue;
        }
        if (v.storageClass != Uniform && v.storageClass != StorageBuffer && v.storageClass != UniformConstant)
            continue;
        if (v.binding < 0) continue;
        if (v.set != 0) throw Error("SPIR-V reflection: only descriptor set 0 is supported");
        const VkDescriptorType type = descriptorType(ids, v);
        if (r.bindings.size() <= size_t(v.binding)) r.bindings.resize(v.binding + 1, unusedBinding);
        r.bindings[v.binding] = type;
    }
    if (unused == UnusedBindings::Refused)
        for (VkDescriptorType t : r.bindings)
            if (t == unusedBinding) throw Error("SPIR-V reflection: bindings must be contiguous from 0");
}

} // namespace

ShaderReflection reflectSpirv(std::span<const uint32_t> code, UnusedBindings unused) {
    if (code.size() < 5 || code[0] != 0x07230203) throw Error("not a SPIR-V module");
    ShaderReflection r;
    Module m = decodeModule(code, r);
    resolveLocalSize(m, r);
    for (const Id& id : m.ids)
        if (isSpecConstant(id.opcode) && id.specId >= 0 && !id.name.empty())
            r.specConstants.push_back({id.name, uint32_t(id.specId)});
    collectVariables(m.ids, r, unused);
    return r;
}

} // namespace gpu
