#pragma once
// Internal: the checks of ContactState::validate() for the model layer. ContactState's methods are
// compiled into the contact layer (src/contact/contact_state.cpp), which the model layer must not
// link (layer order model ← contact), so the model builders call this copy instead.
#include "moreau/contact/contact_state.hpp"

namespace moreau::detail {

// Same checks and messages as ContactState::validate(): sizes, NaN, μ < 0, e ∉ [0, 1],
// non-symmetric M, d ∉ {2, 3}. Throws std::invalid_argument.
void check_contact_state(const ContactState& s);

}  // namespace moreau::detail
