import { useEffect, useRef, type ReactNode } from 'react';

/**
 * The frame the cost dashboard and a session's cost view share: a modal dialog that takes focus
 * when it opens and gives it back when it closes, closes on Esc, and has a header with its title,
 * the caller's controls and a Close button.
 */
export function CostDialog(props: {
  label: string;
  className: string;
  title: string;
  subtitle: string;
  closeLabel: string;
  onClose: () => void;
  /** Controls between the title and Close. */
  controls?: ReactNode;
  children: ReactNode;
}) {
  const rootRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    rootRef.current?.focus();
    return () => previous?.focus();
  }, []);
  return (
    <div className="overlay cost-overlay">
      <div
        ref={rootRef}
        tabIndex={-1}
        role="dialog"
        aria-modal="true"
        aria-label={props.label}
        className={props.className}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && !e.defaultPrevented) {
            e.stopPropagation();
            props.onClose();
          }
        }}
      >
        <header className="cost-header">
          <h2 title={`${props.title} — ${props.subtitle}`}>
            {props.title} <span className="muted">— {props.subtitle}</span>
          </h2>
          {props.controls}
          <span className="spacer" />
          <button type="button" aria-label={props.closeLabel} title="Close (Esc)" onClick={props.onClose}>
            Close
          </button>
        </header>
        <div className="cost-body">{props.children}</div>
      </div>
    </div>
  );
}
