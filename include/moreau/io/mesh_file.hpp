#pragma once
// Forwarding header: moreau 0.3 moved this header to moreau/io/mesh/mesh_file.hpp
// (docs/migration.md). Include the new path; this one stays until 1.0.
#include "moreau/io/mesh/mesh_file.hpp"
