// CallbackSystem: callbacks produce a validated ContactState; wrong sizes and bad data are
// refused with a sentence naming the constraint.
#include <gtest/gtest.h>

#include "moreau/model/callback_system.hpp"

using namespace moreau;

namespace {
CallbackSystem particle() {
  CallbackSystem sys(
      "particle", 2, 2, [](const Vector&) { return Matrix(Matrix::Identity(2, 2)); },
      [](const Vector&, const Vector&, double) { return Vector(Vector2(0.0, 9.81)); });
  CallbackConstraint c;
  c.name = "floor";
  c.mu = 0.3;
  c.kinematics = [](const Vector& q, const Vector&) {
    ConstraintKinematics k;
    k.gap = q[1];
    k.normal = Vector2(0, 1);
    k.tangent = Vector2(1, 0);
    return k;
  };
  sys.add_constraint(c);
  return sys;
}
}  // namespace

TEST(CallbackSystem, BuildsContactState) {
  const CallbackSystem sys = particle();
  const ContactState s = sys.contact_state(Vector2(0.0, 0.2), Vector2(1.0, -1.0), 0.5);
  EXPECT_EQ(s.size(), 1);
  EXPECT_EQ(s.constraints[0].gap, 0.2);
  EXPECT_EQ(s.constraints[0].mu, 0.3);
  EXPECT_EQ(s.constraints[0].tangent_bias.size(), 1);  // filled with zeros
  EXPECT_EQ(s.t, 0.5);
  EXPECT_EQ(s.F[1], 9.81);
  EXPECT_NEAR(sys.kinetic_energy(Vector2(0, 0), Vector2(1.0, -1.0)), 1.0, 1e-15);
}

TEST(CallbackSystem, RejectsBadCallbacks) {
  CallbackSystem sys(
      "bad", 2, 2, [](const Vector&) { return Matrix(Matrix::Identity(3, 3)); },
      [](const Vector&, const Vector&, double) { return Vector(Vector2::Zero()); });
  EXPECT_THROW(sys.contact_state(Vector2::Zero(), Vector2::Zero(), 0), std::invalid_argument);
  CallbackSystem p = particle();
  CallbackConstraint c;
  c.name = "short";
  c.kinematics = [](const Vector&, const Vector&) {
    ConstraintKinematics k;
    k.normal = Vector3(0, 1, 0);
    return k;
  };
  p.add_constraint(c);
  try {
    p.contact_state(Vector2::Zero(), Vector2::Zero(), 0);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("short"), std::string::npos);
  }
  CallbackConstraint neg;
  neg.mu = -1.0;
  neg.kinematics = c.kinematics;
  EXPECT_THROW(p.add_constraint(neg), std::invalid_argument);
  CallbackSystem nanM(
      "nan", 2, 1, [](const Vector&) { return Matrix(Matrix::Constant(1, 1, std::nan(""))); },
      [](const Vector&, const Vector&, double) { return Vector(Vector::Zero(1)); });
  EXPECT_THROW(nanM.contact_state(Vector::Zero(1), Vector::Zero(1), 0), std::invalid_argument);
  CallbackSystem asym(
      "asym", 2, 2,
      [](const Vector&) {
        Matrix M(2, 2);
        M << 1, 0.5, 0, 1;
        return M;
      },
      [](const Vector&, const Vector&, double) { return Vector(Vector2::Zero()); });
  EXPECT_THROW(asym.contact_state(Vector2::Zero(), Vector2::Zero(), 0), std::invalid_argument);
  EXPECT_THROW(CallbackSystem("d", 4, 2, nullptr, nullptr), std::invalid_argument);
}
