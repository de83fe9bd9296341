import { Component, type ErrorInfo, type ReactNode } from 'react';

interface State {
  error: Error | null;
}

/** A render bug shows a readable message and a way back, not a white window. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Carapace UI error', error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <div role="alert" className="crash">
        <h1>Something in the window broke</h1>
        <p>{this.state.error.message}</p>
        <p>Your sessions are safe: they live in the main process and on disk.</p>
        <button type="button" onClick={() => window.location.reload()}>
          Reload the window
        </button>
      </div>
    );
  }
}
