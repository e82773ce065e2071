// Fuzz target: MJCF models (io/import/mjcf.hpp) — parsing, the body tree, and building the system
// a model runs as (its start pose made valid, contact/rigid_world_system.hpp), without running
// it. Contract: fuzz/support/fuzz_contract.hpp.
#include <cmath>
#include <cstdint>
#include <string>

#include "../support/fuzz_contract.hpp"
#include "moreau/io/scene/simulation_setup.hpp"
#include "moreau/io/import/mjcf.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string source = "fuzz-model.xml";
  moreau::fuzz::expect_success_or_clean_refusal(source, text, [&] {
    const moreau::Scene scene = moreau::parse_mjcf_text(text, source, ".");
    moreau::prepare_scene_run(scene, "", std::nan(""));  // the system, errors naming the file
  });
  return 0;
}
