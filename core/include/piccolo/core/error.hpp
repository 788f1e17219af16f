#pragma once
// Errors that reach the user. An InputError is the user's to fix (bad file, impossible
// parameter): the CLI prints its one-line message and exits with status 2.

#include <stdexcept>
#include <string>

namespace piccolo {

class InputError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

}  // namespace piccolo
