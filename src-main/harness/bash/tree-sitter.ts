import v8 from 'node:v8';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Language, Node, Parser } from 'web-tree-sitter';

export class ParserUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ParserUnavailableError';
  }
}

const here = path.dirname(fileURLToPath(import.meta.url));
const nodeRequire = createRequire(import.meta.url);

/**
 * Where the two wasm files are: the build copies them into out/main/wasm (main modules sit in
 * out/main or out/main/chunks); in tests and development they come from node_modules.
 */
function wasmPath(file: 'web-tree-sitter.wasm' | 'tree-sitter-bash.wasm'): string {
  const override = process.env['CARAPACE_WASM_DIR'];
  const candidates = [
    ...(override ? [path.join(override, file)] : []),
    path.join(here, 'wasm', file),
    path.join(here, '..', 'wasm', file),
  ];
  for (const c of candidates) if (existsSync(c)) return c;
  try {
    return nodeRequire.resolve(
      file === 'web-tree-sitter.wasm'
        ? 'web-tree-sitter/web-tree-sitter.wasm'
        : 'tree-sitter-bash/tree-sitter-bash.wasm',
    );
  } catch (error) {
    throw new ParserUnavailableError(
      `${file} was not found (looked in ${candidates.join(', ')} and node_modules)`,
      { cause: error },
    );
  }
}

interface LoadedParser {
  parser: Parser;
  language: Language;
  Ctor: new () => Parser;
}

let loading: Promise<LoadedParser> | null = null;
let parses = 0;
/** A fresh parser now and then: long-lived tree-sitter parsers have leaked memory (Claude Code changelog). */
const PARSES_PER_PARSER = 2000;

async function load(): Promise<LoadedParser> {
  // V8 otherwise re-compiles the grammar's hot functions with its optimising tier in the background
  // after the first parses: ~760 ms of CPU, during which every child process we spawn (the first
  // Bash command, the PTY) stalls about as long — measured here on 2 cores. The baseline compiler
  // parses a command in well under a millisecond, which is all we need.
  v8.setFlagsFromString('--liftoff-only');
  // Loaded on first use only: the wasm runtime is not needed to start the app.
  const { Parser: P, Language: L } = await import('web-tree-sitter');
  await P.init({ locateFile: () => wasmPath('web-tree-sitter.wasm') });
  const language = await L.load(wasmPath('tree-sitter-bash.wasm'));
  const parser = new P();
  parser.setLanguage(language);
  return { parser, language, Ctor: P };
}

let loaded: LoadedParser | null = null;

/** Loads the parser (once); later parses are synchronous. */
export async function loadBashParser(): Promise<void> {
  if (loaded) return;
  loading ??= load().catch((error: unknown) => {
    loading = null;
    throw new ParserUnavailableError(`The bash parser could not start: ${(error as Error).message}`, {
      cause: error,
    });
  });
  loaded = await loading;
}

export function bashParserReady(): boolean {
  return loaded !== null;
}

/**
 * Parses a command line with the loaded parser; the callback gets the root node, and the tree is
 * freed afterwards. Throws ParserUnavailableError before `loadBashParser` has finished.
 */
export function withBashTreeSync<T>(source: string, use: (root: Node) => T): T {
  const state = loaded;
  if (!state) throw new ParserUnavailableError('The bash parser is not loaded yet.');
  if (++parses % PARSES_PER_PARSER === 0) {
    state.parser.delete();
    state.parser = new state.Ctor();
    state.parser.setLanguage(state.language);
  }
  const tree = state.parser.parse(source);
  if (!tree) throw new ParserUnavailableError('The bash parser returned no tree.');
  try {
    return use(tree.rootNode);
  } finally {
    tree.delete();
  }
}
