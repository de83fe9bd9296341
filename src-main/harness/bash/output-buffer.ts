/**
 * A command's output, kept in chunks (appending to one string and searching it would be quadratic:
 * 40 MB took 80 s that way). Beyond `limit` characters only the head and the tail are kept, with
 * the number left out in between.
 */
export class OutputBuffer {
  private readonly head: string[] = [];
  private headChars = 0;
  private tail: string[] = [];
  private tailChars = 0;
  private omitted = 0;

  constructor(private readonly limit: number) {}

  push(text: string): void {
    if (this.limit <= 0 || text === '') {
      this.omitted += text.length;
      return;
    }
    const half = Math.floor(this.limit / 2);
    if (this.omitted === 0 && this.tailChars === 0 && this.headChars + text.length <= this.limit) {
      this.head.push(text);
      this.headChars += text.length;
      return;
    }
    if (this.omitted === 0 && this.tailChars === 0) {
      // Over the limit for the first time: the head keeps its first half, the rest becomes tail.
      const all = this.head.join('') + text;
      this.head.length = 0;
      this.head.push(all.slice(0, half));
      this.headChars = half;
      this.tail = [all.slice(half)];
      this.tailChars = all.length - half;
    } else {
      this.tail.push(text);
      this.tailChars += text.length;
    }
    while (this.tailChars > half && this.tail.length > 0) {
      const first = this.tail[0] ?? '';
      const excess = this.tailChars - half;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailChars -= first.length;
        this.omitted += first.length;
      } else {
        this.tail[0] = first.slice(excess);
        this.tailChars -= excess;
        this.omitted += excess;
      }
    }
  }

  /** Characters received in all. */
  get total(): number {
    return this.headChars + this.tailChars + this.omitted;
  }

  text(): string {
    const head = this.head.join('');
    if (this.omitted === 0) return head + this.tail.join('');
    return `${head}\n… [${this.omitted} characters of output not kept] …\n${this.tail.join('')}`;
  }
}
