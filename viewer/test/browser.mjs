// Loads a `moreau view` page in headless Chromium (Debian's chromium) and checks it, driving the
// browser through the DevTools protocol over a pipe (--remote-debugging-pipe: no WebSocket, no
// npm package):
//   - the page reports that it loaded (data-moreau-loaded="1" on <body>) with the expected body
//     and frame counts;
//   - screenshots at the first and the last frame (#frame=0, #frame=last) are not blank and
//     differ from each other;
//   - clicking an event goes to its time, play advances the frames;
//   - no console error, no uncaught exception, no error log entry;
//   - with --visuals V, --joints J: the page draws V visual items and J joints, and ticking
//     "collision shapes" changes the picture; with --min-fill F, the bodies' box spans at least
//     F of the view (data-fill: the camera frames what it shows).
//   node browser.mjs PAGE.html --bodies N --frames M [--visuals V] [--joints J] [--min-fill F]
//                    [--shots DIR] [--chromium PATH]
// Prints one JSON line (counts, load time, pixel figures); exit 0 when every check passes, 1
// otherwise (each failure on stderr), 2 when the browser cannot be run.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { inflateSync } from "node:zlib";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const page = args[0];
const expectBodies = Number(option("--bodies", NaN));
const expectFrames = Number(option("--frames", NaN));
const shots = option("--shots", "");
const expectVisuals = option("--visuals", null), expectJoints = option("--joints", null);
const minFill = Number(option("--min-fill", 0));
const chromium = option("--chromium", "/usr/bin/chromium");
const timeoutMs = Number(option("--timeout", 90)) * 1000;
if (!page || !Number.isInteger(expectBodies) || !Number.isInteger(expectFrames)) {
  console.error("usage: node browser.mjs PAGE.html --bodies N --frames M [--shots DIR]");
  process.exit(2);
}

// ---- the browser and its DevTools pipe (messages are JSON, each ended by a NUL byte) ----
const profile = mkdtempSync(join(tmpdir(), "moreau-chromium-"));
const browser = spawn(chromium, [
  "--headless", "--disable-gpu", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
  "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
  "--hide-scrollbars", "--mute-audio", "--window-size=1000,700", `--user-data-dir=${profile}`, "about:blank",
], { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
let browserLog = "";
browser.stderr.on("data", (d) => { browserLog = (browserLog + d).slice(-20000); });
const toBrowser = browser.stdio[3], fromBrowser = browser.stdio[4];
let nextId = 1, buffer = Buffer.alloc(0);
const pending = new Map(), listeners = [];
fromBrowser.on("data", (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  let end;
  while ((end = buffer.indexOf(0)) >= 0) {
    const message = JSON.parse(buffer.subarray(0, end).toString("utf8"));
    buffer = buffer.subarray(end + 1);
    if (message.id && pending.has(message.id)) {
      const { resolve: ok, reject } = pending.get(message.id);
      pending.delete(message.id);
      message.error ? reject(new Error(`${message.error.message} (${message.error.code})`)) : ok(message.result);
    } else {
      for (const l of listeners) l(message);
    }
  }
});
const send = (method, params = {}, sessionId) => new Promise((ok, reject) => {
  const id = nextId++;
  pending.set(id, { resolve: ok, reject });
  toBrowser.write(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }) + "\0");
});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const failures = [];
const check = (ok, message) => { if (!ok) failures.push(message); };

let exitCode = 0;
const deadline = setTimeout(() => { console.error(`browser: no answer within ${timeoutMs / 1000} s`); finish(2); }, timeoutMs);
function finish(code) {
  clearTimeout(deadline);
  try { browser.kill("SIGKILL"); } catch { /* gone */ }
  try { rmSync(profile, { recursive: true, force: true }); } catch { /* kept */ }
  process.exit(code);
}
browser.on("error", (e) => { console.error(`browser: cannot run ${chromium}: ${e.message}`); finish(2); });

// ---- PNG (8-bit RGB or RGBA, non-interlaced: what Chromium writes) → RGBA pixels ----
function decodePng(bytes) {
  let pos = 8, width = 0, height = 0, type = 0;
  const data = [];
  while (pos < bytes.length) {
    const length = bytes.readUInt32BE(pos), kind = bytes.toString("latin1", pos + 4, pos + 8);
    const body = bytes.subarray(pos + 8, pos + 8 + length);
    if (kind === "IHDR") {
      width = body.readUInt32BE(0); height = body.readUInt32BE(4); type = body[9];
      if (body[8] !== 8 || (type !== 2 && type !== 6) || body[12] !== 0) throw new Error("unsupported PNG");
    } else if (kind === "IDAT") data.push(body);
    pos += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data)), channels = type === 6 ? 4 : 3, stride = width * channels;
  const out = new Uint8Array(width * height * 4), line = new Uint8Array(stride), previous = new Uint8Array(stride);
  for (let y = 0; y < height; ++y) {
    const filter = raw[y * (stride + 1)], row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; ++i) {
      const a = i >= channels ? line[i - channels] : 0, b = previous[i], c = i >= channels ? previous[i - channels] : 0;
      let v = row[i];
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) { const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c); v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c; }
      line[i] = v & 255;
    }
    for (let x = 0; x < width; ++x) {
      for (let k = 0; k < 3; ++k) out[4 * (y * width + x) + k] = line[x * channels + k];
      out[4 * (y * width + x) + 3] = channels === 4 ? line[x * channels + 3] : 255;
    }
    previous.set(line);
  }
  return { width, height, pixels: out };
}

// Within rect (device pixels): the share of pixels away from the most common colour, and the
// number of distinct colours.
function contentOf(image, rect) {
  const counts = new Map();
  for (let y = rect.y; y < rect.y + rect.h; ++y)
    for (let x = rect.x; x < rect.x + rect.w; ++x) {
      const i = 4 * (y * image.width + x), key = (image.pixels[i] << 16) | (image.pixels[i + 1] << 8) | image.pixels[i + 2];
      counts.set(key, (counts.get(key) || 0) + 1);
    }
  const most = Math.max(...counts.values());
  return { nonBackground: 1 - most / (rect.w * rect.h), colours: counts.size };
}
function changedShare(a, b, rect) {
  let changed = 0;
  for (let y = rect.y; y < rect.y + rect.h; ++y)
    for (let x = rect.x; x < rect.x + rect.w; ++x) {
      const i = 4 * (y * a.width + x);
      if (Math.abs(a.pixels[i] - b.pixels[i]) + Math.abs(a.pixels[i + 1] - b.pixels[i + 1]) + Math.abs(a.pixels[i + 2] - b.pixels[i + 2]) > 24) ++changed;
    }
  return changed / (rect.w * rect.h);
}

async function main() {
  const { targetInfos } = await send("Target.getTargets");
  const target = targetInfos.find((t) => t.type === "page");
  const { sessionId } = await send("Target.attachToTarget", { targetId: target.targetId, flatten: true });
  const call = (method, params) => send(method, params, sessionId);
  const errors = [];
  listeners.push((m) => {
    if (m.sessionId !== sessionId) return;
    if (m.method === "Runtime.consoleAPICalled" && (m.params.type === "error" || m.params.type === "assert"))
      errors.push(`console.${m.params.type}: ${m.params.args.map((a) => a.value ?? a.description ?? "").join(" ")}`);
    if (m.method === "Runtime.exceptionThrown")
      errors.push(`uncaught: ${m.params.exceptionDetails.exception?.description ?? m.params.exceptionDetails.text}`);
    if (m.method === "Log.entryAdded" && m.params.entry.level === "error")
      errors.push(`log: ${m.params.entry.text} (${m.params.entry.url ?? ""})`);
  });
  await call("Runtime.enable");
  await call("Log.enable");
  await call("Page.enable");
  const evaluate = async (expression) => (await call("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true })).result.value;
  const url = pathToFileURL(resolve(page)).href;
  const started = performance.now();
  await call("Page.navigate", { url: `${url}#frame=0` });
  let data = null;
  while (performance.now() - started < timeoutMs - 5000) {
    data = await evaluate("document.body ? JSON.parse(JSON.stringify(document.body.dataset)) : null").catch(() => null);
    if (data && (data.moreauLoaded === "1" || data.moreauError)) break;
    await sleep(50);
  }
  const loadSeconds = (performance.now() - started) / 1000;
  check(data && data.moreauLoaded === "1", `the page did not report loading (${data && data.moreauError ? "error: " + data.moreauError : "no data-moreau-loaded"})`);
  data = data || {};
  check(Number(data.bodies) === expectBodies, `data-bodies = ${data.bodies}, the run has ${expectBodies} bodies`);
  check(Number(data.frames) === expectFrames, `data-frames = ${data.frames}, the run has ${expectFrames} records`);
  // a frame is shown once its data-frame is set and two animation frames have passed
  const show = async (hash, frame) => {
    await evaluate(`location.hash = ${JSON.stringify(hash)}; new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(document.body.dataset.frame))))`);
    const shown = await evaluate("document.body.dataset.frame");
    check(Number(shown) === frame, `${hash}: data-frame = ${shown}, expected ${frame}`);
    const { data: png } = await call("Page.captureScreenshot", { format: "png" });
    return Buffer.from(png, "base64");
  };
  const firstPng = await show("#frame=0", 0);
  const lastPng = await show("#frame=last", expectFrames - 1);
  const rectCss = await evaluate("(() => { const r = document.getElementById('view').getBoundingClientRect(); return [r.x, r.y, r.width, r.height, devicePixelRatio]; })()");
  const first = decodePng(firstPng), last = decodePng(lastPng);
  const [x, y, w, h, ratio] = rectCss;
  const rect = { x: Math.round(x * ratio), y: Math.round(y * ratio), w: Math.min(Math.round(w * ratio), first.width - Math.round(x * ratio)), h: Math.min(Math.round(h * ratio), first.height - Math.round(y * ratio)) };
  check(rect.w > 100 && rect.h > 100, `the 3D view is ${rect.w} × ${rect.h} pixels`);
  const a = contentOf(first, rect), b = contentOf(last, rect), changed = changedShare(first, last, rect);
  check(a.nonBackground > 0.01 && a.colours > 8, `the first frame's picture is blank (${(100 * a.nonBackground).toFixed(2)} % drawn, ${a.colours} colours)`);
  check(b.nonBackground > 0.01 && b.colours > 8, `the last frame's picture is blank (${(100 * b.nonBackground).toFixed(2)} % drawn, ${b.colours} colours)`);
  check(changed > 0.001, `the first and last frames look the same (${(100 * changed).toFixed(3)} % of the pixels changed)`);
  if (expectVisuals !== null)
    check(Number(data.visuals) === Number(expectVisuals), `data-visuals = ${data.visuals}, the model has ${expectVisuals} visuals`);
  if (expectJoints !== null)
    check(Number(data.joints) === Number(expectJoints), `data-joints = ${data.joints}, the model has ${expectJoints} joints`);
  check(!(Number(data.fill) < minFill), `the bodies span ${data.fill} of the view, expected at least ${minFill}`);
  if (Number(expectVisuals) > 0) {
    // the collision shapes drawn instead of the visuals give another picture
    await evaluate(`document.getElementById("shapes-on").click()`);
    const shapesPng = await show("#frame=last", expectFrames - 1);
    const swapped = changedShare(last, decodePng(shapesPng), rect);
    check(swapped > 0.001, `ticking "collision shapes" changed ${(100 * swapped).toFixed(3)} % of the pixels`);
    await evaluate(`document.getElementById("shapes-on").click()`);
    if (shots) writeFileSync(join(shots, "shapes.png"), shapesPng);
  }
  // clicking an event goes to the first frame at or after its time
  const jump = await evaluate(`(() => {
    const li = document.querySelector("#events li:last-child");
    if (!li) return null;
    const run = window.moreauViewer.run, e = run.events[Number(li.dataset.index)];
    li.click();
    const f = Number(document.body.dataset.frame);
    return { f, ok: (run.t[f] >= e.t - 1e-9 || f === run.frames - 1) && (f === 0 || run.t[f - 1] < e.t + 1e-9) };
  })()`);
  if (jump) check(jump.ok, `clicking the last event went to frame ${jump.f}, not to the event's time`);
  // play advances the frames
  await evaluate(`location.hash = "#frame=0"; new Promise((r) => setTimeout(r, 100))`);
  await evaluate(`document.getElementById("speed").value = "4"; document.getElementById("speed").dispatchEvent(new Event("change")); document.getElementById("play").click()`);
  let played = 0;
  for (let i = 0; i < 100 && played === 0; ++i) {
    await sleep(50);
    played = Number(await evaluate("document.body.dataset.frame"));
  }
  check(played > 0, "play did not advance the frame");
  await evaluate(`document.getElementById("play").click()`);
  await sleep(100);
  check(errors.length === 0, `console errors: ${errors.join(" | ")}`);
  if (shots) {
    writeFileSync(join(shots, "first.png"), firstPng);
    writeFileSync(join(shots, "last.png"), lastPng);
  }
  console.log(JSON.stringify({
    page, load_seconds: +loadSeconds.toFixed(2), page_load_ms: Number(data.loadMs), bodies: Number(data.bodies), frames: Number(data.frames),
    visuals: Number(data.visuals), joints: Number(data.joints), fill: Number(data.fill),
    first_drawn: +a.nonBackground.toFixed(4), last_drawn: +b.nonBackground.toFixed(4), changed: +changed.toFixed(4),
    console_errors: errors.length,
  }));
  for (const f of failures) console.error(`FAIL ${f}`);
  exitCode = failures.length ? 1 : 0;
}

main().then(() => finish(exitCode), (e) => { console.error(`browser: ${e.message}\n${browserLog.slice(-2000)}`); finish(2); });
