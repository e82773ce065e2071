#pragma once
// The error contract every reader keeps (issue 15, docs/reliability.md), checked by the fuzz
// targets: a malformed input ends in std::invalid_argument whose message is one line that names
// the source, with no raw library text in it. Anything else (another exception type, an empty or
// multi-line message, a signal, a sanitizer report, a hang) is a bug: the target aborts so that
// libFuzzer (or the replay driver) reports the input that caused it.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>

namespace moreau::fuzz {

// Prints why the contract broke and aborts (libFuzzer saves the input as crash-<sha1>).
[[noreturn]] inline void contract_broken(std::string_view why, std::string_view message) {
  std::fprintf(stderr, "fuzz contract broken: %.*s\n  message: %.*s\n",
               static_cast<int>(why.size()), why.data(), static_cast<int>(message.size()),
               message.data());
  std::abort();
}

// Checks the message of a refused input: non-empty, one line, names `source`, and carries no
// raw nlohmann text ("[json.exception.…]") unless the input itself holds that text (messages quote
// the input around a syntax error).
inline void check_refusal_message(std::string_view message, std::string_view source,
                                  std::string_view input) {
  if (message.empty()) contract_broken("empty error message", message);
  if (message.find('\n') != std::string_view::npos)
    contract_broken("the error message is not one line", message);
  if (message.find(source) == std::string_view::npos)
    contract_broken("the error message does not name the source", message);
  if (message.find("[json.exception") != std::string_view::npos &&
      input.find("[json.exception") == std::string_view::npos)
    contract_broken("raw library text in the error message", message);
}

// Runs `read`: success, or a refusal that keeps the contract. Any other exception breaks it.
// `input` is the text read (empty for binary inputs).
template <typename Read>
void expect_success_or_clean_refusal(std::string_view source, std::string_view input, Read&& read) {
  try {
    read();
  } catch (const std::invalid_argument& e) {
    check_refusal_message(e.what(), source, input);
  } catch (const std::exception& e) {
    contract_broken("an exception other than std::invalid_argument escaped", e.what());
  } catch (...) {
    contract_broken("a non-standard exception escaped", "");
  }
}

}  // namespace moreau::fuzz
