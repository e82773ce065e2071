// Node's test runner on the page's parsing code (src/run_data.js): `node --test viewer/test/`
// (ctest viewer.node). The documents are built here, with the layout of io/viewer_page.hpp.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  bodyPose, contactRange, decodeBase64, decodeMatrix, eventList, frameAtTime, frameFromHash,
  largestImpulse, parseRun, parseRunText, shapeKey,
} from "../src/run_data.js";

const f32 = (values) => Buffer.from(new Float32Array(values).buffer).toString("base64");
const matrix = (values, cols) => ({ rows: cols ? values.length / cols : 0, cols, float32: f32(values) });

// A planar run: one disk rolling on the floor (static), 3 frames, one contact record per frame.
function planarDoc() {
  return {
    format: "moreau-view", version: 1, title: "disk", system: "disk", integrator: "timestepping",
    status: "completed", dimension: 2, impulse_unit: "N·s", frames: 3, recorded: 3,
    t: [0, 0.5, 1], kinetic: [0, 1, 2], potential: [3, 2, 1.5],
    q: matrix([0, 0.5, 0, 1, 0.5, Math.PI / 2, 2, 0.5, Math.PI], 3),
    bodies: [
      { name: "ground", static: true, q_offset: -1, position: [0, 0, 0], orientation: [1, 0, 0, 0],
        shapes: [{ kind: "plane", name: "floor", position: [0, 0, 0], orientation: [1, 0, 0, 0], normal: [0, 1, 0], offset_distance: 0 }] },
      { name: "disk", static: false, q_offset: 0, position: [0, 0.5, 0], orientation: [1, 0, 0, 0],
        shapes: [{ kind: "sphere", name: "", position: [0, 0, 0], orientation: [1, 0, 0, 0], radius: 0.5 }] },
    ],
    contact_names: ["disk/ground:0-floor:0"], modes: ["separate", "stick", "slip"],
    contacts: {
      offsets: [0, 1, 2, 3], contact: [0, 0, 0], mode: [1, 2, 0], located: 3,
      point: matrix([0, 0, 0, 1, 0, 0, 2, 0, 0], 3), impulse: matrix([0, 3, 0, 0.5, 4, 0, 0, 0, 0], 3),
    },
    events: [{ t: 0.5, frame: 1, kind: "stick_to_slip", contact: 0, name: "disk/ground:0-floor:0", detail: "" }],
    summary: { steps: 100 },
  };
}

test("decodes little-endian float32 blocks and refuses bad ones", () => {
  assert.deepEqual(Array.from(decodeMatrix(matrix([1.5, -2, 3], 3), "x")), [1.5, -2, 3]);
  assert.deepEqual(Array.from(decodeBase64("AAECAw==")), [0, 1, 2, 3]);
  assert.throws(() => decodeMatrix({ rows: 2, cols: 3, float32: f32([1, 2, 3]) }, "q"), /q holds 3 numbers, expected 2 × 3/);
  assert.throws(() => decodeBase64("no base64!"), /not base64/);
});

test("parses a planar run: counts, energies and contacts", () => {
  const run = parseRun(planarDoc());
  assert.equal(run.frames, 3);
  assert.equal(run.dynamicBodies, 1);
  assert.equal(run.staticBodies, 1);
  assert.equal(run.shapeCount, 2);
  assert.deepEqual(Array.from(run.total), [3, 3, 3.5]);
  assert.equal(run.contacts.count, 3);
  assert.deepEqual(contactRange(run, 1), [1, 2]);
  assert.equal(run.events[0].frame, 1);
  assert.ok(Math.abs(largestImpulse(run) - Math.hypot(0.5, 4)) < 1e-6);
});

test("planar poses: (x, y, θ) is (x, y, 0) turned by θ about z", () => {
  const run = parseRun(planarDoc());
  const pose = bodyPose(run, 1, 1);
  assert.deepEqual(pose.position, [1, 0.5, 0]);
  const [w, x, y, z] = pose.quaternion;
  assert.ok(Math.abs(w - Math.cos(Math.PI / 4)) < 1e-6 && x === 0 && y === 0 && Math.abs(z - Math.sin(Math.PI / 4)) < 1e-6);
  assert.deepEqual(bodyPose(run, 0, 2).position, [0, 0, 0]);  // static: its own pose
});

test("spatial poses read (x, y, z, qw, qx, qy, qz) at the body's offset", () => {
  const doc = planarDoc();
  doc.dimension = 3;
  doc.frames = 1; doc.t = [0]; doc.kinetic = [0]; doc.potential = [0];
  doc.q = matrix([9, 9, 9, 1, 0, 0, 0, 1, 2, 3, 0, 1, 0, 0], 7 * 2);
  doc.bodies[1].q_offset = 7;
  doc.contacts = { offsets: [0, 0], contact: [], mode: [], located: 0 };
  doc.events = [];
  const run = parseRun(doc);
  assert.deepEqual(bodyPose(run, 1, 0), { position: [1, 2, 3], quaternion: [0, 1, 0, 0] });
});

test("frames from times and URL hashes", () => {
  const run = parseRun(planarDoc());
  assert.equal(frameAtTime(run, -1), 0);
  assert.equal(frameAtTime(run, 0.7), 1);
  assert.equal(frameAtTime(run, 5), 2);
  assert.equal(frameFromHash(run, "#frame=last"), 2);
  assert.equal(frameFromHash(run, "#frame=1"), 1);
  assert.equal(frameFromHash(run, "#frame=99"), 2);
  assert.equal(frameFromHash(run, "#t=0.5"), 1);
  assert.equal(frameFromHash(run, ""), null);
  assert.equal(frameFromHash(run, "#frame=x"), null);
});

test("shapes share meshes by kind, capsules and hulls by size", () => {
  assert.equal(shapeKey({ kind: "sphere", radius: 1 }), "sphere");
  assert.equal(shapeKey({ kind: "box", half_extents: [1, 2, 3] }), "box");
  assert.notEqual(shapeKey({ kind: "capsule", radius: 1, half_length: 2 }), shapeKey({ kind: "capsule", radius: 1, half_length: 3 }));
  assert.equal(shapeKey({ kind: "plane" }), null);
  assert.throws(() => shapeKey({ kind: "torus" }), /unknown shape kind "torus"/);
});

test("refuses documents that are not a run, naming the field", () => {
  assert.throws(() => parseRunText("__MOREAU_RUN_JSON__"), /has no run in it/);
  assert.throws(() => parseRunText("{oops"), /not JSON/);
  assert.throws(() => parseRun({ ...planarDoc(), format: "other" }), /format = "other"/);
  assert.throws(() => parseRun({ ...planarDoc(), dimension: 4 }), /dimension = 4/);
  assert.throws(() => parseRun({ ...planarDoc(), t: [0, 1] }), /t must be 3 numbers/);
  const doc = planarDoc();
  doc.bodies[1].q_offset = 1;  // 1 + 3 > 3 columns
  assert.throws(() => parseRun(doc), /bodies\[1\] \(disk\) has q_offset 1, q has 3 columns/);
  const bad = planarDoc();
  bad.contacts.offsets = [0, 2, 1, 3];
  assert.throws(() => parseRun(bad), /offsets decreases at frame 1/);
});

// A page written by `moreau view` (MOREAU_VIEW_PAGE, set by ctest): its embedded run parses and
// holds MOREAU_VIEW_FRAMES frames, the number of records of the run it was made from.
test("the run embedded in a page written by moreau view", { skip: !process.env.MOREAU_VIEW_PAGE }, async () => {
  const { readFileSync } = await import("node:fs");
  const html = readFileSync(process.env.MOREAU_VIEW_PAGE, "utf8");
  const m = html.match(/<script type="application\/json" id="moreau-run">([\s\S]*?)<\/script>/);
  assert.ok(m, "the page has a run element");
  const run = parseRunText(m[1]);
  assert.equal(run.frames, Number(process.env.MOREAU_VIEW_FRAMES));
  assert.ok(run.dynamicBodies > 0);
});

test("solver failures are one summary line, the other events listed with their indices", () => {
  const run = {
    events: [
      { t: 0.1, frame: 1, kind: "solver_failure", name: "", detail: "nsgs stopped at residual 1e-3" },
      { t: 0.2, frame: 2, kind: "impact", name: "a", detail: "" },
      { t: 0.3, frame: 3, kind: "solver_failure", name: "", detail: "" },
    ],
    summary: { solver_failures: 178, solver_worst_residual: 0.5 },
  };
  const { items, failures } = eventList(run);
  assert.deepEqual(items.map((x) => x.index), [1]);
  assert.equal(failures.count, 178);  // the summary's count, past the 20 events logged
  assert.equal(failures.worst, 0.5);
  assert.equal(failures.first.event.t, 0.1);
  assert.equal(eventList({ events: [items[0].event], summary: {} }).failures, null);
});
