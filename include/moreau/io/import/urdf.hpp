#pragma once
// ROS URDF robots as moreau scenes (docs/urdf.md), parsed by urdfdom.
//
//   links with <inertial> and <collision> geometry (box, sphere, cylinder, mesh: STL or OBJ);
//   joints revolute, continuous, prismatic, fixed and floating; <limit lower upper> of revolute
//   and prismatic joints as unilateral limits (model/rigid/joint.hpp); a fixed base (the root link
//   welded to the world) or a floating one; an optional ground plane z = 0.
// Frames (URDF specification §joint): a child link's frame is its parent's composed with the
// joint origin at zero joint position; the joint axis is in that frame; a fixed joint welds the
// child to its parent (one moreau body), a floating joint frees it (no joint).
// <dynamics damping friction> and effort or velocity limits are reported once in
// Scene::warnings as ignored; planar joints, package:// meshes and links without mass that
// must move are errors naming the file and the link or joint.
#include <string>

#include "moreau/io/scene/scene.hpp"

namespace moreau {

// Reads a URDF file (mesh paths relative to it, or file://). Throws std::invalid_argument naming
// the file and the link or joint.
Scene load_urdf(const std::string& path, const ModelImportOptions& options = {});
// The same from URDF text; `source` names it in messages and places it (meshes are found from its
// folder).
Scene parse_urdf_text(const std::string& text, const std::string& source,
                      const ModelImportOptions& options = {});

}  // namespace moreau
