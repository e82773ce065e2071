// MJCF <keyframe><key name qpos qvel ctrl/> (MuJoCo XML reference §keyframe) as keyframes of the
// world (model/rigid/keyframe.hpp), each entry named by the coordinate it sets.
//
// MuJoCo's qpos runs over the joints in body order (depth first, the file's order), each body's
// joints in order: free 7 (x y z, quaternion w x y z of the body frame F), ball 4 (quaternion),
// hinge and slide 1. qvel: free 6 (the velocity of F's origin, world axes; ω in F's axes), ball
// 3 (ω in the child's axes), hinge and slide 1. moreau's coordinates (io/import/body_tree.hpp)
// differ in three places:
//   hinge, slide  s = qpos − ref (moreau's coordinate is 0 at the model's pose);
//   free          p_G = p_F + R c, with c the centre of mass in F (the body sits at it) and R
//                 the rotation of F, the quaternion unchanged;
//   free qvel     ω_world = R ω_F, v_G = v_F + ω_world × R c.
// Ball quaternions and ω in the child's axes are moreau's too.
#include "mjcf_constraints.hpp"
#include "moreau/common/error.hpp"

namespace moreau::mjcf {
namespace {

using tinyxml2::XMLElement;

// One tree joint as MuJoCo numbers it: its body, its spec and the moreau names of its entries.
struct QposJoint {
  const import::TreeJointSpec* spec = nullptr;
  std::string name;                                    // moreau joint name, or the free body's name
  Vector3 com = Vector3::Zero();                       // free: c in F
  Quaternion frame_rotation = Quaternion::Identity();  // free: R of F at the model's pose
};

// The joints in MuJoCo's qpos order with their moreau names (build_world's joint order: bodies in
// order, a free body's joint named by its body).
std::vector<QposJoint> qpos_joints(const std::vector<import::TreeBody>& bodies,
                                   const std::vector<Index>& moreau_body, const RigidWorld& world) {
  std::vector<QposJoint> out;
  size_t next_joint = 0;
  for (size_t i = 1; i < bodies.size(); ++i) {
    const import::TreeBody& b = bodies[i];
    for (const import::TreeJointSpec& spec : b.joints) {
      QposJoint j{.spec = &spec};
      if (spec.kind == import::TreeJoint::free) {
        const RigidBody& rb = world.body(moreau_body[i]);
        j.name = rb.name;
        j.frame_rotation = b.frame.orientation;
        j.com = b.frame.orientation.conjugate() * (rb.pose.position - b.frame.position);
      } else {
        j.name = world.joints()[next_joint++].name;
      }
      out.push_back(j);
    }
  }
  return out;
}

Index qpos_size(const import::TreeJointSpec& s) {
  return s.kind == import::TreeJoint::free ? 7 : s.kind == import::TreeJoint::ball ? 4 : 1;
}
Index qvel_size(const import::TreeJointSpec& s) {
  return s.kind == import::TreeJoint::free ? 6 : s.kind == import::TreeJoint::ball ? 3 : 1;
}

void read_key(Reader& r, const XMLElement& e, const std::vector<QposJoint>& joints,
              RigidWorld& world) {
  ElementRules rules;
  rules.honoured = {"name", "qpos", "qvel", "ctrl"};
  rules.warned = {{"time", "a keyframe starts the simulator at its state; the time starts at 0"}};
  if (std::string(e.Name()) != "key") r.fail_element(e, "<keyframe> holds <key> elements");
  for (const char* k : {"act", "mpos", "mquat"})
    if (e.Attribute(k))
      r.fail(e, k, "activations and mocap bodies are not simulated; give qpos, qvel and ctrl");
  const Attributes a = r.attributes(e, "", rules);
  Index nq = 0, nv = 0;
  for (const QposJoint& j : joints) nq += qpos_size(*j.spec), nv += qvel_size(*j.spec);
  const Index nu = static_cast<Index>(world.actuators().size());
  Keyframe k;
  if (a.contains("name")) k.name = a.at("name").value;
  if (a.contains("qpos")) {
    const auto x = r.numbers(e, a, "qpos", static_cast<int>(nq), static_cast<int>(nq));
    size_t o = 0;
    for (const QposJoint& j : joints) {
      const std::string& n = j.name;
      switch (j.spec->kind) {
        case import::TreeJoint::free: {
          const Quaternion R = Quaternion(x[o + 3], x[o + 4], x[o + 5], x[o + 6]).normalized();
          const Vector3 p = Vector3(x[o], x[o + 1], x[o + 2]) + R * j.com;
          for (int c = 0; c < 3; ++c) k.q[n + "." + "xyz"[c]] = p[c];
          k.q[n + ".qw"] = R.w(), k.q[n + ".qx"] = R.x(), k.q[n + ".qy"] = R.y();
          k.q[n + ".qz"] = R.z();
          break;
        }
        case import::TreeJoint::ball:
          k.q[n + ".qw"] = x[o], k.q[n + ".qx"] = x[o + 1], k.q[n + ".qy"] = x[o + 2];
          k.q[n + ".qz"] = x[o + 3];
          break;
        default:
          k.q[n + ".q"] = x[o] - j.spec->qpos0;
      }
      o += static_cast<size_t>(qpos_size(*j.spec));
    }
  }
  if (a.contains("qvel") || a.contains("qpos")) {
    std::vector<double> x(static_cast<size_t>(nv), 0.0);
    if (a.contains("qvel")) x = r.numbers(e, a, "qvel", static_cast<int>(nv), static_cast<int>(nv));
    size_t o = 0;
    for (const QposJoint& j : joints) {
      const std::string& n = j.name;
      if (j.spec->kind == import::TreeJoint::free) {
        // the rotation of F at this key's qpos, else at the model's pose
        Quaternion R = j.frame_rotation;
        const std::string qw = n + ".qw";
        if (k.q.count(qw)) R = Quaternion(k.q[qw], k.q[n + ".qx"], k.q[n + ".qy"], k.q[n + ".qz"]);
        const Vector3 w = R * Vector3(x[o + 3], x[o + 4], x[o + 5]);
        const Vector3 vG = Vector3(x[o], x[o + 1], x[o + 2]) + w.cross(R * j.com);
        for (int c = 0; c < 3; ++c) k.v[n + ".v" + "xyz"[c]] = vG[c];
        for (int c = 0; c < 3; ++c) k.v[n + ".w" + "xyz"[c]] = w[c];
      } else if (j.spec->kind == import::TreeJoint::ball) {
        for (int c = 0; c < 3; ++c) k.v[n + ".w" + "xyz"[c]] = x[o + static_cast<size_t>(c)];
      } else {
        k.v[n + ".v"] = x[o];
      }
      o += static_cast<size_t>(qvel_size(*j.spec));
    }
  }
  if (a.contains("ctrl")) {
    const auto u = r.numbers(e, a, "ctrl", static_cast<int>(nu), static_cast<int>(nu));
    for (Index i = 0; i < nu; ++i) k.ctrl[world.actuators()[i].name] = u[static_cast<size_t>(i)];
  }
  try {
    world.add_keyframe(std::move(k));
  } catch (const std::invalid_argument& err) {
    r.fail_element(e, err.what());
  }
}

}  // namespace

void add_keyframes(Reader& reader, const std::vector<import::TreeBody>& bodies,
                   const std::vector<Index>& moreau_body, const Constraints& model,
                   RigidWorld& world) {
  const std::vector<QposJoint> joints = qpos_joints(bodies, moreau_body, world);
  for (const XMLElement* section : model.keyframe_sections)
    for (const XMLElement* c : reader.children(*section)) read_key(reader, *c, joints, world);
}

Keyframe free_base_placement(const std::vector<import::TreeBody>& bodies,
                             const std::vector<Index>& moreau_body, const Pose& pose,
                             const std::string& source, const RigidWorld& world) {
  for (const QposJoint& j : qpos_joints(bodies, moreau_body, world)) {
    if (j.spec->kind != import::TreeJoint::free) continue;
    Keyframe edits;
    const Quaternion R = pose.orientation.normalized();
    const Vector3 p = pose.position + R * j.com;
    for (int c = 0; c < 3; ++c) edits.q[j.name + "." + "xyz"[c]] = p[c];
    edits.q[j.name + ".qw"] = R.w(), edits.q[j.name + ".qx"] = R.x();
    edits.q[j.name + ".qy"] = R.y(), edits.q[j.name + ".qz"] = R.z();
    return edits;
  }
  throw_invalid("{}: base pose: the model has no floating base (no body with a free joint)",
                source);
}

}  // namespace moreau::mjcf
