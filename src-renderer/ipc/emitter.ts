/** A minimal typed listener set; `on` returns its own disposer. */
export class Emitter<A extends unknown[]> {
  private readonly listeners = new Set<(...args: A) => void>();

  on(listener: (...args: A) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(...args: A): void {
    for (const l of this.listeners) l(...args);
  }
}
