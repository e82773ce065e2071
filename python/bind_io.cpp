// Python bindings of the io layer.
#include "bindings.hpp"

namespace moreau::python {

void bind_io(py::module_& /*m*/) {}

}  // namespace moreau::python
