// Fuzz target: impact SPECs (io/reports/impact_spec.hpp) — parsing, validation and running the law
// the SPEC names, as `moreau impact SPEC.json` does. Contract: fuzz/support/fuzz_contract.hpp.
#include <cstdint>
#include <string>

#include "../support/fuzz_contract.hpp"
#include "moreau/io/reports/impact_spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string source = "fuzz-impact.json";
  moreau::fuzz::expect_success_or_clean_refusal(source, text,
                                                [&] { moreau::run_impact_json(text, -1, source); });
  return 0;
}
