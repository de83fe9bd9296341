import { z } from 'zod';
import type { PermissionMode } from '@shared/domain/permissions';
import { PermissionMode as PermissionModeSchema } from '@shared/domain/permissions';
import { readJsonFile } from '../../platform/json-file';
import type { RuleSource } from './rule';
import { settingsFiles, type SourceLocations } from './settings-sources';

/**
 * Which permission mode a session may start in, and which it may come back in.
 *
 * Modes are ordered by how much they let run without asking: plan and dontAsk only take away
 * (read-only tools; asks refused), default asks, acceptEdits lets Write/Edit run inside the project,
 * bypassPermissions lets everything run. Two rules follow:
 *
 * - A repository's own files (`.claude/settings.json`, `.claude/settings.local.json`) may choose a
 *   narrower start but never a wider one: a hostile repository would ship `bypassPermissions`, and
 *   `acceptEdits` would let the model rewrite its build scripts and tests (code the person then runs)
 *   without a question. Only the managed policy, the person's own settings or the CLI flag widen.
 * - A session's mode is session state: a reopened session (reload, restart, resume) never comes back
 *   wider than what a new session would get now. Old transcripts do carry `mode` lines with bypass.
 */

const RANK: Record<PermissionMode, number> = {
  plan: 0,
  dontAsk: 0,
  default: 1,
  acceptEdits: 2,
  bypassPermissions: 3,
};

/** True when `mode` lets nothing run without asking that `than` would not (plan and dontAsk differ). */
export function isNarrowerOrSame(mode: PermissionMode, than: PermissionMode): boolean {
  return mode === than || RANK[mode] < RANK[than];
}

/** The files a repository ships, and so controls. */
const PROJECT_SOURCES: ReadonlySet<RuleSource> = new Set<RuleSource>(['project', 'local']);

/** What one settings file says about modes. */
export interface ModeSetting {
  source: RuleSource;
  file: string;
  defaultMode?: PermissionMode | undefined;
  /** `permissions.disableBypassPermissionsMode: "disable"`. */
  disableBypass: boolean;
  /** The file exists but could not be read: for the policy, bypass is then unavailable (fail closed). */
  unreadable?: boolean;
}

export type BypassAvailability = { available: true } | { available: false; reason: string };

export interface TrustedModes {
  /** The mode a new session starts in. */
  defaultMode: PermissionMode;
  bypass: BypassAvailability;
  /** Mode settings that were ignored, in words. */
  problems: string[];
}

/**
 * The decision, from each source's mode settings in precedence order (policy, local, project, user)
 * and the command line's `--permission-mode` (which the person typed, so it wins; bypass only if
 * available — the caller refuses a disabled one).
 */
export function decideModes(
  settings: readonly ModeSetting[],
  cliMode: PermissionMode | null = null,
): TrustedModes {
  const problems: string[] = [];
  // Disabling only restricts, so any source may do it; an unreadable policy might have, so it counts.
  const disabledBy = settings.find(
    (s) => s.disableBypass || (s.source === 'policy' && s.unreadable === true),
  );
  const bypass: BypassAvailability = disabledBy
    ? {
        available: false,
        reason: disabledBy.disableBypass
          ? `bypassPermissions is disabled by ${disabledBy.file} (permissions.disableBypassPermissionsMode)`
          : `bypassPermissions is unavailable: the managed policy ${disabledBy.file} cannot be read`,
      }
    : { available: true };
  const allowed = (mode: PermissionMode) => mode !== 'bypassPermissions' || bypass.available;
  if (cliMode !== null && allowed(cliMode)) return { defaultMode: cliMode, bypass, problems };
  for (const s of settings) {
    const mode = s.defaultMode;
    if (mode === undefined) continue;
    if (PROJECT_SOURCES.has(s.source) && !isNarrowerOrSame(mode, 'default')) {
      problems.push(
        `${s.file} sets permissions.defaultMode to ${mode}; a project's own settings cannot widen the permission mode, so it is ignored`,
      );
      continue;
    }
    if (!bypass.available && mode === 'bypassPermissions') {
      problems.push(`${s.file} sets permissions.defaultMode to ${mode}, but ${bypass.reason}; it is ignored`);
      continue;
    }
    return { defaultMode: mode, bypass, problems };
  }
  return { defaultMode: 'default', bypass, problems };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads the mode keys of every settings file, highest precedence first. Wrong values are skipped
 * here (the settings loader reports them with the rest of the file's problems).
 */
export function readModeSettings(loc: SourceLocations): ModeSetting[] {
  return settingsFiles(loc).flatMap((f): ModeSetting[] => {
    if (!f.exists) return [];
    const read = readJsonFile(f.path, z.unknown());
    if (read.kind !== 'ok')
      return [{ source: f.source, file: f.path, disableBypass: false, unreadable: read.kind === 'invalid' }];
    const p = isObject(read.value) ? read.value['permissions'] : undefined;
    if (!isObject(p)) return [{ source: f.source, file: f.path, disableBypass: false }];
    const mode = PermissionModeSchema.safeParse(p['defaultMode']);
    return [
      {
        source: f.source,
        file: f.path,
        defaultMode: mode.success ? mode.data : undefined,
        disableBypass: p['disableBypassPermissionsMode'] === 'disable',
      },
    ];
  });
}

/** The modes a project's sessions may use now, from its trusted sources (and the CLI flag, in `-p`). */
export function trustedModes(loc: SourceLocations): TrustedModes {
  return decideModes(readModeSettings(loc), loc.cli?.permissionMode ?? null);
}

/**
 * The mode a reopened session comes back in: what it was saved in if that is no wider than what a new
 * session would start in now, else that start mode. So Plan and Don't ask survive a restart, and
 * Bypass or Accept edits chosen for one session do not.
 */
export function restoredMode(saved: PermissionMode, trusted: TrustedModes): PermissionMode {
  return isNarrowerOrSame(saved, trusted.defaultMode) ? saved : trusted.defaultMode;
}
