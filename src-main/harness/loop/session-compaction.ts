import { AutoCompact, type AutoCompactOptions } from './autocompact';
import { Microcompact, type MicrocompactOptions } from './microcompact';
import type { SnipOptions } from './snip';

export interface CompactionOptions {
  microcompact?: MicrocompactOptions | undefined;
  autoCompact?: AutoCompactOptions | undefined;
  snip?: SnipOptions | undefined;
}

/**
 * What compaction remembers across the turns of one session (one per engine, so per agent): which
 * old tool results microcompact sends as placeholders and when the last request went out, and
 * autocompact's failures in a row (its circuit breaker).
 */
export class SessionCompaction {
  readonly microcompact: Microcompact;
  readonly auto: AutoCompact;
  readonly snip: SnipOptions;

  constructor(options: CompactionOptions = {}) {
    this.microcompact = new Microcompact(options.microcompact);
    this.auto = new AutoCompact(options.autoCompact);
    this.snip = options.snip ?? {};
  }
}
