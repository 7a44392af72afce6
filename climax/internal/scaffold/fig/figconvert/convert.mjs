// convert.mjs reads the built specs of @withfig/autocomplete and prints
// them as compact JSON, one line per program, for figconvert (main.go) to
// pack. It runs at conversion time only; climax never runs Node.
//
// Usage: node convert.mjs BUILD_DIR
//
// The first line is {"package":…,"version":…}; each further line is
// {"name":"git","spec":{…}}. Functions (generators, custom loaders) are
// dropped: only static data is kept. Keys are short to keep the data
// small; climax/internal/scaffold/fig documents them.
import { readFile, access } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

const buildDir = process.argv[2];
if (!buildDir) {
  console.error("usage: node convert.mjs BUILD_DIR");
  process.exit(2);
}
const pkg = JSON.parse(await readFile(path.join(buildDir, "..", "package.json"), "utf8"));
const index = await import(pathToFileURL(path.join(buildDir, "index.js")).href);
const versioned = new Set(index.diffVersionedCompletions || []);

// Descriptions longer than this are cut at a sentence or word: the drafts
// use at most 200 characters of a description.
const MAX_DESC = 200;
// loadSpec references are inlined this deep at most.
const MAX_LOAD_DEPTH = 4;

function desc(s) {
  if (typeof s !== "string") return undefined;
  s = s.replace(/\s+/g, " ").trim();
  if (s.length <= MAX_DESC) return s || undefined;
  const cut = s.slice(0, MAX_DESC);
  const dot = cut.search(/[.!?]\s[^.!?]*$/);
  if (dot > 40) return cut.slice(0, dot + 1);
  const sp = cut.lastIndexOf(" ");
  return (sp > 40 ? cut.slice(0, sp) : cut) + "…";
}

function names(n) {
  const list = (Array.isArray(n) ? n : [n]).filter((x) => typeof x === "string" && x !== "");
  return list.length ? list : undefined;
}

function suggestions(list) {
  if (!Array.isArray(list)) return undefined;
  const out = [];
  for (const s of list) {
    if (typeof s === "string") out.push(s);
    else if (s && typeof s === "object" && !s.hidden && !s.deprecated) {
      for (const n of names(s.name) || []) out.push(n);
    }
  }
  return out.length ? [...new Set(out)] : undefined;
}

function arg(a) {
  if (!a || typeof a !== "object") return undefined;
  const out = {};
  if (typeof a.name === "string" && a.name) out.n = a.name;
  if (a.isOptional) out.o = true;
  if (a.isVariadic) out.v = true;
  const s = suggestions(a.suggestions);
  if (s) out.s = s;
  // The spec also completes values it computes or finds (files,
  // generators): the suggestions are examples, not all the values.
  if (a.generators || a.template || a.suggestCurrentToken) out.g = true;
  return out;
}

function args(a) {
  if (a === undefined || a === null) return undefined;
  const list = (Array.isArray(a) ? a : [a]).map(arg).filter(Boolean);
  return list.length ? list : undefined;
}

function option(o) {
  if (!o || typeof o !== "object" || o.hidden || o.deprecated) return undefined;
  const n = names(o.name);
  if (!n) return undefined;
  const out = { n };
  const d = desc(o.description);
  if (d) out.d = d;
  const a = args(o.args);
  if (a) out.a = a;
  if (o.isRepeatable) out.r = true;
  if (o.isRequired) out.q = true;
  if (o.isPersistent) out.p = true;
  if (o.requiresSeparator || o.requiresEquals) out.j = true;
  return out;
}

async function exists(p) {
  try {
    await access(p);
    return true;
  } catch {
    return false;
  }
}

// load imports a spec file of the build ("git", "aws/s3"), resolving the
// versioned ones to their newest version.
async function load(name) {
  const file = path.join(buildDir, name + ".js");
  const dirIndex = path.join(buildDir, name, "index.js");
  let mod;
  if (await exists(file)) mod = await import(pathToFileURL(file).href);
  else if (await exists(dirIndex)) mod = await import(pathToFileURL(dirIndex).href);
  else return undefined;
  let spec = mod.default;
  if (typeof spec === "function") {
    // createVersionedSpec: a function of the version naming the file of
    // the spec for it; a very high version selects the newest.
    const r = await spec("99999.0.0");
    if (r && typeof r.versionedSpecPath === "string") return load(r.versionedSpecPath);
    return undefined;
  }
  return spec && typeof spec === "object" ? spec : undefined;
}

async function command(c, stack, isRoot) {
  if (!c || typeof c !== "object" || (!isRoot && (c.hidden || c.deprecated))) return undefined;
  const n = names(c.name);
  if (!n) return undefined;
  const out = { n };
  let src = c;
  if (typeof c.loadSpec === "string" && stack.length < MAX_LOAD_DEPTH && !stack.includes(c.loadSpec)) {
    const loaded = await load(c.loadSpec);
    if (loaded) {
      const inner = await command({ ...loaded, name: c.name, description: c.description || loaded.description }, [...stack, c.loadSpec], true);
      return inner;
    }
  }
  const d = desc(src.description);
  if (d) out.d = d;
  const subs = [];
  for (const s of Array.isArray(src.subcommands) ? src.subcommands : []) {
    const x = await command(s, stack, false);
    if (x) subs.push(x);
  }
  if (subs.length) out.s = subs;
  const opts = (Array.isArray(src.options) ? src.options : []).map(option).filter(Boolean);
  if (opts.length) out.o = opts;
  const a = args(src.args);
  if (a) out.a = a;
  return out;
}

// A top-level program: a plain name, or a scoped npm name ("@capgo/cli").
// Other paths ("aws/s3") are parts that loadSpec pulls in.
function isProgram(name) {
  const parts = name.split("/");
  return parts.length === 1 || (parts.length === 2 && name.startsWith("@"));
}

process.stdout.write(JSON.stringify({ package: pkg.name, version: pkg.version }) + "\n");
for (const name of index.default) {
  if (!isProgram(name)) continue;
  const spec = await load(name);
  if (!spec) {
    console.error(`figconvert: ${name}: no static spec, skipped`);
    continue;
  }
  const c = await command({ ...spec, name: spec.name || name }, [name], true);
  if (!c) continue;
  process.stdout.write(JSON.stringify({ name, spec: c }) + "\n");
}
