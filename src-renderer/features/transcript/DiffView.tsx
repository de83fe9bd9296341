/** One line of a diff: added, removed, context, or a hunk header (`@`) shown as is. */
export interface DiffViewLine {
  op: '+' | '-' | ' ' | '@';
  text: string;
}

/** A line diff as coloured +/- lines; used by Edit/Write tool cards and by permission prompts. */
export function DiffView({ lines, label }: { lines: readonly DiffViewLine[]; label: string }) {
  return (
    <pre className="diff" aria-label={label}>
      {lines.map((l, i) => (
        <span
          key={i}
          className={`diff-line diff-${l.op === '+' ? 'add' : l.op === '-' ? 'del' : l.op === '@' ? 'hunk' : 'ctx'}`}
        >
          {l.op === '@' ? l.text : `${l.op} ${l.text}`}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}
