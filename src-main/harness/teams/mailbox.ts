import { z } from 'zod';
import { TeamMessage } from '@shared/domain/team';
import { JsonlLog } from './jsonl-log';

/** A mailbox on disk: messages as delivered, and which of them its owner has read. */
const MailLine = z.discriminatedUnion('type', [
  /** `seq` orders messages across all of a team's mailboxes (the timeline). */
  z.object({ type: z.literal('message'), seq: z.number().int().nonnegative(), message: TeamMessage }),
  z.object({ type: z.literal('read'), ids: z.array(z.string()).min(1), at: z.string() }),
]);
type MailLine = z.infer<typeof MailLine>;

export interface Mail {
  seq: number;
  message: TeamMessage;
}

/**
 * One member's mailbox (or the coordinator's): messages kept in the order delivered, each written
 * to disk before anyone is told of it, and marked read only when its owner takes it up, so a
 * restart brings back exactly the mail not yet acted on.
 */
export class Mailbox {
  private readonly log: JsonlLog<MailLine>;
  private readonly mail: Mail[] = [];
  private readonly readIds = new Set<string>();
  /** Lines that could not be read back, for the person. */
  readonly problems: string[];

  constructor(file: string, label: string) {
    this.log = new JsonlLog(file, MailLine, label);
    const { entries, problems } = this.log.read();
    this.problems = problems;
    const seen = new Set<string>();
    for (const line of entries) {
      if (line.type === 'read') for (const id of line.ids) this.readIds.add(id);
      else if (!seen.has(line.message.id)) {
        seen.add(line.message.id);
        this.mail.push({ seq: line.seq, message: line.message });
      }
    }
    this.mail.sort((a, b) => a.seq - b.seq);
  }

  get file(): string {
    return this.log.file;
  }

  /** Every message, oldest first. */
  all(): readonly Mail[] {
    return this.mail;
  }

  /** Messages not yet read, oldest first. */
  unread(): Mail[] {
    return this.mail.filter((m) => !this.readIds.has(m.message.id));
  }

  deliver(seq: number, message: TeamMessage): void {
    this.log.append({ type: 'message', seq, message });
    this.mail.push({ seq, message });
  }

  markRead(ids: readonly string[]): void {
    const fresh = ids.filter((id) => !this.readIds.has(id));
    if (fresh.length === 0) return;
    this.log.append({ type: 'read', ids: fresh, at: new Date().toISOString() });
    for (const id of fresh) this.readIds.add(id);
  }
}
