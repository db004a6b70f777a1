// What every typed run header (report/imb_header.hpp, report/paw_header.hpp) and typed run context
// (report/paw_context.hpp) does the same way when it travels as JSON: an optional field is written
// only when set and read only when present, and a part of several fields is whole or absent.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace parbench::report::header_fields {

// `value` under `key`, where it is set; no key where it is not.
template <class T>
void put(nlohmann::json& j, const char* key, const std::optional<T>& value) {
    if (value) j[key] = *value;
}

// The value under `key`, or none where the key is absent.
template <class T>
[[nodiscard]] std::optional<T> optional(const nlohmann::json& j, const char* key) {
    if (!j.contains(key)) return std::nullopt;
    return j.at(key).get<T>();
}

// The refusal of a part that lacks some of `keys`.
[[nodiscard]] inline std::invalid_argument half_part(std::string_view owner, std::string_view part,
                                                     std::initializer_list<const char*> keys) {
    std::string names;
    for (const char* key : keys) names += std::string(names.empty() ? "" : ", ") + key;
    return std::invalid_argument(std::string(owner) + ": the " + std::string(part) +
                                 " part needs all of " + names);
}

// Whether the part `part` of what `owner` names ("PAW run context") is there: all of `keys`
// present (true), none of them (false); some of them is refused, naming the part and its keys.
[[nodiscard]] inline bool has_part_of(const nlohmann::json& j, std::string_view owner,
                                      std::string_view part,
                                      std::initializer_list<const char*> keys) {
    std::size_t present = 0;
    for (const char* key : keys) present += j.contains(key) ? 1 : 0;
    if (present == 0) return false;
    if (present == keys.size()) return true;
    throw half_part(owner, part, keys);
}

// Whether the part `part` of `layout`'s run header is there (has_part_of).
[[nodiscard]] inline bool has_part(const nlohmann::json& j, std::string_view layout,
                                   const char* part, std::initializer_list<const char*> keys) {
    return has_part_of(j, std::string(layout) + " run header", part, keys);
}

// A part that is there by a key of its own (an object): all of `keys` present, or refused as
// half of one.
inline void require_whole_part(const nlohmann::json& j, std::string_view owner,
                               std::string_view part, std::initializer_list<const char*> keys) {
    if (!j.is_object() || !has_part_of(j, owner, part, keys)) throw half_part(owner, part, keys);
}

}  // namespace parbench::report::header_fields
