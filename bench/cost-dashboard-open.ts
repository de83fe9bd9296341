/**
 * One cold open of the cost dashboard in a fresh process (run by cost-dashboard.bench.ts): load the
 * ledger's cache file, stat every transcript, and answer the report for the last 30 days and for
 * all time. Prints the timings as JSON on stdout.
 */
import { performance } from 'node:perf_hooks';
import { localDay, UsageLedger } from '../src-main/harness/cost/ledger';
import { dayStart } from '../src-main/harness/cost/ledger/local-day';

const home = process.argv[2];
if (!home) throw new Error('usage: cost-dashboard-open.ts <carapace home>');
const today = localDay(Date.now());
const t0 = performance.now();
const ledger = new UsageLedger({ carapaceHome: home });
const { changedFiles } = ledger.refreshSync();
const t1 = performance.now();
const last30 = ledger.report({
  projectPaths: null,
  from: localDay(dayStart(today, -29)),
  to: today,
  sources: ['carapace'],
});
const t2 = performance.now();
const all = ledger.report({
  projectPaths: null,
  from: localDay(dayStart(today, -3650)),
  to: today,
  sources: ['carapace'],
});
const t3 = performance.now();
console.log(
  JSON.stringify({
    changedFiles,
    loadAndStatMs: t1 - t0,
    report30Ms: t2 - t1,
    reportAllMs: t3 - t2,
    totalMs: t3 - t0,
    records30: last30.total.records,
    recordsAll: all.total.records,
  }),
);
