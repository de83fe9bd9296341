import { memo, useMemo } from 'react';
import { highlightLines, languageForPath, type Token } from './code-highlight';
import { diffRows, type DiffViewLine } from './diff-rows';
import './diff.css';
import './highlight.css';

export type { DiffViewLine } from './diff-rows';

const KIND = { '+': 'add', '-': 'del', ' ': 'ctx', '@': 'hunk' } as const;

function Tokens({ tokens }: { tokens: readonly Token[] }) {
  return tokens.map((t, i) =>
    t.className ? (
      <span key={i} className={t.className}>
        {t.text}
      </span>
    ) : (
      t.text
    ),
  );
}

/**
 * A diff with line numbers (old, new) and syntax colours by the file's extension; used by Edit and
 * Write tool cards and by permission prompts. Each side (old: context and removed lines; new:
 * context and added lines) is highlighted as one piece of code, so multi-line strings and comments
 * keep their colour. Line numbers are drawn by CSS from data attributes, so copying the diff copies
 * the code, not the numbers.
 */
export const DiffView = memo(function DiffView({
  lines,
  label,
  path,
}: {
  lines: readonly DiffViewLine[];
  label: string;
  /** The file, for its language; without it the diff shows plain. */
  path?: string;
}) {
  const { rows, tokens, digits } = useMemo(() => {
    const rows = diffRows(lines);
    const language = path ? languageForPath(path) : null;
    const oldSide = rows.filter((r) => r.op === ' ' || r.op === '-');
    const newSide = rows.filter((r) => r.op === ' ' || r.op === '+');
    const oldTokens = highlightLines(
      oldSide.map((r) => r.text),
      language,
    );
    const newTokens = highlightLines(
      newSide.map((r) => r.text),
      language,
    );
    const tokens = new Map<(typeof rows)[number], Token[]>();
    // Context lines take the new side's colours; removed lines the old side's.
    oldSide.forEach((r, i) => tokens.set(r, oldTokens[i] ?? []));
    newSide.forEach((r, i) => tokens.set(r, newTokens[i] ?? []));
    const widest = Math.max(0, ...rows.map((r) => Math.max(r.oldNo ?? 0, r.newNo ?? 0)));
    return { rows, tokens, digits: Math.min(6, Math.max(2, String(widest).length)) };
  }, [lines, path]);

  return (
    <pre className={`diff diff-digits-${digits}`} aria-label={label}>
      {rows.map((r, i) =>
        r.op === '@' ? (
          <span key={i} className="diff-line diff-hunk">
            <span className="diff-code">{`${r.text}\n`}</span>
          </span>
        ) : (
          <span key={i} className={`diff-line diff-${KIND[r.op]}`}>
            <span className="diff-ln" data-n={r.oldNo ?? ''} aria-hidden="true" />
            <span className="diff-ln" data-n={r.newNo ?? ''} aria-hidden="true" />
            <span className="diff-op">{`${r.op} `}</span>
            <span className="diff-code">
              <Tokens tokens={tokens.get(r) ?? []} />
              {'\n'}
            </span>
          </span>
        ),
      )}
    </pre>
  );
});
