// The run data of a `moreau view` page: the JSON document that `moreau view` writes into the
// page's <script type="application/json" id="moreau-run"> element (its layout is documented in
// include/moreau/io/run/viewer_page.hpp), checked and decoded into typed arrays, with the
// kinematics the renderer needs. No three.js and no DOM here: Node's test runner tests this file
// (viewer/test/run_data.test.mjs).

export const FORMAT = "moreau-view";
export const VERSION = 1;

// Base64 → bytes (atob exists in browsers and in Node ≥ 16).
export function decodeBase64(text) {
  if (typeof text !== "string" || text.length % 4 !== 0 || /[^A-Za-z0-9+/=]/.test(text))
    throw new Error("run data: a float32 block is not base64 text");
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; ++i) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

// {"rows", "cols", "float32": base64 of little-endian float32} → Float32Array (rows × cols).
export function decodeMatrix(block, what) {
  if (block === null || typeof block !== "object")
    throw new Error(`run data: ${what} is missing`);
  const { rows, cols } = block;
  if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 0 || cols < 0)
    throw new Error(`run data: ${what} has rows = ${rows}, cols = ${cols}`);
  const bytes = decodeBase64(block.float32);
  if (bytes.length !== 4 * rows * cols)
    throw new Error(`run data: ${what} holds ${bytes.length / 4} numbers, expected ${rows} × ${cols}`);
  const out = new Float32Array(rows * cols);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < out.length; ++i) out[i] = view.getFloat32(4 * i, true);
  return out;
}

function numberArray(value, length, what) {
  if (!Array.isArray(value) || value.length !== length || value.some((x) => typeof x !== "number"))
    throw new Error(`run data: ${what} must be ${length} numbers`);
  return Float64Array.from(value);
}

// Coordinates per dynamic body: planar (x, y, θ), spatial (x, y, z, qw, qx, qy, qz).
export function bodyPositionSize(dimension) {
  return dimension === 2 ? 3 : 7;
}

// The checked run: throws an Error naming the field for a document that is not a moreau-view run.
export function parseRun(doc) {
  if (doc === null || typeof doc !== "object") throw new Error("run data: not a JSON object");
  if (doc.format !== FORMAT) throw new Error(`run data: format = ${JSON.stringify(doc.format)}, expected "${FORMAT}"`);
  if (doc.version !== VERSION) throw new Error(`run data: version ${doc.version}, this page reads ${VERSION}`);
  const dimension = doc.dimension;
  if (dimension !== 2 && dimension !== 3) throw new Error(`run data: dimension = ${dimension}, expected 2 or 3`);
  const frames = doc.frames;
  if (!Number.isInteger(frames) || frames < 0) throw new Error(`run data: frames = ${frames}`);
  const t = numberArray(doc.t, frames, "t");
  const kinetic = numberArray(doc.kinetic, frames, "kinetic");
  const potential = numberArray(doc.potential, frames, "potential");
  const total = kinetic.map((k, i) => k + potential[i]);
  const q = decodeMatrix(doc.q, "q");
  if (doc.q.rows !== frames) throw new Error(`run data: q has ${doc.q.rows} rows for ${frames} frames`);
  const nq = doc.q.cols;

  const bodies = Array.isArray(doc.bodies) ? doc.bodies : [];
  const per = bodyPositionSize(dimension);
  let dynamic = 0;
  for (const [i, b] of bodies.entries()) {
    if (!Array.isArray(b.shapes)) throw new Error(`run data: bodies[${i}].shapes is not a list`);
    if (b.static) continue;
    if (!Number.isInteger(b.q_offset) || b.q_offset < 0 || b.q_offset + per > nq)
      throw new Error(`run data: bodies[${i}] (${b.name}) has q_offset ${b.q_offset}, q has ${nq} columns`);
    ++dynamic;
  }

  // visual meshes: vertices (m) and triangles (vertex indices, exact in float32)
  const meshes = (Array.isArray(doc.meshes) ? doc.meshes : []).map((m, i) => {
    const vertices = decodeMatrix(m.vertices, `meshes[${i}].vertices`);
    const triangles = Uint32Array.from(decodeMatrix(m.triangles, `meshes[${i}].triangles`));
    const n = vertices.length / 3;
    if (triangles.some((v) => v >= n)) throw new Error(`run data: meshes[${i}] (${m.file}) has a triangle past its ${n} vertices`);
    const parts = Array.isArray(m.parts) && m.parts.length > 0 ? m.parts : [{ start: 0 }];
    return { file: String(m.file || ""), vertices, triangles, parts };
  });
  let visualCount = 0;
  for (const [i, b] of bodies.entries()) {
    b.visuals = Array.isArray(b.visuals) ? b.visuals : [];
    for (const v of b.visuals)
      if (v.kind === "mesh" && !(Number.isInteger(v.mesh) && v.mesh >= 0 && v.mesh < meshes.length))
        throw new Error(`run data: bodies[${i}] (${b.name}) has a visual of mesh ${v.mesh}, the page has ${meshes.length}`);
    visualCount += b.visuals.length;
  }
  const joints = (Array.isArray(doc.joints) ? doc.joints : []).filter((j, i) => {
    if (!Number.isInteger(j.body) || j.body < 0 || j.body >= bodies.length)
      throw new Error(`run data: joints[${i}] (${j.name}) is on body ${j.body}, the page has ${bodies.length}`);
    return true;
  });

  const c = doc.contacts || {};
  const offsets = Array.isArray(c.offsets) ? Int32Array.from(c.offsets) : new Int32Array(frames + 1);
  if (offsets.length !== frames + 1) throw new Error(`run data: contacts.offsets has ${offsets.length} entries, expected ${frames + 1}`);
  const m = offsets[frames] || 0;
  for (let k = 0; k < frames; ++k)
    if (offsets[k + 1] < offsets[k]) throw new Error(`run data: contacts.offsets decreases at frame ${k}`);
  const contact = Int32Array.from(c.contact || []);
  const mode = Uint8Array.from(c.mode || []);
  if (contact.length !== m || mode.length !== m) throw new Error(`run data: ${m} contact records, but ${contact.length} contacts and ${mode.length} modes`);
  const point = m > 0 ? decodeMatrix(c.point, "contacts.point") : new Float32Array(0);
  const impulse = m > 0 ? decodeMatrix(c.impulse, "contacts.impulse") : new Float32Array(0);
  if (point.length !== 3 * m || impulse.length !== 3 * m) throw new Error(`run data: contacts.point and contacts.impulse must have ${m} rows`);

  const events = (Array.isArray(doc.events) ? doc.events : []).map((e, i) => {
    if (typeof e.t !== "number") throw new Error(`run data: events[${i}].t is not a number`);
    const frame = Number.isInteger(e.frame) ? Math.min(Math.max(e.frame, 0), Math.max(frames - 1, 0)) : frameAtTime({ t }, e.t);
    return { t: e.t, frame, kind: String(e.kind), contact: e.contact, name: e.name || "", detail: e.detail || "" };
  });
  return {
    title: String(doc.title || "moreau run"), system: doc.system || "", integrator: doc.integrator || "",
    status: doc.status || "", dimension, frames, recorded: doc.recorded ?? frames,
    impulseUnit: doc.impulse_unit || "", t, kinetic, potential, total, q, nq, bodies,
    dynamicBodies: dynamic, staticBodies: bodies.length - dynamic,
    shapeCount: bodies.reduce((n, b) => n + b.shapes.length, 0), meshes, visualCount, joints,
    contactNames: Array.isArray(doc.contact_names) ? doc.contact_names : [],
    modes: Array.isArray(doc.modes) ? doc.modes : ["separate", "stick", "slip"],
    contacts: { offsets, contact, mode, point, impulse, located: c.located ?? 0, count: m },
    events, summary: doc.summary || {},
  };
}

// The JSON text of the page's run element → the checked run. A page written without a run
// (the template itself) says so.
export function parseRunText(text) {
  const s = String(text).trim();
  if (s.startsWith("__MOREAU_RUN")) throw new Error("this page has no run in it: write one with `moreau view OUT_DIR`");
  let doc;
  try {
    doc = JSON.parse(s);
  } catch (e) {
    throw new Error(`run data: not JSON (${e.message})`);
  }
  return parseRun(doc);
}

// The last frame whose time is ≤ time (0 before the first).
export function frameAtTime(run, time) {
  const t = run.t;
  let lo = 0, hi = t.length - 1;
  if (hi < 0 || time <= t[0]) return 0;
  if (time >= t[hi]) return hi;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (t[mid] <= time) lo = mid; else hi = mid;
  }
  return lo;
}

// The pose of body b at a frame: {position: [x, y, z], quaternion: [w, x, y, z]} (static bodies:
// their fixed pose; planar bodies: (x, y, 0) and the rotation θ about z).
export function bodyPose(run, b, frame) {
  const body = run.bodies[b];
  if (body.static) return { position: body.position || [0, 0, 0], quaternion: body.orientation || [1, 0, 0, 0] };
  const base = frame * run.nq + body.q_offset;
  const q = run.q;
  if (run.dimension === 2) {
    const half = 0.5 * q[base + 2];
    return { position: [q[base], q[base + 1], 0], quaternion: [Math.cos(half), 0, 0, Math.sin(half)] };
  }
  return { position: [q[base], q[base + 1], q[base + 2]], quaternion: [q[base + 3], q[base + 4], q[base + 5], q[base + 6]] };
}

// The contact records of a frame: [first, last) into run.contacts' arrays.
export function contactRange(run, frame) {
  return [run.contacts.offsets[frame], run.contacts.offsets[frame + 1]];
}

// The frame a URL hash asks for: "#frame=N", "#frame=last", "#t=SECONDS"; null for none.
export function frameFromHash(run, hash) {
  const params = new URLSearchParams(String(hash || "").replace(/^#/, ""));
  const last = Math.max(run.frames - 1, 0);
  if (params.has("frame")) {
    const v = params.get("frame");
    if (v === "last") return last;
    if (v === "first") return 0;
    const k = Number(v);
    return Number.isInteger(k) ? Math.min(Math.max(k, 0), last) : null;
  }
  if (params.has("t")) {
    const time = Number(params.get("t"));
    return Number.isFinite(time) ? frameAtTime(run, time) : null;
  }
  return null;
}

// The key of the mesh a shape is drawn with: shapes of one key share one InstancedMesh, their
// sizes going into the instance matrix where the geometry allows it (sphere, box, cylinder).
export function shapeKey(shape) {
  switch (shape.kind) {
    case "sphere":
    case "box":
    case "cylinder":
      return shape.kind;
    case "ellipsoid":
      return "sphere";  // the unit sphere, scaled by its radii
    case "capsule":
      return `capsule:${shape.radius}:${shape.half_length}`;
    case "convex":
      return `convex:${JSON.stringify(shape.vertices)}:${shape.radius || 0}`;
    case "plane":
      return null;  // drawn one by one, sized to the scene
    default:
      throw new Error(`run data: unknown shape kind ${JSON.stringify(shape.kind)}`);
  }
}

// The largest |impulse| of the run (for the arrows' scale), 0 without located contacts.
export function largestImpulse(run) {
  const r = run.contacts.impulse;
  let best = 0;
  for (let i = 0; i + 2 < r.length; i += 3) {
    const n = Math.hypot(r[i], r[i + 1], r[i + 2]);
    if (n > best) best = n;
  }
  return best;
}

// The events panel's rows: every event but the solver failures, each with its index in
// run.events, and the failures as one summary (null when none): how many steps ended above the
// solver tolerance (the summary's count, which goes past the 20 logged), the worst residual and
// the first failure's event.
export function eventList(run) {
  const items = [];
  let first = null;
  run.events.forEach((event, index) => {
    if (event.kind === "solver_failure") {
      if (first === null) first = { index, event };
    } else {
      items.push({ index, event });
    }
  });
  const count = Math.max(Number(run.summary?.solver_failures) || 0, first ? 1 : 0);
  const failures = count > 0 ? {
    count, worst: Number(run.summary?.solver_worst_residual) || NaN, first,
  } : null;
  return { items, failures };
}
