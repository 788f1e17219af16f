#pragma once
// Text helpers every reader shares: excerpts of user input for one-line errors, UTF-8 checks.

#include <cstddef>
#include <string>
#include <string_view>

namespace piccolo {

// At most `limit` characters of `text` for an error message, with "..." when cut: a one-line
// error must stay readable when the input holds a megabyte-long header or attribute.
std::string excerpt(std::string_view text, std::size_t limit = 200);

// Whether `text` is well-formed UTF-8 (no stray continuation bytes, overlong forms or surrogates).
bool is_utf8(std::string_view text);

// `text` without a leading UTF-8 byte-order mark (spreadsheets write one before CSV headers).
std::string_view strip_utf8_bom(std::string_view text);

}  // namespace piccolo
