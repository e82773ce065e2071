// The `moreau view` page: plays the run embedded in the page (run_data.js) with three.js.
// Bodies are drawn with their shapes, one InstancedMesh per kind of geometry (spheres, boxes and
// cylinders of every size share one; capsules and convex hulls one per size), so that thousands
// of bodies stay smooth; contacts are dots coloured by mode with impulse arrows; the events are a
// list (click one to jump to it); the energy curve has a cursor at the current time.
// The page reports on <body>: data-moreau-loaded="1", data-bodies (dynamic bodies),
// data-static-bodies, data-shapes, data-visuals (visual items drawn), data-joints, data-frames,
// data-frame (the frame shown), data-contacts (its contact records), data-events, data-fill (the
// share of the view's width or height, the larger, that the bodies' box spans as first framed),
// data-load-ms (from the navigation's start to the first picture); data-moreau-error when it
// could not play the run.
// A body with visuals (a URDF <visual>: meshes drawn as their triangles in their files' colours)
// is drawn by them, or by its collision shapes when "collision shapes" is ticked; joints are
// short segments along their axes at their anchors (a dot for a ball joint).
import * as THREE from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";
import { ConvexGeometry } from "three/addons/geometries/ConvexGeometry.js";
import { bodyPose, contactRange, eventList, frameAtTime, frameFromHash, largestImpulse, parseRunText, shapeKey } from "./run_data.js";

const MODE_COLORS = { separate: 0x9e9e9e, stick: 0x2ca02c, slip: 0xff7f0e };
// body colours: none of the mode colours (green, orange, grey)
const PALETTE = [0x4e79a7, 0xe15759, 0x76b7b2, 0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0x5778a4, 0xd4a6c8, 0x86bcb6];
const STATIC_COLOR = 0xb8b8b8;

const $ = (id) => document.getElementById(id);

function fail(error) {
  document.body.dataset.moreauError = String(error.message || error);
  $("error").textContent = `This run cannot be shown: ${error.message || error}`;
  $("error").hidden = false;
  console.error(error);
}

// Unit geometries (sizes in the instance matrix) and per-size ones, in the shape frame.
function unitGeometry(kind) {
  if (kind === "sphere") return new THREE.SphereGeometry(1, 24, 16);
  if (kind === "box") return new THREE.BoxGeometry(2, 2, 2);
  // cylinder: axis z, from z = −1 to 1
  return new THREE.CylinderGeometry(1, 1, 2, 24).rotateX(Math.PI / 2);
}

function shapeGeometry(shape, dimension, thickness) {
  const key = shapeKey(shape);
  if (key === "sphere" || key === "box" || key === "cylinder") return unitGeometry(key);
  if (shape.kind === "ellipsoid") return unitGeometry("sphere");  // scaled by its radii
  if (shape.kind === "capsule") {
    // three's capsule is along y: turn it to moreau's x axis; a thin rod (r = 0) gets a visible
    // radius
    const r = Math.max(shape.radius, 0.15 * thickness);
    return new THREE.CapsuleGeometry(r, 2 * shape.half_length, 8, 16).rotateZ(Math.PI / 2);
  }
  // convex hull of the vertices (planar polygons extruded along z)
  const points = [];
  for (const v of shape.vertices) {
    if (dimension === 2) {
      points.push(new THREE.Vector3(v[0], v[1], -thickness), new THREE.Vector3(v[0], v[1], thickness));
    } else {
      points.push(new THREE.Vector3(v[0], v[1], v[2]));
    }
  }
  if (points.length < 4) return new THREE.SphereGeometry(Math.max(shape.radius || 0, 0.01), 12, 8);
  return new ConvexGeometry(points);
}

// The scale of a shape in its instance matrix (1 for per-size geometries).
function shapeScale(shape, dimension, thickness) {
  if (shape.kind === "sphere") return [shape.radius, shape.radius, shape.radius];
  if (shape.kind === "ellipsoid") return shape.radii;
  if (shape.kind === "box") {
    const [a, b, c] = shape.half_extents;
    return [a, b, dimension === 2 && !(c > 0) ? thickness : c];
  }
  if (shape.kind === "cylinder") return [shape.radius, shape.radius, shape.half_length];
  return [1, 1, 1];
}

// The geometry of a visual mesh: its triangles, coloured per part (the file's material, else the
// visual's rgba, else the body's colour).
function meshGeometry(mesh, fallback) {
  const g = new THREE.BufferGeometry();
  g.setAttribute("position", new THREE.BufferAttribute(mesh.vertices, 3));
  g.setIndex(new THREE.BufferAttribute(mesh.triangles, 1));
  const n = mesh.vertices.length / 3, colors = new Float32Array(3 * n), c = new THREE.Color();
  mesh.parts.forEach((part, k) => {
    const end = k + 1 < mesh.parts.length ? mesh.parts[k + 1].start : n;
    if (Array.isArray(part.rgba)) c.setRGB(part.rgba[0], part.rgba[1], part.rgba[2]);
    else c.copy(fallback);
    for (let v = part.start; v < end; ++v) colors.set([c.r, c.g, c.b], 3 * v);
  });
  g.setAttribute("color", new THREE.BufferAttribute(colors, 3));
  g.computeVertexNormals();
  g.computeBoundingSphere();
  return g;
}

function boundingRadius(shape, meshes) {
  switch (shape.kind) {
    case "mesh": {
      const v = meshes[shape.mesh].vertices;
      let r = 0;
      for (let i = 0; i < v.length; i += 3) r = Math.max(r, Math.hypot(v[i], v[i + 1], v[i + 2]));
      return r;
    }
    case "sphere": return shape.radius;
    case "box": return Math.hypot(...shape.half_extents);
    case "capsule": return shape.radius + shape.half_length;
    case "cylinder": return Math.hypot(shape.radius, shape.half_length);
    case "ellipsoid": return Math.max(...shape.radii);
    case "convex": return (shape.radius || 0) + Math.max(0, ...shape.vertices.map((v) => Math.hypot(...v)));
    default: return 0;
  }
}

class Viewer {
  constructor(run) {
    this.run = run;
    this.frame = 0;
    this.playing = false;
    this.speed = 1;
    this.time = run.frames > 0 ? run.t[0] : 0;
    this.setupRenderer();
    this.setupBodies();
    this.setupContacts();
    this.setupJoints();
    this.setupCamera();
    this.setupInterface();
  }

  setupRenderer() {
    const canvas = $("view");
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: false, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(window.devicePixelRatio || 1);
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0xf4f5f7);
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x667788, 2.2));
    this.sun = new THREE.DirectionalLight(0xffffff, 1.6);
    this.scene.add(this.sun);
  }

  // The world box of what is drawn, for the camera and the planes: each shape and visual posed
  // at up to 51 frames of the run (static bodies once), a mesh by the corners of its own box,
  // anything else by a sphere of its bounding radius about its origin.
  sceneBox() {
    const run = this.run, box = new THREE.Box3();
    const meshBoxes = run.meshes.map((m) => new THREE.Box3().setFromArray(m.vertices));
    const frames = [];
    const step = Math.max(1, Math.floor(run.frames / 50));
    for (let k = 0; k < run.frames; k += step) frames.push(k);
    if (run.frames > 0 && frames[frames.length - 1] !== run.frames - 1) frames.push(run.frames - 1);
    const body = new THREE.Matrix4(), local = new THREE.Matrix4(), one = new THREE.Vector3(1, 1, 1);
    const p = new THREE.Vector3(), q = new THREE.Quaternion(), o = new THREE.Quaternion(), part = new THREE.Box3();
    for (const [b, spec] of run.bodies.entries()) {
      const items = spec.shapes.concat(spec.visuals).filter((s) => s.kind !== "plane");
      const radii = items.map((s) => (s.kind === "mesh" ? 0 : boundingRadius(s, run.meshes)));
      for (const k of spec.static ? [0] : frames) {
        const pose = bodyPose(run, b, k);
        q.set(pose.quaternion[1], pose.quaternion[2], pose.quaternion[3], pose.quaternion[0]).normalize();
        items.forEach((s, i) => {
          if (s.kind === "mesh") {
            body.compose(p.set(...pose.position), q, one);
            local.compose(p.set(...s.position), o.set(s.orientation[1], s.orientation[2], s.orientation[3], s.orientation[0]), one);
            box.union(part.copy(meshBoxes[s.mesh]).applyMatrix4(body.multiply(local)));
          } else {
            p.set(...s.position).applyQuaternion(q).add({ x: pose.position[0], y: pose.position[1], z: pose.position[2] });
            box.expandByPoint(p.clone().addScalar(radii[i])).expandByPoint(p.addScalar(-radii[i]));
          }
        });
      }
    }
    if (box.isEmpty()) box.set(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(1, 1, 1));
    return box;
  }

  setupBodies() {
    const run = this.run;
    this.box = this.sceneBox();
    const size = this.box.getSize(new THREE.Vector3());
    this.extent = Math.max(size.x, size.y, size.z, 1e-3);
    const thickness = 0.05 * this.extent;
    // group the shapes by mesh key
    const groups = new Map();
    let drawn = 0;
    for (const [b, body] of run.bodies.entries()) {
      const color = body.static ? STATIC_COLOR : PALETTE[b % PALETTE.length];
      for (const s of body.shapes) {
        if (s.kind === "plane") {
          this.addPlane(body, s);
          ++drawn;
          continue;
        }
        const key = shapeKey(s);
        if (!groups.has(key)) groups.set(key, { shape: s, items: [] });
        groups.get(key).items.push({ b, shape: s, color, scale: shapeScale(s, run.dimension, thickness), static: !!body.static, covered: body.visuals.length > 0 });
        ++drawn;
      }
    }
    this.setupVisuals(thickness);
    this.meshes = [];
    for (const { shape, items } of groups.values()) {
      const material = new THREE.MeshLambertMaterial();
      const mesh = new THREE.InstancedMesh(shapeGeometry(shape, run.dimension, thickness), material, items.length);
      mesh.frustumCulled = false;
      const c = new THREE.Color();
      items.forEach((it, i) => mesh.setColorAt(i, c.setHex(it.color)));
      mesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
      this.scene.add(mesh);
      this.meshes.push({ mesh, items });
    }
    this.drawnShapes = drawn;
  }

  // One group per body with visuals, posed at each frame: meshes (one geometry per mesh of the
  // page, shared) and primitives, in their own colours.
  setupVisuals(thickness) {
    const run = this.run;
    const geometries = new Map();
    this.visualGroups = [];
    let drawn = 0;
    for (const [b, body] of run.bodies.entries()) {
      if (body.visuals.length === 0) continue;
      const bodyColor = new THREE.Color(body.static ? STATIC_COLOR : PALETTE[b % PALETTE.length]);
      const group = new THREE.Group();
      group.matrixAutoUpdate = false;
      for (const v of body.visuals) {
        const color = Array.isArray(v.rgba) ? new THREE.Color(v.rgba[0], v.rgba[1], v.rgba[2]) : bodyColor;
        let object;
        if (v.kind === "mesh") {
          const key = `${v.mesh}|${color.getHexString()}`;
          if (!geometries.has(key)) geometries.set(key, meshGeometry(run.meshes[v.mesh], color));
          object = new THREE.Mesh(geometries.get(key), new THREE.MeshLambertMaterial({ vertexColors: true }));
        } else {
          object = new THREE.Mesh(shapeGeometry(v, run.dimension, thickness), new THREE.MeshLambertMaterial({ color }));
          object.scale.set(...shapeScale(v, run.dimension, thickness));
        }
        if (Array.isArray(v.rgba) && v.rgba[3] < 1) Object.assign(object.material, { transparent: true, opacity: v.rgba[3] });
        object.position.set(...v.position);
        object.quaternion.set(v.orientation[1], v.orientation[2], v.orientation[3], v.orientation[0]);
        object.frustumCulled = false;
        group.add(object);
        ++drawn;
      }
      this.scene.add(group);
      this.visualGroups.push({ b, group });
    }
    this.drawnVisuals = drawn;
  }

  // The joints: a segment along each hinge's or slide's axis through its anchor, a dot at each
  // anchor; drawn over the bodies.
  setupJoints() {
    const run = this.run;
    this.joints = run.joints.filter((j) => !run.bodies[j.body].static);
    const n = this.joints.length;
    this.jointLength = 0.06 * this.extent;
    this.jointPositions = new Float32Array(6 * Math.max(n, 1));
    const lines = new THREE.BufferGeometry();
    lines.setAttribute("position", new THREE.BufferAttribute(this.jointPositions, 3).setUsage(THREE.DynamicDrawUsage));
    this.jointLines = new THREE.LineSegments(lines, new THREE.LineBasicMaterial({ color: 0x1a1a1a }));
    this.jointDots = new THREE.InstancedMesh(new THREE.SphereGeometry(0.008 * this.extent, 10, 8), new THREE.MeshBasicMaterial({ color: 0x1a1a1a }), Math.max(n, 1));
    this.jointDots.count = n;
    for (const m of [this.jointLines, this.jointDots]) {
      m.frustumCulled = false;
      m.renderOrder = 1;
      m.material.depthTest = false;
      this.scene.add(m);
    }
  }

  // A static half-space n·x ≤ d (before the shape's offset): 3D a slab below its surface, planar
  // a band below its line; both centred under the scene.
  addPlane(body, s) {
    const quat = (o) => new THREE.Quaternion(o[1], o[2], o[3], o[0]);
    const bodyQ = quat(body.orientation || [1, 0, 0, 0]), bodyP = new THREE.Vector3(...(body.position || [0, 0, 0]));
    const rot = bodyQ.clone().multiply(quat(s.orientation));
    const origin = new THREE.Vector3(...s.position).applyQuaternion(bodyQ).add(bodyP);
    const n = new THREE.Vector3(...s.normal).normalize();
    const N = n.clone().applyQuaternion(rot);
    const p0 = n.clone().multiplyScalar(s.offset_distance).applyQuaternion(rot).add(origin);
    const centre = this.box.getCenter(new THREE.Vector3());
    const foot = centre.clone().sub(N.clone().multiplyScalar(centre.clone().sub(p0).dot(N)));
    // a floor (normal along the up axis) is opaque and wide; walls are see-through and cut to
    // the scene, so that they do not hide what they hold
    const up = this.run.dimension === 2 ? new THREE.Vector3(0, 1, 0) : new THREE.Vector3(0, 0, 1);
    const floor = N.dot(up) > 0.7;
    const size = (floor ? 4 : 1.3) * this.extent;
    const material = new THREE.MeshLambertMaterial({ color: STATIC_COLOR, side: THREE.DoubleSide });
    if (!floor) Object.assign(material, { transparent: true, opacity: this.run.dimension === 2 ? 0.5 : 0.15, depthWrite: false });
    let mesh;
    if (this.run.dimension === 2) {
      const t = new THREE.Vector3(N.y, -N.x, 0).normalize();
      mesh = new THREE.Mesh(new THREE.PlaneGeometry(size, size / 2), material);
      const at = foot.clone().sub(N.clone().multiplyScalar(size / 4)).setZ(-0.3 * this.extent);
      mesh.matrix.makeBasis(t, N, new THREE.Vector3(0, 0, 1)).setPosition(at);
      const edge = [foot.clone().sub(t.clone().multiplyScalar(size / 2)), foot.clone().add(t.clone().multiplyScalar(size / 2))];
      this.scene.add(new THREE.Line(new THREE.BufferGeometry().setFromPoints(edge), new THREE.LineBasicMaterial({ color: 0x555555 })));
    } else {
      const depth = 0.02 * this.extent;
      mesh = new THREE.Mesh(new THREE.BoxGeometry(size, size, depth), material);
      const q = new THREE.Quaternion().setFromUnitVectors(new THREE.Vector3(0, 0, 1), N);
      mesh.matrix.compose(foot.clone().sub(N.clone().multiplyScalar(depth / 2)), q, new THREE.Vector3(1, 1, 1));
      if (floor) {
        const grid = new THREE.GridHelper(size, 40, 0x999999, 0xcccccc);
        grid.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), N);
        grid.position.copy(foot.clone().add(N.clone().multiplyScalar(1e-4 * this.extent)));
        this.scene.add(grid);
      }
    }
    mesh.matrixAutoUpdate = false;
    this.scene.add(mesh);
  }

  setupContacts() {
    const run = this.run;
    let widest = 1;
    for (let k = 0; k < run.frames; ++k) widest = Math.max(widest, run.contacts.offsets[k + 1] - run.contacts.offsets[k]);
    const r = 0.012 * this.extent;
    this.dotRadius = r;
    this.dots = new THREE.InstancedMesh(new THREE.SphereGeometry(r, 10, 8), new THREE.MeshBasicMaterial(), widest);
    this.dots.frustumCulled = false;
    this.dots.count = 0;
    this.dots.setColorAt(0, new THREE.Color());
    this.heads = new THREE.InstancedMesh(new THREE.ConeGeometry(1.6 * r, 4 * r, 10).translate(0, -2 * r, 0), new THREE.MeshBasicMaterial(), widest);
    this.heads.frustumCulled = false;
    this.heads.count = 0;
    this.heads.setColorAt(0, new THREE.Color());
    this.arrowPositions = new Float32Array(6 * widest);
    this.arrowColors = new Float32Array(6 * widest);
    const lines = new THREE.BufferGeometry();
    lines.setAttribute("position", new THREE.BufferAttribute(this.arrowPositions, 3).setUsage(THREE.DynamicDrawUsage));
    lines.setAttribute("color", new THREE.BufferAttribute(this.arrowColors, 3).setUsage(THREE.DynamicDrawUsage));
    this.arrows = new THREE.LineSegments(lines, new THREE.LineBasicMaterial({ vertexColors: true }));
    this.arrows.frustumCulled = false;
    const biggest = largestImpulse(run);
    this.arrowScale = biggest > 0 ? (0.15 * this.extent) / biggest : 0;
    for (const m of [this.dots, this.heads, this.arrows]) {
      m.renderOrder = 2;
      m.material.depthTest = false;
      this.scene.add(m);
    }
  }

  setupCamera() {
    const box = this.box;
    const centre = box.getCenter(new THREE.Vector3());
    const canvas = $("view");
    const aspect = Math.max(canvas.clientWidth, 1) / Math.max(canvas.clientHeight, 1);
    if (this.run.dimension === 2) {
      const size = box.getSize(new THREE.Vector3());
      const half = 0.58 * Math.max(size.y, size.x / aspect, 1e-3);
      this.camera = new THREE.OrthographicCamera(-half * aspect, half * aspect, half, -half, -100 * this.extent, 100 * this.extent);
      this.camera.position.set(centre.x, centre.y, 10 * this.extent);
      this.camera.up.set(0, 1, 0);
    } else {
      this.camera = new THREE.PerspectiveCamera(40, aspect, 0.001 * this.extent, 1000 * this.extent);
      this.camera.up.set(0, 0, 1);
      // far enough that the box's bounding sphere fits the narrower of the two fields of view
      const radius = 0.5 * box.getSize(new THREE.Vector3()).length();
      const half = Math.min(THREE.MathUtils.degToRad(20), Math.atan(aspect * Math.tan(THREE.MathUtils.degToRad(20))));
      const dir = new THREE.Vector3(1.0, -1.6, 0.9).normalize();
      this.camera.position.copy(centre).add(dir.multiplyScalar((1.05 * radius) / Math.sin(half)));
    }
    this.camera.lookAt(centre);
    this.sun.position.copy(centre).add(new THREE.Vector3(0.5, -0.8, 1.5).multiplyScalar(3 * this.extent));
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.target.copy(centre);
    if (this.run.dimension === 2) this.controls.enableRotate = false;
    this.controls.addEventListener("change", () => this.render());
    this.controls.update();
    window.addEventListener("resize", () => this.resize());
    this.resize();
    this.fill = this.boxFill();
  }

  // The share of the view (its width or height, the larger) that the bodies' box spans: its
  // corners projected by the camera.
  boxFill() {
    const b = this.box, lo = new THREE.Vector2(Infinity, Infinity), hi = new THREE.Vector2(-Infinity, -Infinity);
    for (let i = 0; i < 8; ++i) {
      const p = new THREE.Vector3(i & 1 ? b.max.x : b.min.x, i & 2 ? b.max.y : b.min.y, i & 4 ? b.max.z : b.min.z).project(this.camera);
      lo.min(new THREE.Vector2(p.x, p.y));
      hi.max(new THREE.Vector2(p.x, p.y));
    }
    const clip = (x) => Math.min(Math.max(x, -1), 1);
    return Math.max((clip(hi.x) - clip(lo.x)) / 2, (clip(hi.y) - clip(lo.y)) / 2);
  }

  resize() {
    const canvas = $("view");
    const w = Math.max(canvas.clientWidth, 1), h = Math.max(canvas.clientHeight, 1);
    this.renderer.setSize(w, h, false);
    const aspect = w / h;
    if (this.camera.isOrthographicCamera) {
      // the scene's box fits whatever the shape of the window (zooming is the camera's zoom)
      const size = this.box.getSize(new THREE.Vector3());
      const half = 0.58 * Math.max(size.y, size.x / aspect, 1e-3);
      this.camera.top = half;
      this.camera.bottom = -half;
      this.camera.left = -half * aspect;
      this.camera.right = half * aspect;
    } else {
      this.camera.aspect = aspect;
    }
    this.camera.updateProjectionMatrix();
    this.drawEnergy();
    this.render();
  }

  setupInterface() {
    const run = this.run;
    $("title").textContent = run.title;
    document.title = `${run.title} · moreau view`;
    const steps = run.summary.steps !== undefined ? `, ${run.summary.steps} steps` : "";
    $("info").textContent = `${run.system} · ${run.integrator}${steps} · status ${run.status} · ${run.dynamicBodies} bodies · ${run.frames} frames` + (run.recorded > run.frames ? ` (of ${run.recorded} recorded)` : "");
    const slider = $("slider");
    slider.max = String(Math.max(run.frames - 1, 0));
    slider.addEventListener("input", () => { this.pause(); this.seek(Number(slider.value)); });
    $("play").addEventListener("click", () => (this.playing ? this.pause() : this.play()));
    $("speed").addEventListener("change", () => { this.speed = Number($("speed").value); });
    $("contacts-on").addEventListener("change", () => this.seek(this.frame));
    $("arrows-on").addEventListener("change", () => this.seek(this.frame));
    $("joints-label").hidden = this.joints.length === 0;
    $("shapes-label").hidden = this.visualGroups.length === 0;
    $("joints-on").addEventListener("change", () => this.seek(this.frame));
    $("shapes-on").addEventListener("change", () => this.seek(this.frame));
    document.addEventListener("keydown", (e) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
      if (e.key === " ") { e.preventDefault(); this.playing ? this.pause() : this.play(); }
      if (e.key === "ArrowRight") { this.pause(); this.seek(Math.min(this.frame + 1, run.frames - 1)); }
      if (e.key === "ArrowLeft") { this.pause(); this.seek(Math.max(this.frame - 1, 0)); }
    });
    // legend
    $("legend").innerHTML = Object.entries(MODE_COLORS).map(([m, c]) => `<span><i style="background:#${c.toString(16).padStart(6, "0")}"></i>${m}</span>`).join("") + `<span>arrows: ${run.impulseUnit === "N" ? "contact force (N)" : "impulse (" + (run.impulseUnit || "N·s") + ")"}</span>`;
    // events
    const list = $("events");
    const { items, failures } = eventList(run);
    const shown = items.slice(0, 5000);
    $("events-title").textContent = `Events (${items.length}${items.length > shown.length ? ", first 5000 listed" : ""})`;
    const fragment = document.createDocumentFragment();
    if (failures) {  // the unconverged steps as one line, not one event each
      const li = document.createElement("li");
      li.className = "failures";
      li.innerHTML = `<span class="kind kind-solver_failure">solver_failure</span> <span class="name"></span>`;
      const worst = Number.isFinite(failures.worst) ? `, worst residual ${failures.worst.toExponential(2)}` : "";
      li.querySelector(".name").textContent = `${failures.count} step${failures.count === 1 ? "" : "s"} ended above the solver tolerance${worst}; the first at ${failures.first ? failures.first.event.t.toFixed(4) + " s" : "?"}`;
      if (failures.first) li.addEventListener("click", () => { this.pause(); this.seek(failures.first.event.frame); });
      fragment.appendChild(li);
    }
    this.eventItems = shown.map(({ index, event: e }) => {
      const li = document.createElement("li");
      li.dataset.index = String(index);
      li.innerHTML = `<b>${e.t.toFixed(4)} s</b> <span class="kind kind-${e.kind}"></span> <span class="name"></span>`;
      li.querySelector(".kind").textContent = e.kind;
      li.querySelector(".name").textContent = e.name;
      li.title = e.detail;
      li.addEventListener("click", () => { this.pause(); this.seek(e.frame); });
      fragment.appendChild(li);
      return { li, e };
    });
    list.appendChild(fragment);
    // energy
    const energy = $("energy");
    energy.addEventListener("click", (ev) => {
      const rect = energy.getBoundingClientRect();
      const x = (ev.clientX - rect.left) / rect.width;
      if (run.frames === 0) return;
      const t0 = run.t[0], t1 = run.t[run.frames - 1];
      this.pause();
      this.seek(frameAtTime(run, t0 + x * (t1 - t0)));
    });
    window.addEventListener("hashchange", () => {
      const k = frameFromHash(run, location.hash);
      if (k !== null) { this.pause(); this.seek(k); }
    });
  }

  drawEnergy() {
    const run = this.run;
    const canvas = $("energy");
    const w = canvas.clientWidth || 300, h = canvas.clientHeight || 150;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(w * ratio);
    canvas.height = Math.round(h * ratio);
    const g = canvas.getContext("2d", { willReadFrequently: true });
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, w, h);
    if (run.frames === 0) return;
    const series = [[run.kinetic, "#4e79a7", "kinetic"], [run.potential, "#f28e2b", "potential"], [run.total, "#222222", "total"]];
    let lo = Infinity, hi = -Infinity;
    for (const [s] of series) for (const v of s) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    if (!(hi > lo)) { hi = lo + 1; lo -= 1; }
    const pad = { l: 44, r: 8, t: 8, b: 18 };
    const t0 = run.t[0], t1 = run.t[run.frames - 1] > t0 ? run.t[run.frames - 1] : t0 + 1;
    this.energyX = (t) => pad.l + ((t - t0) / (t1 - t0)) * (w - pad.l - pad.r);
    const y = (v) => pad.t + (1 - (v - lo) / (hi - lo)) * (h - pad.t - pad.b);
    g.strokeStyle = "#ccc";
    g.strokeRect(pad.l, pad.t, w - pad.l - pad.r, h - pad.t - pad.b);
    g.fillStyle = "#555";
    g.font = "10px sans-serif";
    g.fillText(`${hi.toPrecision(3)} J`, 2, pad.t + 8);
    g.fillText(`${lo.toPrecision(3)} J`, 2, h - pad.b);
    g.fillText(`${t0.toPrecision(3)} s`, pad.l, h - 4);
    g.fillText(`${t1.toPrecision(3)} s`, w - pad.r - 40, h - 4);
    const step = Math.max(1, Math.floor(run.frames / (2 * w)));
    series.forEach(([s, color, label], i) => {
      g.strokeStyle = color;
      g.beginPath();
      for (let k = 0; k < run.frames; k += step) {
        const X = this.energyX(run.t[k]), Y = y(s[k]);
        k === 0 ? g.moveTo(X, Y) : g.lineTo(X, Y);
      }
      g.stroke();
      g.fillStyle = color;
      g.fillText(label, pad.l + 6 + 60 * i, pad.t + 10);
    });
    this.energyBackground = g.getImageData(0, 0, canvas.width, canvas.height);
    this.drawCursor();
  }

  drawCursor() {
    const canvas = $("energy");
    if (!this.energyBackground || this.run.frames === 0) return;
    const g = canvas.getContext("2d", { willReadFrequently: true });
    g.putImageData(this.energyBackground, 0, 0);
    const ratio = window.devicePixelRatio || 1;
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    const x = this.energyX(this.run.t[this.frame]);
    g.strokeStyle = "#d62728";
    g.beginPath();
    g.moveTo(x, 0);
    g.lineTo(x, canvas.height / ratio);
    g.stroke();
  }

  // Poses of every shape instance and the contacts of frame k; then one render.
  seek(k) {
    const run = this.run;
    if (run.frames === 0) { this.render(); return; }
    k = Math.min(Math.max(k | 0, 0), run.frames - 1);
    this.frame = k;
    this.time = run.t[k];
    const m = new THREE.Matrix4(), offset = new THREE.Matrix4(), scale = new THREE.Matrix4();
    const p = new THREE.Vector3(), q = new THREE.Quaternion(), one = new THREE.Vector3(1, 1, 1);
    const poses = new Map();
    const poseOf = (b) => {
      let pose = poses.get(b);
      if (!pose) {
        const bp = bodyPose(run, b, k);
        pose = new THREE.Matrix4().compose(p.set(...bp.position), q.set(bp.quaternion[1], bp.quaternion[2], bp.quaternion[3], bp.quaternion[0]).normalize(), one);
        poses.set(b, pose);
      }
      return pose;
    };
    const shapesOn = $("shapes-on").checked;
    const hidden = new THREE.Matrix4().makeScale(0, 0, 0);
    for (const { b, group } of this.visualGroups) {
      group.visible = !shapesOn;
      group.matrix.copy(poseOf(b));
    }
    for (const { mesh, items } of this.meshes) {
      items.forEach((it, i) => {
        if (it.covered && !shapesOn) { mesh.setMatrixAt(i, hidden); return; }
        const pose = poseOf(it.b);
        const s = it.shape;
        offset.compose(p.set(...s.position), q.set(s.orientation[1], s.orientation[2], s.orientation[3], s.orientation[0]), one);
        scale.makeScale(...it.scale);
        m.copy(pose).multiply(offset).multiply(scale);
        mesh.setMatrixAt(i, m);
      });
      mesh.instanceMatrix.needsUpdate = true;
    }
    this.updateJoints(poseOf);
    this.updateContacts(k);
    $("slider").value = String(k);
    $("time").textContent = `t = ${this.time.toFixed(4)} s · frame ${k + 1}/${run.frames}`;
    this.drawCursor();
    this.markEvents();
    const body = document.body.dataset;
    body.frame = String(k);
    this.render();
  }

  updateJoints(poseOf) {
    const on = $("joints-on").checked, m = new THREE.Matrix4(), a = new THREE.Vector3(), e = new THREE.Vector3();
    this.joints.forEach((j, i) => {
      const pose = poseOf(j.body);
      a.set(...j.anchor).applyMatrix4(pose);
      const half = j.kind === "ball" ? 0 : 0.5 * this.jointLength;
      e.set(...j.axis).transformDirection(pose).multiplyScalar(half);
      this.jointPositions.set([a.x - e.x, a.y - e.y, a.z - e.z, a.x + e.x, a.y + e.y, a.z + e.z], 6 * i);
      this.jointDots.setMatrixAt(i, m.makeTranslation(a.x, a.y, a.z));
    });
    this.jointLines.visible = this.jointDots.visible = on;
    this.jointLines.geometry.setDrawRange(0, 2 * this.joints.length);
    this.jointLines.geometry.attributes.position.needsUpdate = true;
    this.jointDots.instanceMatrix.needsUpdate = true;
  }

  updateContacts(k) {
    const run = this.run;
    const [first, last] = contactRange(run, k);
    const showDots = $("contacts-on").checked, showArrows = $("arrows-on").checked;
    const c = run.contacts, color = new THREE.Color(), m = new THREE.Matrix4();
    const up = new THREE.Vector3(0, 1, 0), dir = new THREE.Vector3(), q = new THREE.Quaternion();
    let n = 0, a = 0;
    for (let i = first; i < last; ++i) {
      const x = c.point[3 * i], y = c.point[3 * i + 1], z = c.point[3 * i + 2];
      if (!Number.isFinite(x)) continue;
      color.setHex(MODE_COLORS[run.modes[c.mode[i]]] ?? 0x000000);
      if (showDots) {
        this.dots.setMatrixAt(n, m.makeTranslation(x, y, z));
        this.dots.setColorAt(n, color);
        ++n;
      }
      const rx = c.impulse[3 * i] * this.arrowScale, ry = c.impulse[3 * i + 1] * this.arrowScale, rz = c.impulse[3 * i + 2] * this.arrowScale;
      const len = Math.hypot(rx, ry, rz);
      if (showArrows && len > 1e-6 * this.extent) {
        this.arrowPositions.set([x, y, z, x + rx, y + ry, z + rz], 6 * a);
        this.arrowColors.set([color.r, color.g, color.b, color.r, color.g, color.b], 6 * a);
        q.setFromUnitVectors(up, dir.set(rx, ry, rz).divideScalar(len));
        const head = Math.min(1, len / (8 * this.dotRadius));  // short arrows get small heads
        m.compose(dir.set(x + rx, y + ry, z + rz), q, new THREE.Vector3(head, head, head));
        this.heads.setMatrixAt(a, m);
        this.heads.setColorAt(a, color);
        ++a;
      }
    }
    this.dots.count = n;
    this.heads.count = a;
    for (const mesh of [this.dots, this.heads]) {
      mesh.instanceMatrix.needsUpdate = true;
      if (mesh.instanceColor) mesh.instanceColor.needsUpdate = true;
    }
    const g = this.arrows.geometry;
    g.setDrawRange(0, 2 * a);
    g.attributes.position.needsUpdate = true;
    g.attributes.color.needsUpdate = true;
    document.body.dataset.contacts = String(last - first);
  }

  markEvents() {
    const t = this.time;
    let current = -1;
    this.eventItems.forEach(({ li, e }, i) => {
      li.classList.toggle("past", e.t <= t + 1e-12);
      if (e.t <= t + 1e-12) current = i;
    });
    if (current !== this.currentEvent) {
      if (this.currentEvent >= 0 && this.eventItems[this.currentEvent]) this.eventItems[this.currentEvent].li.classList.remove("current");
      if (current >= 0) this.eventItems[current].li.classList.add("current");
      this.currentEvent = current;
    }
  }

  render() {
    if (this.renderer && this.camera) this.renderer.render(this.scene, this.camera);
  }

  play() {
    const run = this.run;
    if (run.frames < 2) return;
    if (this.frame >= run.frames - 1) this.seek(0);
    this.playing = true;
    $("play").textContent = "❚❚ pause";
    let last = performance.now();
    const tick = (now) => {
      if (!this.playing) return;
      this.time += ((now - last) / 1000) * this.speed;
      last = now;
      const end = run.t[run.frames - 1];
      if (this.time >= end) {
        this.seek(run.frames - 1);
        this.pause();
        return;
      }
      const k = frameAtTime(run, this.time);
      const keep = this.time;
      if (k !== this.frame) this.seek(k);
      this.time = keep;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }

  pause() {
    this.playing = false;
    $("play").textContent = "▶ play";
  }
}

function main() {
  let run;
  try {
    run = parseRunText($("moreau-run").textContent);
  } catch (e) {
    fail(e);
    return;
  }
  let viewer;
  try {
    viewer = new Viewer(run);
  } catch (e) {
    fail(e);
    return;
  }
  const start = frameFromHash(run, location.hash);
  viewer.seek(start ?? 0);
  const d = document.body.dataset;
  d.bodies = String(run.dynamicBodies);
  d.staticBodies = String(run.staticBodies);
  d.shapes = String(viewer.drawnShapes);
  d.visuals = String(viewer.drawnVisuals);
  d.joints = String(viewer.joints.length);
  d.fill = viewer.fill.toFixed(3);
  d.frames = String(run.frames);
  d.events = String(run.events.length);
  d.loadMs = String(Math.round(performance.now()));  // since the navigation started
  d.moreauLoaded = "1";
  window.moreauViewer = viewer;
  if (start === null && new URLSearchParams(location.search).get("autoplay") !== "0") viewer.play();
}

main();
