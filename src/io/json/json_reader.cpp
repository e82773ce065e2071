// The one JSON reader (see json_reader.hpp): field helpers, syntax errors with line and column,
// duplicate keys.
#include "moreau/io/json/json_reader.hpp"

#include <cctype>
#include <cmath>
#include <limits>
#include <vector>

#include "moreau/common/error.hpp"
#include "moreau/io/os/input_file.hpp"

namespace moreau::json_io {
namespace {
// ---- syntax errors -------------------------------------------------------------------------

// A SAX pass over a text that failed to parse: records the field path being read when the parser
// stopped (nlohmann's exceptions carry at most a byte offset, and a number overflow (406) not
// even that). Frames: one per open container; an array frame holds the index of the element
// being read, an object frame the last key and whether its value is still pending.
class JsonPathTracker final : public nlohmann::json_sax<json> {
 public:
  bool null() override { return scalar(); }
  bool boolean(bool) override { return scalar(); }
  bool number_integer(number_integer_t) override { return scalar(); }
  bool number_unsigned(number_unsigned_t) override { return scalar(); }
  bool number_float(number_float_t, const string_t&) override { return scalar(); }
  bool string(string_t&) override { return scalar(); }
  bool binary(binary_t&) override { return scalar(); }
  bool start_object(std::size_t) override {
    begin_value();
    frames_.push_back({false, -1, "", false});
    return true;
  }
  bool key(string_t& k) override {
    if (check_duplicates && !frames_.back().keys.insert(k).second) {
      failed = duplicate = true;
      what = k;
      path = current_path();
      return false;
    }
    frames_.back().key = k;
    frames_.back().key_pending = true;
    return true;
  }
  bool end_object() override { return end_container(); }
  bool start_array(std::size_t) override {
    begin_value();
    frames_.push_back({true, -1, "", false});
    return true;
  }
  bool end_array() override { return end_container(); }
  bool parse_error(std::size_t position, const std::string& last_token,
                   const nlohmann::detail::exception& ex) override {
    failed = true;
    byte = position;
    token = last_token;
    what = ex.what();
    path = current_path();
    return false;
  }

  bool check_duplicates = false;  // stop at a key given twice in one object (duplicate = true)
  bool failed = false, duplicate = false;
  std::size_t byte = 0;  // nlohmann's chars_read_total: 1 + 0-based offset of the offending char
  std::string token, what, path;

 private:
  struct Frame {
    bool array;
    long index;
    std::string key;
    bool key_pending;
    std::set<std::string> keys = {};  // keys seen so far (objects)
  };
  void begin_value() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
  }
  void end_value() {
    if (!frames_.empty() && !frames_.back().array) frames_.back().key_pending = false;
  }
  bool scalar() {
    begin_value();
    end_value();
    return true;
  }
  bool end_container() {
    frames_.pop_back();
    end_value();
    return true;
  }
  // Where the parser stopped, for the message: "field P" with P the path of the value being read
  // (the innermost array's next element, the innermost object's pending key), or "in P, after
  // field K" between the keys of an object.
  std::string current_path() const {
    std::string p;
    for (size_t k = 0; k < frames_.size(); ++k) {
      const Frame& f = frames_[k];
      const bool innermost = k + 1 == frames_.size();
      if (f.array) {
        p += fmt::format("[{}]", innermost ? f.index + 1 : f.index);
      } else if (!f.key.empty() && (!innermost || f.key_pending)) {
        p += (p.empty() ? "" : ".") + f.key;
      } else if (!f.key.empty()) {
        return p.empty() ? "after field " + f.key : "in " + p + ", after field " + f.key;
      }
    }
    return p.empty() ? "" : "field " + p;
  }
  std::vector<Frame> frames_;
};

// Line and column (1-based, as nlohmann counts: the column of the offending character) of the
// character read as the `byte`-th (1-based) of `text`.
std::pair<size_t, size_t> line_column(const std::string& text, size_t byte) {
  const size_t end = std::min(byte, text.size());
  size_t line = 1, line_start = 0;
  for (size_t i = 0; i < end; ++i)
    if (text[i] == '\n') ++line, line_start = i + 1;
  return {line, byte - line_start};
}

// The 30 characters before the `byte`-th and 10 from it, on one line (runs of white space
// shown, and counted, as one space).
std::string excerpt(const std::string& text, size_t byte) {
  const size_t at = std::min(byte == 0 ? 0 : byte - 1, text.size());
  auto is_space = [&](size_t i) { return std::isspace(static_cast<unsigned char>(text[i])) != 0; };
  size_t from = at;
  for (int shown = 0; from > 0 && shown < 30; --from)
    if (!(is_space(from - 1) && from < at && is_space(from)))
      ++shown;  // a run of spaces counts once
  auto squeeze = [](const std::string& s) {
    std::string out;
    for (char c : s) {
      const bool space = std::isspace(static_cast<unsigned char>(c)) != 0;
      if (space && !out.empty() && out.back() == ' ') continue;
      out += space ? ' ' : c;
    }
    return out;
  };
  std::string before = squeeze(text.substr(from, at - from)), after = squeeze(text.substr(at, 10));
  if (!before.empty() && before.back() == ' ') before.pop_back();
  if (!after.empty() && after.front() == ' ') after.erase(0, 1);
  return (from > 0 ? "…" : "") + before + " ⟨here⟩ " + after + (at + 10 < text.size() ? "…" : "");
}

// The word (letters, '-', '+') around the offending character, to spot NaN / Infinity literals.
std::string word_at(const std::string& text, size_t byte) {
  if (text.empty()) return "";
  size_t at = std::min(byte == 0 ? 0 : byte - 1, text.size() - 1);
  auto wordy = [](char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '-' || c == '+';
  };
  size_t a = at, b = at;
  while (a > 0 && wordy(text[a - 1])) --a;
  while (b < text.size() && wordy(text[b])) ++b;
  std::string w = text.substr(a, b - a);
  while (!w.empty() && (w[0] == '-' || w[0] == '+')) w.erase(0, 1);
  for (char& c : w) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return w;
}

// Turns a failed parse into one sentence: file, line and column, field path, nlohmann's reason,
// and the text before the error.
[[noreturn]] void throw_json_syntax(const std::string& text, const std::string& source,
                                    const json::exception& e) {
  JsonPathTracker tracker;
  json::sax_parse(text, &tracker);
  size_t byte = tracker.byte;
  std::string what = tracker.failed ? tracker.what : e.what();
  if (!tracker.failed)
    if (const auto* pe = dynamic_cast<const json::parse_error*>(&e)) byte = pe->byte;
  const std::string field = tracker.path.empty() ? "" : fmt::format(" ({})", tracker.path);
  if (byte == 0) throw_invalid("{}: not valid JSON{}: {}", source, field, strip_json_prefix(what));
  const bool overflow = what.find("out_of_range.406") != std::string::npos;
  // a number overflow is reported at the token's last character: point at its first
  if (overflow && tracker.token.size() <= byte) byte = byte + 1 - tracker.token.size();
  const auto [line, column] = line_column(text, byte);
  std::string hint;
  if (overflow) {
    hint = " (the number is larger than a double can hold, about 1.8e308)";
  } else {
    const std::string w = word_at(text, byte);
    if (w == "nan" || w == "inf" || w == "infinity")
      hint = " (NaN and Infinity are not JSON numbers; every value must be a finite number)";
  }
  throw_invalid("{}: {} at line {}, column {}{}: {}{}; the text there: \"{}\"", source,
                overflow ? "number out of range" : "not valid JSON", line, column, field,
                strip_json_prefix(what, true), hint, excerpt(text, byte));
}

}  // namespace

// nlohmann's message without its "[json.exception.parse_error.101] parse error at line 1,
// column 2: " prefix (we give the position ourselves) and, when `drop_last_read`, without its
// "; last read: '…'" tail (we quote the text ourselves).
std::string strip_json_prefix(std::string s, bool drop_last_read) {
  if (!s.empty() && s[0] == '[') {
    const size_t close = s.find("] ");
    if (close != std::string::npos) s = s.substr(close + 2);
  }
  if (s.rfind("parse error", 0) == 0) {
    const size_t colon = s.find(": ");
    if (colon != std::string::npos) s = s.substr(colon + 2);
  }
  if (drop_last_read) {
    const size_t lr = s.find("; last read: ");
    if (lr != std::string::npos) s = s.substr(0, lr);
  }
  return s;
}

std::string join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

std::string show(const json& j) {
  std::string s = j.dump();
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}

// Rejects keys outside `allowed`, naming the path.
void check_keys(const json& obj, const std::string& path, const std::set<std::string>& allowed) {
  MOREAU_REQUIRE(obj.is_object(), "{} = {}: must be an object", path.empty() ? "scene" : path,
                 show(obj));
  for (const auto& [k, v] : obj.items()) {
    if (allowed.count(k)) continue;
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    throw_invalid("{}{}: unknown field (allowed: {})", path.empty() ? "" : path + ".", k, list);
  }
}

double as_number(const json& j, const std::string& path) {
  MOREAU_REQUIRE(j.is_number(), "{} = {}: must be a number", path, show(j));
  const double x = j.get<double>();
  MOREAU_REQUIRE(std::isfinite(x), "{} = {}: must be finite", path, show(j));
  return x;
}

double number(const json& obj, const std::string& path, const std::string& key, double fallback) {
  if (!obj.contains(key)) return fallback;
  return as_number(obj.at(key), join(path, key));
}

double required_number(const json& obj, const std::string& path, const std::string& key) {
  MOREAU_REQUIRE(obj.contains(key), "{}: missing required field", join(path, key));
  return as_number(obj.at(key), join(path, key));
}

std::string string_field(const json& obj, const std::string& path, const std::string& key,
                         const std::string& fallback) {
  if (!obj.contains(key)) return fallback;
  const json& j = obj.at(key);
  MOREAU_REQUIRE(j.is_string(), "{} = {}: must be a string", join(path, key), show(j));
  return j.get<std::string>();
}

bool bool_field(const json& obj, const std::string& path, const std::string& key, bool fallback) {
  if (!obj.contains(key)) return fallback;
  const json& j = obj.at(key);
  MOREAU_REQUIRE(j.is_boolean(), "{} = {}: must be true or false", join(path, key), show(j));
  return j.get<bool>();
}

int int_field(const json& obj, const std::string& path, const std::string& key, int fallback) {
  if (!obj.contains(key)) return fallback;
  const json& j = obj.at(key);
  MOREAU_REQUIRE(j.is_number_integer(), "{} = {}: must be an integer", join(path, key), show(j));
  const double x = j.get<double>();  // exact for the int range; get<int> alone would wrap
  MOREAU_REQUIRE(x >= std::numeric_limits<int>::min() && x <= std::numeric_limits<int>::max(),
                 "{} = {}: integer out of range", join(path, key), show(j));
  return j.get<int>();
}

// An array of exactly `n` numbers (any length when n < 0).
Vector numbers(const json& j, const std::string& path, Index n) {
  if (n < 0) {
    MOREAU_REQUIRE(j.is_array(), "{} = {}: must be an array of numbers", path, show(j));
    n = static_cast<Index>(j.size());
  }
  MOREAU_REQUIRE(j.is_array() && static_cast<Index>(j.size()) == n,
                 "{} = {}: must be an array of {} numbers", path, show(j), n);
  Vector v(n);
  for (Index i = 0; i < n; ++i)
    v[i] = as_number(j[static_cast<size_t>(i)], fmt::format("{}[{}]", path, i));
  return v;
}

// An array of `rows` arrays of `cols` numbers (counts free when < 0; every row one length).
Matrix matrix(const json& j, const std::string& path, Index rows, Index cols) {
  MOREAU_REQUIRE(j.is_array() && !j.empty() && (rows < 0 || static_cast<Index>(j.size()) == rows),
                 "{} = {}: must be an array of {} rows", path, show(j),
                 rows < 0 ? std::string("nonempty") : fmt::format("{}", rows));
  if (cols < 0) {
    MOREAU_REQUIRE(j[0].is_array(), "{}[0] = {}: must be an array of numbers", path, show(j[0]));
    cols = static_cast<Index>(j[0].size());
  }
  Matrix A(static_cast<Index>(j.size()), cols);
  for (Index r = 0; r < A.rows(); ++r)
    A.row(r) = numbers(j[static_cast<size_t>(r)], fmt::format("{}[{}]", path, r), cols).transpose();
  return A;
}

// One parse; its callback keeps the keys of each open object and notes a repeated one. Only then
// (and on a syntax error) a second, SAX pass finds the field path for the message.
namespace {

json parse_text_multiline(const std::string& text, const std::string& source) {
  std::vector<std::set<std::string>> open_objects;
  bool repeated = false;
  const json::parser_callback_t note_repeats = [&](int, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start)
      open_objects.emplace_back();
    else if (event == json::parse_event_t::object_end)
      open_objects.pop_back();
    else if (event == json::parse_event_t::key &&
             !open_objects.back().insert(parsed.get<std::string>()).second)
      repeated = true;
    return true;
  };
  json doc;
  try {
    doc = json::parse(text, note_repeats);
  } catch (const json::exception& e) {
    throw_json_syntax(text, source, e);
  }
  if (repeated) {
    JsonPathTracker duplicates;
    duplicates.check_duplicates = true;
    json::sax_parse(text, &duplicates);
    throw_invalid(
        "{}: the key \"{}\" is given twice in one object ({}); each field may appear once", source,
        duplicates.what, duplicates.path.empty() ? "top level" : duplicates.path);
  }
  return doc;
}

}  // namespace

// The messages quote keys and pieces of the text, which may hold newlines: kept to one line.
json parse_text(const std::string& text, const std::string& source) {
  try {
    return parse_text_multiline(text, source);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(one_line(e.what()));
  }
}

json read_file(const std::string& path) { return parse_text(read_text_file(path), path); }

}  // namespace moreau::json_io
