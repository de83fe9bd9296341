import { homedir } from 'node:os';
import type { NoticeItem } from '@shared/domain/messages';
import { buildSystemPrompt, type SystemPromptOptions } from '../context/system-prompt';
import { takeGitSnapshot, type GitSnapshot } from '../context/git-status';
import type { SessionMemoryPrompt } from '../memory/memory-prompt';
import { SessionInstructions } from '../memory/instructions/session-instructions';
import { renderAttachment } from '../memory/instructions/render';
import type { InstructionRoots, LoadedFile, LoadedInstructions } from '../memory/instructions/types';
import { carapaceHome } from '../../platform/paths';
import { notice } from './engine-notes';

/**
 * What the prompt says of the session: the directory it started in (not where a `cd` left the shell),
 * its first date, a sub-agent's own prompt (`base`, which replaces the session's: no instructions,
 * no git status), and where instruction files and memory are read from.
 */
export type SessionPromptOptions = Pick<
  SystemPromptOptions,
  'cwd' | 'projectRoot' | 'platform' | 'date' | 'append' | 'base'
> & {
  instructionRoots?: Partial<Omit<InstructionRoots, 'projectDir'>> | undefined;
  memoryPrompt?: SessionMemoryPrompt | undefined;
};

/** What a turn's system prompt is built from, re-read at the turn's start. */
export interface TurnContext {
  instructions: LoadedInstructions | undefined;
  /** The auto-memory section, if memory is on. */
  memory: string | null | undefined;
  /** Instruction problems not shown before in this session. */
  notices: NoticeItem[];
}

/**
 * One agent's system prompt and what goes into it: the instruction files (CLAUDE.md and the rest,
 * re-read each turn), the auto-memory section, and the git status taken once at the start. The
 * prompt is the cached prefix, so what it says about the session (directory, date, git) never
 * changes between turns.
 */
export class SessionPrompt {
  /** CLAUDE.md and the rest; none for a sub-agent, whose own prompt replaces the session's. */
  private readonly instructions: SessionInstructions | null;
  /** Instruction notices already shown, so an unchanged problem is not repeated every turn. */
  private readonly shownNotices = new Set<string>();
  /** Branch and status for the system prompt: taken once, at the start, so the prompt never changes. */
  private readonly gitSnapshot: Promise<GitSnapshot | null>;
  private git: GitSnapshot | null = null;
  /** The system prompt the last turn sent (a /compact's summary request sends it too). */
  private last: string | null = null;

  constructor(private readonly o: SessionPromptOptions) {
    // A sub-agent's own prompt gets the environment only (as in Claude Code's Explore and Plan).
    this.gitSnapshot = o.base === undefined ? takeGitSnapshot(o.cwd) : Promise.resolve(null);
    this.instructions =
      o.base === undefined
        ? new SessionInstructions({
            projectDir: o.projectRoot,
            homeDir: o.instructionRoots?.homeDir ?? homedir(),
            carapaceHome: o.instructionRoots?.carapaceHome ?? carapaceHome(),
            managedDirs: o.instructionRoots?.managedDirs,
          })
        : null;
    const instructions = this.instructions;
    this.instructionsFor = instructions
      ? async (file) => renderAttachment(await instructions.forRead(file))
      : undefined;
  }

  /** Every instruction file and memory in the context as of the last turn, with its import. */
  loaded(): LoadedInstructions {
    return this.instructions?.snapshot() ?? { files: [], notices: [] };
  }

  /** Lists files another loader put into the context (MEMORY.md, recalled memories). */
  recordLoaded(files: readonly LoadedFile[]): void {
    this.instructions?.addLoaded(files);
  }

  /** For Read: the instructions a file brings into play, as text for its result (none for a sub-agent). */
  readonly instructionsFor: ((file: string) => Promise<string | null>) | undefined;

  /**
   * Re-reads the instruction files (the person may have edited one since the last turn) and the
   * auto-memory section (read at the session's first turn, memory-prompt.ts).
   */
  async reload(): Promise<TurnContext> {
    const instructions = this.instructions ? await this.instructions.reload() : undefined;
    const notices: NoticeItem[] = [];
    for (const text of instructions?.notices ?? []) {
      if (this.shownNotices.has(text)) continue;
      this.shownNotices.add(text);
      notices.push(notice('warning', text, 'instructions'));
    }
    return { instructions, memory: this.loadMemory(), notices };
  }

  /** The turn's system prompt, once the git status is in; kept for a later /compact. */
  async forTurn(context: TurnContext): Promise<string> {
    this.git = await this.gitSnapshot;
    this.last = this.build(context.instructions, context.memory);
    return this.last;
  }

  /** The prompt a /compact's summary request sends: the last turn's, so it reads from the cache. */
  forCompact(): string {
    return this.last ?? this.build();
  }

  private loadMemory(): string | null | undefined {
    const memory = this.o.memoryPrompt?.section();
    if (memory?.loaded) this.recordLoaded([memory.loaded]);
    return memory?.section;
  }

  private build(instructions?: LoadedInstructions, memory?: string | null): string {
    return buildSystemPrompt({
      cwd: this.o.cwd,
      projectRoot: this.o.projectRoot,
      platform: this.o.platform,
      date: this.o.date,
      append: this.o.append,
      instructions,
      memory,
      git: this.git,
      ...(this.o.base !== undefined ? { base: this.o.base } : {}),
    });
  }
}
