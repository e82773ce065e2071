// Python bindings of the sim layer.
#include "bindings.hpp"

namespace moreau::python {

void bind_sim(py::module_& /*m*/) {}

}  // namespace moreau::python
