// Python bindings: fclib.
#include "bindings.hpp"

namespace moreau::python {

void bind_fclib(py::module_& /*m*/) {}

}  // namespace moreau::python
