import type { CostReport } from '@shared/domain/cost-report';
import { toCsv } from './csv';
import { type ExportTableName, tableCells } from './table-rows';

export { usdOfMicros } from './money';
export { csvCell, toCsv } from './csv';
export type { ExportTableName } from './table-rows';

export type ExportFormat = 'csv' | 'json';

export interface ExportFile {
  /** `carapace-sessions-2026-11-01_2026-11-30.csv` */
  fileName: string;
  mimeType: string;
  text: string;
}

/** Every figure is an estimate from list prices; the JSON says so and which price table it used. */
const NOTE =
  'Estimated from list prices; cost_usd is empty where every response was of a model the price table does not know.';

/**
 * One dashboard table as a file: CSV (a header row, money in USD to the micro-dollar) or JSON (the
 * same rows as objects keyed by the CSV headers, with what the report covered).
 */
export function exportTable(report: CostReport, table: ExportTableName, format: ExportFormat): ExportFile {
  const { header, rows } = tableCells(report, table);
  const fileName = `carapace-${table}-${report.query.from}_${report.query.to}.${format}`;
  if (format === 'csv') return { fileName, mimeType: 'text/csv;charset=utf-8', text: toCsv(header, rows) };
  const body = {
    table,
    from: report.query.from,
    to: report.query.to,
    scope: report.query.scope,
    sources: report.query.sources,
    priceTable: report.priceTable,
    builtAt: report.builtAt,
    note: NOTE,
    // Money as JSON numbers: a micro-dollar amount prints exactly as a double (1.234567).
    rows: rows.map((r) =>
      Object.fromEntries(
        header.map((h, i) => [
          h,
          h.endsWith('_usd') && typeof r[i] === 'string' ? Number(r[i]) : (r[i] ?? null),
        ]),
      ),
    ),
  };
  return { fileName, mimeType: 'application/json', text: JSON.stringify(body, null, 2) + '\n' };
}
