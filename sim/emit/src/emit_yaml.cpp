// YAML: the JSON tree in block style. Scalars are written as JSON scalars (JSON strings and
// numbers are valid YAML flow scalars), lists of scalars in flow style to stay compact.
#include <nlohmann/json.hpp>

#include "piccolo/emit/select_emit.hpp"
#include "piccolo/select/select_text.hpp"

namespace piccolo {

namespace {

using Json = nlohmann::ordered_json;

bool scalar(const Json& j) {
    return !j.is_object() && !j.is_array();
}

bool flat(const Json& j) {  // a list of scalars, or of lists of scalars: one line
    if (!j.is_array()) return scalar(j);
    for (const Json& item : j)
        if (!flat(item)) return false;
    return true;
}

std::string inline_value(const Json& j) {
    if (j.is_array()) {
        std::string out = "[";
        for (std::size_t i = 0; i < j.size(); ++i) {
            if (i) out += ", ";
            out += inline_value(j[i]);
        }
        return out + "]";
    }
    if (j.is_object() && j.empty()) return "{}";
    return j.dump();
}

void write(std::string& out, const Json& j, int indent);

void write_entry(std::string& out, const Json& value, int indent) {
    if (flat(value) || (value.is_object() && value.empty())) {
        out += ' ';
        out += inline_value(value);
        out += '\n';
    } else {
        out += "\n";
        write(out, value, indent + 2);
    }
}

void write(std::string& out, const Json& j, int indent) {
    const std::string pad(static_cast<std::size_t>(indent), ' ');
    if (j.is_object()) {
        for (const auto& [key, value] : j.items()) {
            out += pad + Json(key).dump() + ":";
            write_entry(out, value, indent);
        }
        return;
    }
    for (const Json& item : j) {  // a list with at least one structured item
        if (item.is_object() && !item.empty()) {
            // "- key: value" on the first line, the other keys aligned under it.
            std::string nested;
            write(nested, item, indent + 2);
            out += pad + "- " + nested.substr(static_cast<std::size_t>(indent) + 2);
        } else {
            out += pad + "-";
            write_entry(out, item, indent);
        }
    }
}

}  // namespace

std::string emit_yaml(const SelectResult& result) {
    std::string out = "# piccolo select: " + detail::size_semantics(result) +
                      "; sizes in bytes, times in seconds\n";
    write(out, detail::result_tree(result), 0);
    return out;
}

}  // namespace piccolo
