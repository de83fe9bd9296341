/**
 * A decision that several parties race to make (a hook, the classifier, a person, a team leader):
 * the first to `claim()` wins, and only the winner may `deliver()`, once. `claim()` is synchronous and
 * must be called before any `await` in a racer's path, so two racers can never both win.
 */
export class ResolveOnce<T> {
  private claimed = false;
  private delivered = false;
  private resolveFn!: (value: T) => void;
  readonly promise: Promise<T>;

  constructor() {
    this.promise = new Promise<T>((resolve) => (this.resolveFn = resolve));
  }

  /** True for exactly one caller: the one that may deliver. */
  claim(): boolean {
    if (this.claimed) return false;
    this.claimed = true;
    return true;
  }

  deliver(value: T): void {
    if (!this.claimed) throw new Error('ResolveOnce: deliver() without a successful claim()');
    if (this.delivered) throw new Error('ResolveOnce: deliver() called twice');
    this.delivered = true;
    this.resolveFn(value);
  }

  /** claim() and deliver() in one step; false when someone else already won. */
  offer(value: T): boolean {
    if (!this.claim()) return false;
    this.deliver(value);
    return true;
  }

  get isClaimed(): boolean {
    return this.claimed;
  }
}
