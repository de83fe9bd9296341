import { trustKey, type TrustLookup } from '../permissions/trust';
import type { CustomCommand } from './types';

/**
 * Which of a command's `allowed-tools` pre-approve its turn. The user's own commands: all of them.
 * A project's command is the repository's word, like its settings: only the rules this person
 * already accepted for the folder (workspace trust) are granted; the rest are decided as usual and
 * named, so nobody wonders why a call still asks (or, in -p, is refused). Deny rules win either way.
 */
export function commandGrants(
  command: Pick<CustomCommand, 'allowedTools' | 'scope'>,
  projectRoot: string,
  trust: TrustLookup | undefined,
): { granted: string[]; refused: string[] } {
  if (command.scope === 'user') return { granted: [...command.allowedTools], refused: [] };
  const accepted = trust?.accepted(projectRoot) ?? new Set<string>();
  const granted = command.allowedTools.filter((r) => accepted.has(trustKey.allow(r)));
  return { granted, refused: command.allowedTools.filter((r) => !granted.includes(r)) };
}
