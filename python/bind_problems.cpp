// Python bindings of the problems layer.
#include "bindings.hpp"

namespace moreau::python {

void bind_problems(py::module_& /*m*/) {}

}  // namespace moreau::python
