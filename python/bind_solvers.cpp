// Python bindings of the solvers layer.
#include "bindings.hpp"

namespace moreau::python {

void bind_solvers(py::module_& /*m*/) {}

}  // namespace moreau::python
