// Python bindings: friction_contact.
#include "bindings.hpp"

namespace moreau::python {

void bind_friction_contact(py::module_& /*m*/) {}

}  // namespace moreau::python
