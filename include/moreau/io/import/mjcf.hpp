#pragma once
// MuJoCo's MJCF models as moreau scenes (docs/mjcf.md): the subset that rigid contact scenes use.
//
//   <mujoco> with <compiler angle, eulerseq, meshdir, assetdir, autolimits, inertiafromgeom>,
//   <option timestep, gravity>, <default> classes (nested, class and childclass), <asset><mesh>
//   (STL or OBJ through assimp), <worldbody> with nested <body pos, quat | euler | axisangle |
//   xyaxes | zaxis, childclass>, <inertial>, <geom> (sphere, box, capsule, cylinder, plane, mesh;
//   size, fromto, pos, orientation, mass or density, friction[0] as μ, contype, conaffinity,
//   condim), <joint> (free, hinge, slide, ball; pos, axis, range, limited) and <freejoint>.
//
// Mapping (MuJoCo XML reference, §body, §geom, §joint, §inertial):
//   - a body with one joint is a moreau body linked to its parent's moreau body by a revolute
//     (hinge), prismatic (slide) or ball joint with the same anchor and axis; `range` becomes the
//     joint's limits (unilateral contacts); a free joint makes a free body;
//   - a body without joints is welded to its parent: its geoms and mass join the parent's moreau
//     body (the world's: the static body "world");
//   - a moreau body's frame is the MJCF body's orientation at its centre of mass, with the full
//     inertia from <inertial> or from its geoms (density 1000 kg/m³ unless mass or density is
//     given, MuJoCo's default);
//   - time stepping (Moreau–Jean) with dt = option timestep (0.002 s by default).
// Soft-contact and solver parameters (solref, solimp, margin, gap, impratio, …) have no meaning in
// moreau's rigid contacts: each attribute is reported once in Scene::warnings, with its line.
// Anything else outside the subset is an error naming the file, line, element and attribute.
#include <string>

#include "moreau/io/scene/scene.hpp"

namespace moreau {

// Reads an MJCF file (mesh files relative to compiler meshdir / assetdir, else to the file).
// Throws std::invalid_argument "FILE:LINE: <element attribute=…>: reason" for anything refused.
// options.base_pose places the first body with a free joint (its body frame); the other options
// are load_scene's.
Scene load_mjcf(const std::string& path, const ModelImportOptions& options = {});

// The same from XML text; `source` names it in messages, `directory` resolves mesh files.
Scene parse_mjcf_text(const std::string& text, const std::string& source,
                      const std::string& directory = ".", const ModelImportOptions& options = {});

}  // namespace moreau
