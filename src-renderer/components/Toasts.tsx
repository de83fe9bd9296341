import { dismissToast, useWorkspace } from '../stores/workspace-store';

export function Toasts() {
  const toasts = useWorkspace((s) => s.toasts);
  if (toasts.length === 0) return null;
  return (
    <div className="toasts" role="alert">
      {toasts.map((t) => (
        <div key={t.id} className="toast">
          <span>{t.text}</span>
          <button type="button" aria-label="Dismiss" onClick={() => dismissToast(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
