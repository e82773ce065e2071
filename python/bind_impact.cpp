// Python bindings of the impact layer.
#include "bindings.hpp"

namespace moreau::python {

void bind_impact(py::module_& /*m*/) {}

}  // namespace moreau::python
