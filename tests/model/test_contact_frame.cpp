// The one contact-frame convention (model/contact_frame.hpp): the floor's frame, an orthonormal
// right-handed frame for any normal, its rate against differences, and tangents that turn
// continuously with a normal that jitters about an axis.
#include <gtest/gtest.h>

#include <random>

#include "moreau/model/contact_frame.hpp"

namespace moreau {
namespace {

TEST(ContactFrame, FloorFrameIsTheWorldAxes) {
  Matrix3 floor;  // columns n = e_z, t₁ = e_x, t₂ = e_y
  floor << 0, 1, 0, 0, 0, 1, 1, 0, 0;
  EXPECT_LT((contact_frame(Vector3::UnitZ(), 3) - floor).norm(), 1e-15);
  const Matrix3 F2 = contact_frame(Vector3::UnitY(), 2);  // t = n × ẑ = (n_y, −n_x, 0) = e_x
  EXPECT_LT((Vector3(F2.col(1)) - Vector3::UnitX()).norm(), 1e-15);
  // the six axis directions keep the frames of the earlier rule (the axis of the smallest |n_k|,
  // the first on ties): e_x for ±y and ±z, e_y for ±x
  for (int k = 0; k < 3; ++k)
    for (double s : {1.0, -1.0}) {
      const Vector3 n = s * Vector3::Unit(k);
      EXPECT_EQ(frame_reference_axis(n), k == 0 ? 1 : 0) << n.transpose();
    }
}

TEST(ContactFrame, RandomNormalsGiveOrthonormalRightHandedFramesAndTheirRates) {
  std::mt19937 rng(7);
  std::normal_distribution<double> g;
  for (int i = 0; i < 200; ++i) {
    const Vector3 n = Vector3(g(rng), g(rng), g(rng)).normalized();
    const Vector3 w(g(rng), g(rng), g(rng));
    const Vector3 n_dot = w.cross(n);  // a normal turning at ω
    const ContactFrame3 f = contact_frame_3d(n, n_dot);
    EXPECT_NEAR(f.t1.norm(), 1.0, 1e-14);
    EXPECT_NEAR(f.t1.dot(n), 0.0, 1e-14);
    EXPECT_LT((f.t1.cross(f.t2) - n).norm(), 1e-14);
    // rates against central differences of the frame along n(t) = exp(t[ω]×) n (the reference
    // axis does not switch within ±1e-6)
    const double h = 1e-6;
    const Vector3 np = Eigen::AngleAxisd(h * w.norm(), w.normalized()) * n;
    const Vector3 nm = Eigen::AngleAxisd(-h * w.norm(), w.normalized()) * n;
    if (frame_reference_axis(np) != frame_reference_axis(nm)) continue;
    const ContactFrame3 fp = contact_frame_3d(np), fm = contact_frame_3d(nm);
    EXPECT_LT((f.t1_dot - (fp.t1 - fm.t1) / (2 * h)).norm(), 1e-6 * (1 + w.norm()));
    EXPECT_LT((f.t2_dot - (fp.t2 - fm.t2) / (2 * h)).norm(), 1e-6 * (1 + w.norm()));
  }
}

// A normal within 1e-9 rad of an axis, in every direction about it, gives tangents within 1e-8 of
// that axis's frame: the warm start of a resting box's friction impulses carries over from one
// step to the next. (The earlier rule switched t₁ between e_x and e_y near ±z, by 90°.)
TEST(ContactFrame, TangentsTurnContinuouslyNearTheAxes) {
  for (int k = 0; k < 3; ++k)
    for (double s : {1.0, -1.0}) {
      const Vector3 axis = s * Vector3::Unit(k);
      const ContactFrame3 ref = contact_frame_3d(axis);
      for (int j = 0; j < 16; ++j) {
        const double a = 2.0 * 3.141592653589793 * j / 16.0;
        Vector3 tilt = Vector3::Zero();
        tilt[(k + 1) % 3] = std::cos(a);
        tilt[(k + 2) % 3] = std::sin(a);
        const ContactFrame3 f = contact_frame_3d((axis + 1e-9 * tilt).normalized());
        EXPECT_LT((f.t1 - ref.t1).norm(), 1e-8) << "axis " << axis.transpose() << ", angle " << a;
        EXPECT_LT((f.t2 - ref.t2).norm(), 1e-8) << "axis " << axis.transpose() << ", angle " << a;
      }
    }
}

}  // namespace
}  // namespace moreau
