#pragma once
// The page of `moreau view` (docs/cli.md §moreau view): one self-contained HTML file that plays a
// run. The page itself (three.js and the viewer's code, bundled at build time from viewer/) is a
// template; this file fills in the run, as one JSON document in a
// <script type="application/json" id="moreau-run"> element:
//   {"format": "moreau-view", "version": 1, "title", "system", "integrator", "status",
//    "dimension", "impulse_unit" ("N·s" time stepping, "N" event-driven: forces),
//    "frames": n, "recorded": the run's record count (n < recorded when frames were dropped),
//    "t": [n] s, "kinetic": [n] J, "potential": [n] J,
//    "q": {"rows": n, "cols": nq, "float32": base64 of little-endian float32, row-major},
//    "bodies": [{"name", "static", "q_offset" (index of the body's first coordinate in q, −1
//                for a static body), "position" [3], "orientation" [w, x, y, z] (the static pose,
//                the initial one for a dynamic body), "shapes": [{"kind", "name", "position" [3],
//                "orientation" [w, x, y, z] (offset in the body frame), and per kind: sphere
//                radius; box half_extents [3]; capsule radius, half_length (axis x); cylinder
//                radius, half_length (axis z); plane normal [3], offset_distance (n·x ≤ d
//                before the offset); convex vertices [[3]…], radius}], "visuals": [a shape as
//                above, or {"kind": "mesh", "mesh": index into meshes, "position",
//                "orientation"}, each with an optional "rgba" [4]] (empty: the shapes are
//                drawn)}] — the renderer's terms, from the world of geometry.json
//                (io/run/run_geometry.hpp),
//    "meshes": [{"file", "vertices": {"rows", "cols": 3, "float32"} (m, the mesh frame,
//                scaled), "triangles": {same, vertex indices as float32}, "parts": [{"start":
//                first vertex, "rgba" of the file's material when it has one}]}],
//    "joints": [{"name", "kind", "body" (a), "other" (b, −1: the world), "anchor" [3],
//                "axis" [3] (both in a's frame)}],
//    "contact_names": [c], "modes": ["separate", "stick", "slip"],
//    "contacts": {"offsets": [n + 1] (frame k's records are offsets[k] … offsets[k+1]−1),
//                 "contact": [m], "mode": [m] (index into modes), "located": how many points,
//                 "point": {"rows": m, "cols": 3, "float32": …} (world, m; NaN when not located),
//                 "impulse": {same} (r_n n + r_t t in world axes: N·s or N)},
//    "events": [{"t", "frame", "kind", "contact", "name", "detail"}], "summary": {summary.json}}
// Contact points are not recorded by the simulators: they are found again by contact detection
// (contact/collision/world_contacts.hpp) on the world of geometry.json at each frame's q, and
// matched to the records by contact name (same pair and feature, else the same pair's contact
// with the nearest gap; explicit contact pairs by their name). A joint limit's record is at the
// joint's anchor, with a zero impulse (no arrow: it is a torque or a force along the joint).
// Records of systems without geometry have no point.
#include <string>
#include <vector>

#include "moreau/io/run/run_reader.hpp"

namespace moreau {

// Options of the page.
struct ViewerPageSettings {
  Index max_frames = 2000;  // keep every k-th record (and the last) so that frames ≤ this; 0 = all
  std::string title;        // the page title; empty: the name of the folder
};

// What the page holds (printed by `moreau view`).
struct ViewerPageStats {
  Index frames = 0;                   // frames in the page
  Index bodies = 0;                   // dynamic bodies drawn
  Index static_bodies = 0;            // static bodies drawn
  Index contact_records = 0;          // contact records in the page
  Index contacts_located = 0;         // of which with a point
  Index events = 0;                   // events listed
  Index visuals = 0;                  // visual items drawn (meshes and primitives)
  Index joints = 0;                   // joints drawn
  std::vector<std::string> warnings;  // visual meshes that could not be read
};

// The run document above (JSON text, safe inside a <script> element: "</" is written "<\/").
// std::invalid_argument naming the folder for a geometry.json that does not fit the trajectory.
std::string viewer_run_json(const RunFolder& run, const ViewerPageSettings& settings,
                            ViewerPageStats* stats = nullptr);

// The page: `template_html` (the viewer built from viewer/) with its one placeholder
// `__MOREAU_RUN_JSON__` replaced by `run_json`. std::invalid_argument when the template has no
// placeholder.
std::string viewer_page_html(const std::string& template_html, const std::string& run_json);

}  // namespace moreau
