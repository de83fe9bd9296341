import type { RecalledMemory } from './select';

/**
 * The recalled memories as the text the model reads with the user's message. It goes in a user-role
 * message, not the system prompt: the system prompt stays byte-identical from turn to turn, so the
 * prompt cache keeps holding. Each memory carries its age, and past one day the reminder that it is a
 * point-in-time observation.
 */
export function recallAttachmentText(memories: readonly RecalledMemory[]): string {
  const blocks = memories.map((m) =>
    [
      `<memory file="${m.file}" saved="${m.age}">`,
      ...(m.warning ? [m.warning] : []),
      m.content.trimEnd(),
      '</memory>',
    ].join('\n'),
  );
  return [
    '<system-reminder>',
    'Memories recalled from earlier sessions that may help with this message (files in the memory directory; age is when each was last saved):',
    ...blocks,
    '</system-reminder>',
  ].join('\n');
}
