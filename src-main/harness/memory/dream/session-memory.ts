import { loadMemorySettings, type MemorySettingsInput } from '../../permissions/memory-settings';
import { memoryDirFor } from '../dir/paths';
import { MemoryRecall, type FirstTurn } from '../recall/memory-recall';
import { smallModelFrom } from '../recall/small-model';
import { onSessionStart } from './auto-dream';

/**
 * A main agent's memory upkeep, from the same settings the memory directory comes from: recall at
 * every turn (the small model picks memories) and, at the session's first turn in this process, the
 * session counted and autoDream checked with the session's own model (auto-dream.ts). Settings are
 * re-read at each turn, so `autoMemoryEnabled: false` stops both at once. `autoDream: false` (print
 * mode, whose process ends with the run) counts the session without starting a consolidation.
 */
export function sessionMemoryFor(
  o: MemorySettingsInput & { now?: () => Date; autoDream?: boolean | undefined },
): MemoryRecall {
  const settings = () => loadMemorySettings(o);
  const memoryDir = memoryDirFor({
    carapaceHome: o.locations.home,
    projectRoot: o.locations.projectRoot,
    settingsDir: settings().autoMemoryDirectory,
  });
  const now = o.now ?? (() => new Date());
  return new MemoryRecall({
    memoryDir,
    enabled: () => settings().autoMemoryEnabled,
    smallModel: smallModelFrom(o.env ?? process.env),
    now,
    onFirstTurn: (turn: FirstTurn) =>
      onSessionStart(
        {
          memoryDir,
          enabled: settings().autoMemoryEnabled,
          client: turn.models.clientFor(turn.sessionModel),
          model: turn.sessionModel,
          now,
          tasks: turn.tasks,
          ...(turn.onUsage ? { onUsage: turn.onUsage } : {}),
        },
        { resumed: turn.resumed, startDream: o.autoDream ?? true },
      ),
  });
}
