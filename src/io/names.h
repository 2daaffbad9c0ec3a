#pragma once
// One table of names per enum, in the enum's order, so that parsing, printing and the command
// line's list of choices all read the same words.

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace io {

// names[i] is the name of Enum(i).
template <typename Enum, size_t N> struct NameTable { std::array<const char*, N> names; };

template <typename Enum, size_t N> const char* nameIn(const NameTable<Enum, N>& table, Enum value) {
    const size_t i = size_t(value);
    return i < N ? table.names[i] : "?";
}

template <typename Enum, size_t N>
std::optional<Enum> valueIn(const NameTable<Enum, N>& table, std::string_view text) {
    for (size_t i = 0; i < N; ++i)
        if (text == table.names[i]) return Enum(i);
    return std::nullopt;
}

// The names joined for a message: "a, b or c" (lastSeparator " or "), or "a, b, c" (", ").
template <typename Enum, size_t N>
std::string choiceList(const NameTable<Enum, N>& table, const char* lastSeparator = " or ") {
    std::string text;
    for (size_t i = 0; i < N; ++i) {
        if (i > 0) text += i + 1 == N ? lastSeparator : ", ";
        text += table.names[i];
    }
    return text;
}

} // namespace io
