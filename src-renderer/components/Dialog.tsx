import { useEffect, useRef, type ReactNode } from 'react';

interface DialogProps {
  label: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
}

/** A modal dialog: labelled, focus moved inside, Escape closes, focus returns where it was. */
export function Dialog({ label, onClose, children, className }: DialogProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const first = ref.current?.querySelector<HTMLElement>('input, textarea, select, button');
    first?.focus();
    return () => previous?.focus();
  }, []);
  return (
    <div
      className="overlay"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-label={label}
        className={`dialog ${className ?? ''}`}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            onClose();
          }
        }}
      >
        {children}
      </div>
    </div>
  );
}
