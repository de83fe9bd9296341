/** `npm run bench`: every benchmark, one after another; figures printed and saved under bench/results/. */
import { benchAgentsMemory } from './agents-memory.bench';
import { benchBash } from './bash.bench';
import { benchCostDashboard } from './cost-dashboard.bench';
import { benchHarness } from './harness.bench';
import { benchSearch } from './search.bench';
import { benchSessions } from './sessions.bench';
import { benchStartup } from './startup.bench';
import { benchTeamView } from './team-view.bench';
import { benchTerminal } from './terminal.bench';
import { benchUiStreaming, saveResult } from './ui-streaming.bench';

const benches: Record<string, () => Promise<{ name: string }>> = {
  'ui-streaming': benchUiStreaming,
  harness: benchHarness,
  startup: benchStartup,
  bash: benchBash,
  terminal: benchTerminal,
  'agents-memory': benchAgentsMemory,
  'team-view': benchTeamView,
  sessions: benchSessions,
  'cost-dashboard': benchCostDashboard,
  search: benchSearch,
};

const only = process.argv.slice(2);
for (const [name, run] of Object.entries(benches)) {
  if (only.length > 0 && !only.includes(name)) continue;
  console.log(`\n▶ ${name}`);
  const result = await run();
  console.log(JSON.stringify(result, null, 2));
  saveResult(result);
}
