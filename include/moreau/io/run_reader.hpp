#pragma once
// Forwarding header: moreau 0.3 moved this header to moreau/io/run/run_reader.hpp
// (docs/migration.md). Include the new path; this one stays until 1.0.
#include "moreau/io/run/run_reader.hpp"
