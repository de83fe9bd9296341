import { randomUUID } from 'node:crypto';
// CommonJS packages whose named exports Node cannot detect: import the whole module.
import xtermSerialize from '@xterm/addon-serialize';
import xtermHeadless from '@xterm/headless';
import type { IPty } from 'node-pty';
import type { TerminalInfo } from '@shared/ipc/contract';
import { killGroup } from '../harness/bash/pty-runner';
import { AppError } from '../platform/errors';
import type { EventHub } from './event-hub';

export interface TerminalManagerOptions {
  /** The user's environment: this is their own shell, outside the agent sandbox. */
  env: NodeJS.ProcessEnv;
  shell?: string;
  /** Lines of scrollback kept in the main process (and redrawn after a reload). */
  scrollback?: number;
  /** Output drawn-but-not-acknowledged by a viewer above which the shell is paused. */
  highWater?: number;
  /** …and below which it resumes. */
  lowWater?: number;
  /** How long output gathers before it is sent (one message per interval, not per read). */
  flushMs?: number;
}

const { SerializeAddon } = xtermSerialize;
const HeadlessTerminal = xtermHeadless.Terminal;
type SerializeAddon = InstanceType<typeof SerializeAddon>;
type HeadlessTerminal = InstanceType<typeof HeadlessTerminal>;

interface Term {
  id: string;
  sessionId: string;
  pty: IPty;
  screen: HeadlessTerminal;
  serializer: SerializeAddon;
  /** Output not yet sent to viewers. */
  pending: string;
  timer: ReturnType<typeof setTimeout> | null;
  /** Characters of output so far (the offset of the end of the stream). */
  offset: number;
  /** Characters the kept screen has parsed: what a snapshot covers. */
  parsedOffset: number;
  /** Sent to viewers but not yet acknowledged as drawn. */
  unacked: number;
  /** Written into the kept screen but not yet parsed by it. */
  unparsed: number;
  viewers: number;
  paused: boolean;
  exitCode: number | null;
}

const DEFAULTS = { scrollback: 5000, highWater: 512 * 1024, lowWater: 128 * 1024, flushMs: 5 };

function defaultShell(env: NodeJS.ProcessEnv): string {
  return env['SHELL'] && env['SHELL'] !== '' ? env['SHELL'] : '/bin/bash';
}

/**
 * One terminal per session: a real shell in a PTY, in the project folder. The screen and scrollback
 * are kept here by a headless xterm, so a tab switch or a page reload redraws exactly what was there.
 * Output is batched and flow-controlled: when the viewer falls behind (`yes`, `cat` of a huge file)
 * the shell is paused until it catches up, so the window never drowns. Without a viewer, output
 * still flows into the kept screen, paused only if that falls behind.
 */
export class TerminalManager {
  private readonly terms = new Map<string, Term>();
  private readonly bySession = new Map<string, string>();
  private readonly o: Required<Omit<TerminalManagerOptions, 'shell'>> & { shell: string };

  constructor(
    private readonly hub: EventHub,
    options: TerminalManagerOptions,
  ) {
    this.o = { ...DEFAULTS, ...options, shell: options.shell ?? defaultShell(options.env) };
  }

  /** Attaches a viewer to the session's terminal, starting the shell if there is none. */
  async open(sessionId: string, cwd: string, cols: number, rows: number): Promise<TerminalInfo> {
    const existing = this.bySession.get(sessionId);
    const t = existing ? this.terms.get(existing) : await this.start(sessionId, cwd, cols, rows);
    if (!t) throw new AppError('NOT_FOUND', 'The terminal is gone.');
    if (t.exitCode === null && (t.screen.cols !== cols || t.screen.rows !== rows))
      this.resize(t.id, cols, rows);
    t.viewers++;
    await this.parsed(t);
    // Everything sent before now is either in the snapshot or beyond its offset (the viewer draws
    // only what lies beyond); the flow-control count starts afresh from the snapshot.
    this.flush(t);
    t.unacked = 0;
    this.updateFlow(t);
    return {
      terminalId: t.id,
      snapshot: t.serializer.serialize(),
      offset: t.parsedOffset,
      exitCode: t.exitCode,
    };
  }

  find(sessionId: string): string | null {
    return this.bySession.get(sessionId) ?? null;
  }

  private async start(sessionId: string, cwd: string, cols: number, rows: number): Promise<Term> {
    const pty = await import('node-pty');
    const env = { ...this.o.env, TERM: 'xterm-256color', COLORTERM: 'truecolor' };
    const proc = pty.spawn(this.o.shell, [], { name: 'xterm-256color', cwd, env, cols, rows });
    const screen = new HeadlessTerminal({
      cols,
      rows,
      scrollback: this.o.scrollback,
      allowProposedApi: true,
    });
    const serializer = new SerializeAddon();
    screen.loadAddon(serializer);
    const t: Term = {
      id: `term_${randomUUID()}`,
      sessionId,
      pty: proc,
      screen,
      serializer,
      pending: '',
      timer: null,
      offset: 0,
      parsedOffset: 0,
      unacked: 0,
      unparsed: 0,
      viewers: 0,
      paused: false,
      exitCode: null,
    };
    proc.onData((data) => this.output(t, data));
    proc.onExit(({ exitCode }) => {
      t.exitCode = exitCode;
      this.flush(t);
      this.hub.emit('terminal.exit', { terminalId: t.id, exitCode });
    });
    this.terms.set(t.id, t);
    this.bySession.set(sessionId, t.id);
    return t;
  }

  private output(t: Term, data: string): void {
    t.unparsed += data.length;
    t.screen.write(data, () => {
      t.unparsed -= data.length;
      t.parsedOffset += data.length;
      this.updateFlow(t);
    });
    t.offset += data.length;
    if (t.viewers > 0) {
      t.pending += data;
      t.timer ??= setTimeout(() => this.flush(t), this.o.flushMs);
    }
    this.updateFlow(t);
  }

  private flush(t: Term): void {
    if (t.timer) {
      clearTimeout(t.timer);
      t.timer = null;
    }
    if (t.pending === '') return;
    const data = t.pending;
    t.pending = '';
    t.unacked += data.length;
    this.hub.emit('terminal.data', { terminalId: t.id, data, offset: t.offset });
  }

  /** Pauses the shell while a viewer or the kept screen is behind; resumes once both caught up. */
  private updateFlow(t: Term): void {
    if (t.exitCode !== null) return;
    const behind = Math.max(t.viewers > 0 ? t.unacked + t.pending.length : 0, t.unparsed);
    if (!t.paused && behind > this.o.highWater) {
      t.paused = true;
      t.pty.pause();
    } else if (t.paused && behind < this.o.lowWater) {
      t.paused = false;
      t.pty.resume();
    }
  }

  /** Resolves once the kept screen has parsed everything written to it. */
  private parsed(t: Term): Promise<void> {
    return new Promise((resolve) => t.screen.write('', resolve));
  }

  private get(terminalId: string): Term {
    const t = this.terms.get(terminalId);
    if (!t) throw new AppError('NOT_FOUND', `There is no terminal ${terminalId}.`);
    return t;
  }

  input(terminalId: string, data: string): void {
    const t = this.get(terminalId);
    if (t.exitCode === null) t.pty.write(data);
  }

  resize(terminalId: string, cols: number, rows: number): void {
    const t = this.get(terminalId);
    if (t.exitCode !== null) return;
    t.pty.resize(cols, rows);
    t.screen.resize(cols, rows);
  }

  ack(terminalId: string, chars: number): void {
    const t = this.get(terminalId);
    t.unacked = Math.max(0, t.unacked - chars);
    this.updateFlow(t);
  }

  detach(terminalId: string): void {
    const t = this.terms.get(terminalId);
    if (!t) return;
    t.viewers = Math.max(0, t.viewers - 1);
    if (t.viewers === 0) {
      t.pending = '';
      t.unacked = 0;
    }
    this.updateFlow(t);
  }

  /** Ends the shell (its whole process group) and forgets the terminal. */
  close(terminalId: string): boolean {
    const t = this.terms.get(terminalId);
    if (!t) return false;
    if (t.timer) clearTimeout(t.timer);
    if (t.exitCode === null) killGroup(t.pty.pid, 'SIGHUP');
    t.screen.dispose();
    this.terms.delete(terminalId);
    this.bySession.delete(t.sessionId);
    return true;
  }

  /** Ends a session's shell, if it has one: the session was archived or deleted. */
  closeSession(sessionId: string): boolean {
    const id = this.bySession.get(sessionId);
    return id !== undefined && this.close(id);
  }

  closeAll(): void {
    for (const id of [...this.terms.keys()]) this.close(id);
  }

  /** The kept screen as text, without attaching a viewer. */
  async screenText(terminalId: string): Promise<string> {
    const t = this.get(terminalId);
    await this.parsed(t);
    const buffer = t.screen.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? '');
    return lines.join('\n');
  }

  /** For tests and the benchmark: flow-control state of a terminal. */
  state(terminalId: string): { paused: boolean; unacked: number; viewers: number; offset: number } {
    const t = this.get(terminalId);
    return { paused: t.paused, unacked: t.unacked, viewers: t.viewers, offset: t.offset };
  }
}
