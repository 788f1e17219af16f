#pragma once
// The tokens of the streaming schedule reader over a window of text that slides forward: the
// text is read in pieces as the tokens need them, and what lies before the current token is
// dropped. Anything outside the XML subset it knows ends in NotStreamable (see
// schedule_xml_stream.hpp): the DOM reader then reads the input and reports what is wrong. A tag's
// views point into the window until it next moves.

#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "schedule_xml_rules.hpp"  // the tokens: XmlTag, NotStreamable

namespace piccolo::detail {

class XmlWindow {
  public:
    // The whole text at once (taken, and handed back by release()).
    explicit XmlWindow(std::string&& text) : buffer_(std::move(text)) {}
    // Pieces from `in`; InputError naming `origin` past the schedule size limit or on a read error.
    XmlWindow(std::istream& in, std::string origin) : in_(&in), origin_(std::move(origin)) {}

    std::string release() { return std::move(buffer_); }

    // The prolog up to the root's '<': whitespace, comments and a leading <?xml ...?>.
    void skip_prolog();
    // Whitespace, comments and (between elements, skip_text) text without references, up to the
    // next '<' of a tag. False at the end of the text.
    bool skip_misc(bool skip_text);
    // At '<': whether an end tag follows ("</").
    bool at_end_tag();
    void read_start_tag(XmlTag& tag);
    void read_end_tag(std::string_view name);  // "</name>" with optional spaces before '>'
    // Whitespace and then "</name>": the content of an element that was not written as <.../>.
    void read_empty_content(std::string_view name);

  private:
    bool have(std::size_t n);  // at least n characters from pos_, reading more as needed
    bool read_more();
    [[nodiscard]] char at(std::size_t i) const { return buffer_[pos_ + i]; }
    [[nodiscard]] std::string_view rest() const { return std::string_view(buffer_).substr(pos_); }
    bool starts_with(std::string_view prefix) {
        return have(prefix.size()) && rest().starts_with(prefix);
    }
    bool parse_start_tag(XmlTag& tag);
    void skip_comment();
    void skip_declaration();

    std::string buffer_;
    std::size_t pos_ = 0;
    std::uint32_t line_ = 1;  // of pos_: every skip counts the newlines it passes
    std::istream* in_ = nullptr;
    std::string origin_;
    std::uint64_t read_ = 0;  // bytes read from in_
};

}  // namespace piccolo::detail
