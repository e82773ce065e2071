#pragma once
// Moved to the model layer (model/velocity_level.hpp), where the dense step contacts use it; this
// header stays for the event-driven integrator's include until its split lands.
#include "moreau/model/velocity_level.hpp"
