// Fuzz target: `moreau analyze` inputs (io/reports/analysis_input.hpp) — parsing, validation and
// the full report (io/reports/analysis_report.hpp, with the all-sticking section) of the state they
// describe. Contract: fuzz/support/fuzz_contract.hpp.
#include <cstdint>
#include <string>

#include "../support/fuzz_contract.hpp"
#include "moreau/io/reports/analysis_input.hpp"
#include "moreau/io/reports/analysis_report.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string source = "fuzz-analyze.json";
  moreau::fuzz::expect_success_or_clean_refusal(source, text, [&] {
    const moreau::AnalysisInput input = moreau::parse_analysis_input_text(text, source);
    if (input.state.v.size() > 64) return;  // keep one run short: the report is dense O(n³)
    moreau::analysis_report(input.state, input.label, /*with_all_sticking=*/true, input.source);
  });
  return 0;
}
