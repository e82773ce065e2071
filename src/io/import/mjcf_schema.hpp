#pragma once
// MuJoCo's own attribute names of the MJCF elements moreau reads (MuJoCo XML reference, 3.x), to
// tell a misspelt attribute (unknown to MuJoCo too: "did you mean …") from one MuJoCo has and
// moreau does not support.
#include <string>

#include "mjcf_reader.hpp"

namespace moreau::mjcf {

// "unknown attribute (did you mean 'size'?)" when MuJoCo's schema for `tag` lacks `attribute`
// (the suggestion: the nearest name of the schema and the rules within edit distance 2), else
// "attribute not supported by moreau's MJCF import (docs/mjcf.md)".
std::string unknown_or_unsupported(const std::string& tag, const std::string& attribute,
                                   const ElementRules& rules);

// The Levenshtein distance between a and b (insertions, deletions, substitutions).
size_t edit_distance(const std::string& a, const std::string& b);

}  // namespace moreau::mjcf
