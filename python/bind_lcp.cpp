// Python bindings: lcp.
#include "bindings.hpp"

namespace moreau::python {

void bind_lcp(py::module_& /*m*/) {}

}  // namespace moreau::python
