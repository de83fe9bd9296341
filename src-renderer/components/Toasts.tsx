import { useStore } from '../stores/store';

export function Toasts() {
  const toasts = useStore((s) => s.toasts);
  if (toasts.length === 0) return null;
  return (
    <div className="toasts" role="alert">
      {toasts.map((t) => (
        <div key={t.id} className="toast">
          <span>{t.text}</span>
          <button type="button" aria-label="Dismiss" onClick={() => useStore.getState().dismissToast(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
