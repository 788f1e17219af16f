#include "xml_window.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cstring>

#include "piccolo/core/error.hpp"
#include "piccolo/core/input_file.hpp"

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
bool plain(char c) {
    return c != '<' && c != '&' && c != '\t' && c != '\n' && c != '\r' && c != '\0';
}

}  // namespace

bool XmlWindow::read_more() {
    if (in_ == nullptr) return false;
    buffer_.erase(0, pos_);
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

void XmlWindow::skip_comment() {  // at "<!--"
    pos_ += 4;
    for (;;) {
        if (!have(3)) decline();
        const char c = at(0);
        if (c == '\0') decline();
        line_ += c == '\n' ? 1 : 0;
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
    line_ += static_cast<std::uint32_t>(std::count(text.begin(), text.end(), '\n'));
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
            line_ += c == '\n' ? 1 : 0;
            ++pos_;
        }
        if (!have(1)) return false;
        if (!have(2)) decline();  // a lone '<' at the very end
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

void XmlWindow::read_start_tag(XmlTag& tag) {
    tag.line = line_;
    // One pass over the tag; a tag cut by the end of the window is parsed again after a read.
    while (!parse_start_tag(tag))
        if (!read_more()) decline();
}

// The tag at pos_ ('<' and a name start), when the window holds all of it.
bool XmlWindow::parse_start_tag(XmlTag& tag) {
    const char* const begin = buffer_.data() + pos_;
    const char* const end = buffer_.data() + buffer_.size();
    const char* at = begin + 1;
    std::uint32_t newlines = 0;  // counted once the whole tag is in
    auto skip_name = [&] {
        while (at < end && is_name_char(*at)) ++at;
        return at < end;
    };
    auto skip_space = [&] {
        const char* const first = at;
        for (; at < end && is_space(*at); ++at) newlines += *at == '\n' ? 1 : 0;
        return at != first;
    };
    if (at == end) return false;
    if (!is_name_start(*at)) decline();
    if (!skip_name()) return false;
    tag.name = std::string_view(begin + 1, static_cast<std::size_t>(at - begin - 1));
    tag.attributes.clear();
    for (;;) {
        const bool spaced = skip_space();
        if (at == end) return false;
        if (*at == '/' || *at == '>') {
            tag.empty = *at == '/';
            if (tag.empty && ++at == end) return false;
            if (*at != '>') decline();
            pos_ += static_cast<std::size_t>(at + 1 - begin);
            line_ += newlines;
            return true;
        }
        if (!spaced || !is_name_start(*at)) decline();
        const char* const name = at;
        if (!skip_name()) return false;
        const std::string_view attribute(name, static_cast<std::size_t>(at - name));
        skip_space();
        if (at == end) return false;
        if (*at++ != '=') decline();
        skip_space();
        if (at == end) return false;
        const char quote = *at++;
        if (quote != '"' && quote != '\'') decline();
        // Values are short (an id, a size, a list): a loop beats memchr's call.
        const char* const value = at;
        while (at < end && *at != quote)
            if (!plain(*at++)) decline();
        if (at == end) return false;
        tag.attributes.push_back({attribute, {value, static_cast<std::size_t>(at - value)}});
        ++at;
    }
}

void XmlWindow::read_end_tag(std::string_view name) {
    if (!have(name.size() + 3) || rest().substr(2, name.size()) != name) decline();
    std::size_t i = 2 + name.size();
    for (; have(i + 1) && is_space(at(i)); ++i) line_ += at(i) == '\n' ? 1 : 0;
    if (!have(i + 1) || at(i) != '>') decline();
    pos_ += i + 1;
}

void XmlWindow::read_empty_content(std::string_view name) {
    const std::string owned(name);  // the tag's views die when the window moves
    for (; have(1) && is_space(at(0)); ++pos_) line_ += at(0) == '\n' ? 1 : 0;
    if (!have(2) || at(0) != '<' || at(1) != '/') decline();
    read_end_tag(owned);
}

}  // namespace piccolo::detail
