#pragma once
// The one JSON reader of every input file: scenes (io/scene/scene.hpp), impact SPECs
// (io/reports/impact_spec.hpp) and analyze inputs (io/reports/analysis_input.hpp). Same rules for
// all:
//   - syntax errors name the source, the line, the column and the field being read;
//   - a key given twice in one object is an error (nlohmann would keep the last value silently);
//   - numbers must be JSON numbers and finite (NaN/Infinity literals and overflows are refused);
//   - objects accept only their documented fields (check_keys);
//   - every message names the field path and the offending value: "bodies[2].mass = -1: …".
// All failures throw std::invalid_argument (pybind11: ValueError; the program: exit status 2).
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "moreau/common/error.hpp"
#include "moreau/common/types.hpp"

namespace moreau::json_io {

// The JSON value type of every reader.
using json = nlohmann::json;

// Parses JSON text; `source` (a file name) starts every message.
json parse_text(const std::string& text, const std::string& source);
// Reads and parses a file; a file that cannot be read throws the one message of
// io/os/input_file.hpp ("PATH: no such file", …).
json read_file(const std::string& path);

// Runs `read(document)` and turns any nlohmann exception left over (a type or range error while
// reading a value) into std::invalid_argument starting with `source`; messages of
// std::invalid_argument get the source in front when they lack it.
template <typename Read>
auto with_source(const std::string& source, Read&& read) -> decltype(read());

// "a.b" from a path and a key ("b" when the path is empty).
std::string join(const std::string& path, const std::string& key);
// A value shown in a message, cut to 60 characters.
std::string show(const json& j);
// Rejects keys outside `allowed`, naming the path and the allowed keys; `obj` must be an object.
void check_keys(const json& obj, const std::string& path, const std::set<std::string>& allowed);

// A finite number at `path`.
double as_number(const json& j, const std::string& path);
// An optional finite number field of an object (the fallback when absent).
double number(const json& obj, const std::string& path, const std::string& key, double fallback);
// A required finite number field of an object.
double required_number(const json& obj, const std::string& path, const std::string& key);
// An optional string field of an object.
std::string string_field(const json& obj, const std::string& path, const std::string& key,
                         const std::string& fallback);
// An optional true/false field of an object.
bool bool_field(const json& obj, const std::string& path, const std::string& key, bool fallback);
// An optional integer field of an object (within the range of int).
int int_field(const json& obj, const std::string& path, const std::string& key, int fallback);
// An array of exactly `n` numbers (any length when n < 0).
Vector numbers(const json& j, const std::string& path, Index n = -1);
// An array of `rows` rows of `cols` numbers each (any count when < 0; all rows one length).
Matrix matrix(const json& j, const std::string& path, Index rows = -1, Index cols = -1);

// nlohmann's message without its "[json.exception.…] " prefix.
std::string strip_json_prefix(std::string s, bool drop_last_read = false);

template <typename Read>
auto with_source(const std::string& source, Read&& read) -> decltype(read()) {
  try {
    return read();
  } catch (const json::exception& e) {
    throw std::invalid_argument(one_line(source + ": " + strip_json_prefix(e.what())));
  } catch (const std::invalid_argument& e) {
    const std::string msg = one_line(e.what());
    if (msg.rfind(source, 0) == 0) {
      if (msg == e.what()) throw;  // keeps the exception's type (NonFiniteError)
      throw std::invalid_argument(msg);
    }
    throw std::invalid_argument(one_line(source) + ": " + msg);
  }
}

}  // namespace moreau::json_io
