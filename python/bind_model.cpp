// Python bindings of the model layer.
#include "bindings.hpp"

namespace moreau::python {

void bind_model(py::module_& /*m*/) {}

}  // namespace moreau::python
