// Fuzz target: URDF robots (io/import/urdf.hpp) — urdfdom's parse, the schema warnings, the body
// tree, self-collision and building the system (its start pose made valid), without running it.
// Contract: fuzz/support/fuzz_contract.hpp.
#include <cmath>
#include <cstdint>
#include <string>

#include "../support/fuzz_contract.hpp"
#include "moreau/io/scene/simulation_setup.hpp"
#include "moreau/io/import/urdf.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string source = "fuzz-robot.urdf";
  moreau::fuzz::expect_success_or_clean_refusal(source, text, [&] {
    moreau::ModelImportOptions options;
    options.floating_base = size % 2 == 1;  // both bases, from the same corpus
    options.ground = true;
    const moreau::Scene scene = moreau::parse_urdf_text(text, source, options);
    moreau::prepare_scene_run(scene, "", std::nan(""));  // the system, errors naming the file
  });
  return 0;
}
