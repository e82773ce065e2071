// Builds the page template of `moreau view`: src/main.js (three.js from npm and the viewer's code)
// bundled by esbuild into one script, inlined into src/page.html. The result still holds the
// placeholder __MOREAU_RUN_JSON__ that `moreau view` replaces by the run (io/viewer_page.hpp).
//   node build.mjs --node-modules DIR --out FILE
// DIR: the node_modules folder that `npm ci` filled (CMake: <build>/viewer/node_modules).
import { readFileSync, writeFileSync, renameSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const modules = resolve(option("--node-modules", join(here, "node_modules")));
const out = resolve(option("--out", join(here, "viewer.html")));

const require = createRequire(join(modules, "noop.js"));
const esbuild = require("esbuild");
const result = await esbuild.build({
  entryPoints: [join(here, "src", "main.js")],
  bundle: true,
  format: "iife",
  minify: true,
  write: false,
  target: "es2020",
  nodePaths: [modules],
  legalComments: "eof",
  logLevel: "warning",
});
const bundle = result.outputFiles[0].text;
if (/<\/script/i.test(bundle)) throw new Error("the bundle holds </script: it cannot be inlined");
if (bundle.includes("__MOREAU_RUN_JSON__")) throw new Error("the bundle holds the run placeholder");
const page = readFileSync(join(here, "src", "page.html"), "utf8");
const marker = "/*MOREAU_VIEWER_BUNDLE*/";
if (!page.includes(marker) || page.split("__MOREAU_RUN_JSON__").length !== 2)
  throw new Error("src/page.html must hold the bundle marker and one run placeholder");
const html = page.replace(marker, () => bundle);
const tmp = `${out}.tmp-${process.pid}`;
writeFileSync(tmp, html);
renameSync(tmp, out);
console.log(`viewer: wrote ${out} (${(html.length / 1024).toFixed(0)} kB)`);
