import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { importBounds } from './import-guard';
import { discoverInstructions, loadProjectFolder, ruleMatches } from './index';
import { readWithImports, type ReadState } from './read-with-imports';
import type { ConditionalRule } from './rules-dir';
import type { InstructionRoots, LoadedFile, LoadedInstructions } from './types';

/**
 * One session's instruction files. The broad set is re-read before each turn (the person may have
 * edited a file); files brought in by reading a file in a subfolder, or by a `paths` rule matching it,
 * are attached to that Read's result once and stay listed for the rest of the session.
 */
export class SessionInstructions {
  private base: LoadedInstructions = { files: [], notices: [] };
  private baseLoaded = new Set<string>();
  private conditional: ConditionalRule[] = [];
  /** Conditional rules found in subfolders' `.claude/rules` when a file there was read. */
  private readonly nestedConditional: ConditionalRule[] = [];
  /** Real paths of files attached to Read results. */
  private readonly nestedLoaded = new Set<string>();
  private readonly nested: LoadedFile[] = [];
  private readonly nestedNotices: string[] = [];
  /** Files other loaders put into the context (MEMORY.md, recalled memories). */
  private readonly extra: LoadedFile[] = [];
  /** Reads run in parallel; attaching is serialised so each file is attached once. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly roots: InstructionRoots) {}

  /** Re-reads the broad set (managed, user, project ancestors, local, rules); returns the files. */
  async reload(): Promise<LoadedInstructions> {
    const found = await discoverInstructions(this.roots);
    this.base = { files: found.files, notices: found.notices };
    this.conditional = found.conditionalRules;
    this.baseLoaded = new Set(found.loadedRealPaths);
    return this.base;
  }

  /**
   * Adds files loaded elsewhere (MEMORY.md, recalled memories) to what the session lists. A file
   * listed already is updated in place, so a memory recalled every turn is listed once.
   */
  addLoaded(files: readonly LoadedFile[]): void {
    for (const file of files) {
      const at = this.extra.findIndex((f) => f.path === file.path);
      if (at === -1) this.extra.push(file);
      else this.extra[at] = file;
    }
  }

  /** Everything in this session's context, in precedence order, with every notice. */
  snapshot(): LoadedInstructions {
    return {
      files: [...this.base.files, ...this.extra, ...this.nested],
      notices: [...this.base.notices, ...this.nestedNotices],
    };
  }

  /**
   * What reading `file` (absolute) brings into play: the CLAUDE.md files (and rules, local files) of
   * the folders between the project and the file that are not loaded yet, then `paths` rules that
   * match it. Each file is returned once per session; an empty list most of the time.
   */
  forRead(file: string): Promise<LoadedFile[]> {
    const next = this.queue.then(() => this.attach(path.resolve(file)));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async attach(file: string): Promise<LoadedFile[]> {
    // Loaded already: the broad set and whatever was attached before, so nothing comes twice.
    const state: ReadState = {
      homeDir: this.roots.homeDir,
      loaded: new Set([...this.baseLoaded, ...this.nestedLoaded]),
      notices: [],
      bounds: await importBounds(this.roots.homeDir, this.roots.projectDir),
    };
    // The file being read is in the model's hands already: reading a CLAUDE.md does not attach it again.
    try {
      state.loaded.add(await realpath(file));
    } catch {
      // Unreadable: Read reports that itself.
    }
    const found: LoadedFile[] = [];
    const rel = path.relative(this.roots.projectDir, path.dirname(file));
    if (rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel)) {
      let dir = this.roots.projectDir;
      for (const part of rel.split(path.sep)) {
        dir = path.join(dir, part);
        const folder = await loadProjectFolder(dir, state);
        found.push(...folder.files);
        for (const rule of folder.conditional)
          if (!this.nestedConditional.some((c) => c.file === rule.file)) this.nestedConditional.push(rule);
      }
    }
    for (const rule of [...this.conditional, ...this.nestedConditional]) {
      if (ruleMatches(rule, file))
        found.push(...(await readWithImports(rule.file, { scope: rule.scope, isRule: true }, state)));
    }
    for (const real of state.loaded) if (!this.baseLoaded.has(real)) this.nestedLoaded.add(real);
    this.nested.push(...found);
    this.nestedNotices.push(...state.notices);
    return found;
  }
}
