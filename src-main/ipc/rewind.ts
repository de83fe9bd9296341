import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { MessageItem } from '@shared/domain/messages';
import { executeRewind } from '../harness/rewind/execute';
import { planRewind } from '../harness/rewind/plan';
import { linesAfterCuts } from '../harness/session/cut-lines';
import { createTranscript, readTranscript, type TranscriptLine } from '../harness/session/transcript-file';
import { AppError } from '../platform/errors';
import type { HandlerMap } from './router';
import type { Services } from './services';

type RewindChannels = Extract<keyof HandlerMap, `rewind.${string}`>;

/** The text of a message of the person's, for the composer after a rewind or fork. */
function textOf(item: MessageItem): string {
  return item.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
}

/** "Rewind to here" and "Fork from here" (harness/rewind/). */
export function rewindHandlers(s: Services): Pick<HandlerMap, RewindChannels> {
  const target = (sessionId: string) => {
    const r = s.sessions.rewindable(sessionId);
    const ctx = {
      projectRoot: r.projectRoot,
      sessionDir: r.session.sessionDir,
      carapaceHome: r.carapaceHome,
    };
    return { ...r, ctx, lines: () => readTranscript(r.session.file).lines };
  };
  return {
    'rewind.plan': ({ sessionId, messageId }) => {
      const t = target(sessionId);
      return planRewind(t.lines(), messageId, t.ctx);
    },
    'rewind.run': ({ sessionId, messageId, confirmed, seen }) => {
      const t = target(sessionId);
      if (!t.idle) throw new AppError('CONFLICT', 'This session is still working; stop it before rewinding.');
      // Planned again here, from the file and the disk as they are now: never from what the window sent.
      const plan = planRewind(t.lines(), messageId, t.ctx);
      const message = t.session.engine.items.find((i) => i.id === messageId);
      const draft = message?.kind === 'message' ? textOf(message) : '';
      const result = executeRewind(plan, {
        ...t.ctx,
        confirmed,
        seen,
        cut: (line) => t.session.engine.cut(line),
      });
      const session = s.sessions.rewound(sessionId);
      return {
        restored: result.restored,
        deleted: result.deleted,
        skipped: result.skipped,
        session,
        transcript: t.session.transcript(),
        draft,
      };
    },
    'rewind.fork': ({ sessionId, messageId }) => {
      const t = target(sessionId);
      const lines = linesAfterCuts(t.lines());
      const at = lines.findIndex((l) => l.type === 'item' && l.item.id === messageId);
      const line = lines[at];
      if (!line || line.type !== 'item' || line.item.kind !== 'message' || line.item.origin !== 'user')
        throw new AppError('NOT_FOUND', 'There is no message of yours with that id in this session.');
      const head = lines.find((l) => l.type === 'session');
      if (head?.type !== 'session' || head.agent)
        throw new AppError('CORRUPT_DATA', 'This session has no readable header to fork from.');
      const id = randomUUID();
      const at0 = new Date().toISOString();
      // Finished messages before the one picked, under new ids (a message id names one item of one
      // session); the model and mode the session had. Its cost stays the original's.
      const items: TranscriptLine[] = lines
        .slice(0, at)
        .flatMap((l) =>
          l.type === 'item' && l.item.kind === 'message' && l.item.status !== 'streaming'
            ? [{ type: 'item' as const, item: { ...l.item, id: randomUUID() } }]
            : [],
        );
      const model = [...lines].reverse().find((l) => l.type === 'model');
      const mode = [...lines].reverse().find((l) => l.type === 'mode');
      const file = path.join(path.dirname(t.session.file), `${id}.jsonl`);
      createTranscript(file, [
        {
          type: 'session',
          version: 1,
          sessionId: id,
          projectPath: head.projectPath,
          createdAt: at0,
          model: model?.type === 'model' ? model.model : head.model,
          ...(head.coordinator ? { coordinator: true as const } : {}),
        },
        ...(mode?.type === 'mode' ? [{ ...mode, at: at0 }] : []),
        { type: 'title', title: `Fork of ${t.session.title}`.slice(0, 200), at: at0 },
        ...items,
      ]);
      const session = s.sessions.adopt(t.session.projectId, id, file);
      return { session, draft: textOf(line.item) };
    },
  };
}
