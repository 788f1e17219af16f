#include "xml_window.hpp"

#include <fmt/format.h>
#include <cstring>

#include "piccolo/error.hpp"
#include "piccolo/input_file.hpp"

namespace piccolo::detail {

namespace {

// A piece: large enough that reads cost nothing next to parsing, small next to any IR.
constexpr std::size_t kPiece = std::size_t{4} << 20;

[[noreturn]] void decline() {
    throw NotStreamable{};
}

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
bool is_name_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}
bool is_name_char(char c) {
    return is_name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}
// Characters the DOM reader would rewrite or refuse in a value: references are decoded and
// whitespace other than spaces is normalized (pugixml's parse_escapes and parse_wconv_attribute).
bool plain_value(std::string_view value) {
    for (char c : value)
        if (c == '<' || c == '&' || c == '\t' || c == '\n' || c == '\r' || c == '\0') return false;
    return true;
}

}  // namespace

bool XmlWindow::read_more() {
    if (in_ == nullptr) return false;
    line();  // count the newlines of what is about to be dropped
    buffer_.erase(0, pos_);
    counted_ -= pos_;
    pos_ = 0;
    const std::size_t old_size = buffer_.size();
    buffer_.resize(old_size + kPiece);
    in_->read(buffer_.data() + old_size, static_cast<std::streamsize>(kPiece));
    const auto got = static_cast<std::size_t>(in_->gcount());
    buffer_.resize(old_size + got);
    read_ += got;
    if (read_ > kMaxScheduleFileBytes)
        throw InputError(fmt::format("{}: schedule larger than {} MiB; is this the right file?",
                                     origin_, kMaxScheduleFileBytes >> 20));
    if (in_->bad()) throw InputError(fmt::format("{}: read error on schedule", origin_));
    return got > 0;
}

bool XmlWindow::have(std::size_t n) {
    while (buffer_.size() - pos_ < n)
        if (!read_more()) return false;
    return true;
}

std::uint32_t XmlWindow::line() {
    const char* const begin = buffer_.data();
    const char* at = begin + counted_;
    const char* const end = begin + pos_;
    while ((
        at = static_cast<const char*>(std::memchr(at, '\n', static_cast<std::size_t>(end - at))))) {
        ++line_;
        ++at;
    }
    counted_ = pos_;
    return line_;
}

void XmlWindow::skip_comment() {  // at "<!--"
    pos_ += 4;
    for (;;) {
        if (!have(3)) decline();
        const char c = at(0);
        if (c == '\0') decline();
        if (c == '-' && at(1) == '-') {
            if (at(2) != '>') decline();  // "--" inside a comment is not XML
            pos_ += 3;
            return;
        }
        ++pos_;
    }
}

// <?xml version="1.0" encoding="UTF-8"?>: another encoding is the DOM reader's to convert.
void XmlWindow::skip_declaration() {
    std::size_t end = 5;
    for (; !(have(end + 2) && at(end) == '?' && at(end + 1) == '>'); ++end)
        if (!have(end + 2) || at(end) == '\0' || at(end) == '<') decline();
    const std::string_view text = rest().substr(0, end);
    if (const std::size_t e = text.find("encoding"); e != std::string_view::npos) {
        std::string value;
        for (char c : text.substr(e + 8))
            if (c != '=' && c != '"' && c != '\'' && !is_space(c) && c != '?')
                value += static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
            else if (!value.empty())
                break;
        if (value != "UTF-8") decline();
    }
    pos_ += end + 2;
}

void XmlWindow::skip_prolog() {
    if (starts_with("<?xml") && have(6) && is_space(at(5))) skip_declaration();
    if (!skip_misc(false)) decline();  // no root element
}

bool XmlWindow::skip_misc(bool skip_text) {
    for (;;) {
        while (have(1) && at(0) != '<') {
            const char c = at(0);
            if (!is_space(c) && (!skip_text || c == '&' || c == '\0')) decline();
            ++pos_;
        }
        if (!have(2)) return false;
        if (at(1) != '!') {
            if (at(1) == '?') decline();  // processing instructions
            return true;
        }
        if (!starts_with("<!--")) decline();  // DOCTYPE, CDATA
        skip_comment();
    }
}

bool XmlWindow::at_end_tag() {
    return have(2) && at(1) == '/';
}

// The length of the tag at pos_ through its '>' (quotes may hold '>').
std::size_t XmlWindow::tag_length() {
    char quote = 0;
    for (std::size_t i = 1;; ++i) {
        if (!have(i + 1)) decline();
        const char c = at(i);
        if (quote != 0) {
            if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '>') {
            return i + 1;
        }
    }
}

void XmlWindow::read_start_tag(XmlTag& tag) {
    const std::size_t length = tag_length();
    tag.line = line();
    const std::string_view text = rest().substr(0, length);
    std::size_t i = 1;
    if (!is_name_start(text[i])) decline();
    while (is_name_char(text[i])) ++i;
    tag.name = text.substr(1, i - 1);
    parse_attributes(text, i, tag);
    pos_ += length;
}

void XmlWindow::parse_attributes(std::string_view text, std::size_t i, XmlTag& tag) const {
    tag.attributes.clear();
    for (;;) {
        const std::size_t before_space = i;
        while (is_space(text[i])) ++i;
        if (text[i] == '/' || text[i] == '>') {
            tag.empty = text[i] == '/';
            if (tag.empty && text[i + 1] != '>') decline();
            return;
        }
        if (i == before_space || !is_name_start(text[i])) decline();
        const std::size_t name_start = i;
        while (is_name_char(text[i])) ++i;
        const std::string_view name = text.substr(name_start, i - name_start);
        while (is_space(text[i])) ++i;
        if (text[i] != '=') decline();
        ++i;
        while (is_space(text[i])) ++i;
        const char quote = text[i];
        if (quote != '"' && quote != '\'') decline();
        const std::size_t close = text.find(quote, i + 1);  // tag_length() saw it
        const std::string_view value = text.substr(i + 1, close - i - 1);
        if (!plain_value(value)) decline();
        tag.attributes.push_back({name, value});
        i = close + 1;
    }
}

void XmlWindow::read_end_tag(std::string_view name) {
    if (!have(name.size() + 3) || rest().substr(2, name.size()) != name) decline();
    std::size_t i = 2 + name.size();
    while (have(i + 1) && is_space(at(i))) ++i;
    if (!have(i + 1) || at(i) != '>') decline();
    pos_ += i + 1;
}

void XmlWindow::read_empty_content(std::string_view name) {
    const std::string owned(name);  // the tag's views die when the window moves
    while (have(1) && is_space(at(0))) ++pos_;
    if (!have(2) || at(0) != '<' || at(1) != '/') decline();
    read_end_tag(owned);
}

}  // namespace piccolo::detail
