// Python bindings of the analysis layer.
#include "bindings.hpp"

namespace moreau::python {

void bind_analysis(py::module_& /*m*/) {}

}  // namespace moreau::python
