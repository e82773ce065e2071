// Fuzz target: scene files (io/scene/scene.hpp) — parsing, validation, and building the system a
// scene runs (io/scene/simulation_setup.hpp), without running it. Contract:
// fuzz/support/fuzz_contract.hpp.
#include <cmath>
#include <cstdint>
#include <string>

#include "../support/fuzz_contract.hpp"
#include "moreau/io/scene/scene.hpp"
#include "moreau/io/scene/simulation_setup.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string source = "fuzz-scene.json";
  moreau::fuzz::expect_success_or_clean_refusal(source, text, [&] {
    const moreau::Scene scene = moreau::parse_scene_text(text, source);
    moreau::prepare_scene_run(scene, "", std::nan(""));
  });
  return 0;
}
