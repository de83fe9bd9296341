/**
 * Acknowledges drawn terminal output in batches: one message per 32 KB or 50 ms rather than one per
 * write, so flow control costs almost nothing while still keeping the main process informed.
 */
export class AckBatcher {
  private chars = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly send: (chars: number) => void,
    private readonly maxChars = 32 * 1024,
    private readonly delayMs = 50,
  ) {}

  add(chars: number): void {
    this.chars += chars;
    if (this.chars >= this.maxChars) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.delayMs);
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.chars === 0) return;
    const n = this.chars;
    this.chars = 0;
    this.send(n);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.chars = 0;
  }
}
