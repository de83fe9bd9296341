import { AutoCompact, type AutoCompactOptions } from './autocompact';
import { Microcompact, type MicrocompactOptions } from './microcompact';

export interface CompactionOptions {
  microcompact?: MicrocompactOptions | undefined;
  autoCompact?: AutoCompactOptions | undefined;
}

/**
 * What compaction remembers across the turns of one session (one per engine, so per agent): which
 * old tool results microcompact sends as placeholders and when the last request went out, and
 * autocompact's failures in a row (its circuit breaker).
 */
export class SessionCompaction {
  readonly microcompact: Microcompact;
  readonly auto: AutoCompact;

  constructor(options: CompactionOptions = {}) {
    this.microcompact = new Microcompact(options.microcompact);
    this.auto = new AutoCompact(options.autoCompact);
  }
}
