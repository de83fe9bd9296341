import { terminalSafe } from './terminal-text';

/**
 * A plain terminal table: a header, a rule, the rows, a rule and a totals row. Text columns are
 * left-aligned, number columns right-aligned so digits line up. No colours: the output is as
 * readable piped into a file as on a terminal.
 */
export interface TableColumn {
  title: string;
  align: 'left' | 'right';
  /** Longer cells are cut with an ellipsis. */
  max?: number;
}

function fit(text: string, max: number | undefined): string {
  return max !== undefined && text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function renderTable(
  columns: readonly TableColumn[],
  rows: readonly string[][],
  total: string[] | null,
): string {
  // Cells hold transcript text (titles, model ids, paths): never let it drive the terminal.
  const cut = (r: string[]) => r.map((c, i) => fit(terminalSafe(c.replace(/\s+/g, ' ')), columns[i]?.max));
  const body = rows.map(cut);
  const foot = total ? cut(total) : null;
  const widths = columns.map((c, i) =>
    Math.max(c.title.length, ...body.map((r) => r[i]?.length ?? 0), foot?.[i]?.length ?? 0),
  );
  const line = (r: readonly string[]) =>
    columns
      .map((c, i) =>
        c.align === 'right' ? (r[i] ?? '').padStart(widths[i] ?? 0) : (r[i] ?? '').padEnd(widths[i] ?? 0),
      )
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '─'.repeat(w)).join('  ');
  const out = [line(columns.map((c) => c.title)), rule, ...body.map(line)];
  if (foot) out.push(rule, line(foot));
  return out.join('\n') + '\n';
}

const INTEGER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function count(n: number): string {
  return INTEGER.format(n);
}
