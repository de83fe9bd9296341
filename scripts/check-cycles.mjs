#!/usr/bin/env node
// Fails when imports form a cycle, between files or between folders (ARCHITECTURE: no import cycles
// between folders). A folder is a file's directory, e.g. src-main/harness/model.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const TREES = ['src-shared', 'src-main', 'src-renderer'];
const ALIASES = { '@shared/': 'src-shared/', '@renderer/': 'src-renderer/' };
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(ts|tsx)$/.test(name) && !/\.d\.ts$/.test(name)) out.push(p);
  }
  return out;
}

function resolve(from, spec) {
  let base;
  for (const [alias, target] of Object.entries(ALIASES))
    if (spec.startsWith(alias)) base = path.join(ROOT, target, spec.slice(alias.length));
  if (!base && spec.startsWith('.')) base = path.resolve(path.dirname(from), spec);
  if (!base) return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Strongly connected components (Tarjan); those of size > 1 are cycles. */
function cycles(graph) {
  let index = 0;
  const stack = [];
  const meta = new Map();
  const found = [];
  const visit = (v) => {
    meta.set(v, { index, low: index, on: true });
    index++;
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!meta.has(w)) {
        visit(w);
        meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).low);
      } else if (meta.get(w).on) meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).index);
    }
    if (meta.get(v).low === meta.get(v).index) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        meta.get(w).on = false;
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) found.push(scc);
    }
  };
  for (const v of graph.keys()) if (!meta.has(v)) visit(v);
  return found;
}

const files = TREES.flatMap((t) => walk(path.join(ROOT, t))).filter((f) => !/\.test\.tsx?$/.test(f));
const fileGraph = new Map();
const folderGraph = new Map();
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const deps = new Set();
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3];
    const target = spec && resolve(file, spec);
    if (target) deps.add(target);
  }
  fileGraph.set(file, deps);
  const folder = path.relative(ROOT, path.dirname(file));
  const fdeps = folderGraph.get(folder) ?? new Set();
  for (const d of deps) {
    const df = path.relative(ROOT, path.dirname(d));
    if (df !== folder) fdeps.add(df);
  }
  folderGraph.set(folder, fdeps);
}

const rel = (p) => path.relative(ROOT, p);
const fileCycles = cycles(fileGraph).map((c) => c.map(rel));
const folderCycles = cycles(folderGraph);
for (const c of fileCycles) console.error(`import cycle between files: ${c.join(' ⇄ ')}`);
for (const c of folderCycles) console.error(`import cycle between folders: ${c.join(' ⇄ ')}`);
if (fileCycles.length + folderCycles.length > 0) process.exit(1);
console.log(`check-cycles: ${files.length} files, ${folderGraph.size} folders, no cycles`);
