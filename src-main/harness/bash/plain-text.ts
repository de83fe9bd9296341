const ANSI =
  // eslint-disable-next-line no-control-regex -- terminal escape sequences are exactly what we strip
  /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[PX^_][^\x1b]*\x1b\\|\x1b[@-Z\\-_]/g;

/** Terminal output as plain text for the model: no escape sequences, \n line ends. */
export function plainText(raw: string): string {
  return raw
    .replace(ANSI, '')
    .replace(/\r\n/g, '\n')
    .replace(/\r(?!\n)/g, '\n');
}

/** A whole escape sequence at the start of a string. */
const ANSI_AT_START = new RegExp(`^(?:${ANSI.source})`);

/** Longest an unfinished escape sequence is held back before it is let through as text. */
const MAX_CARRY = 256;

/**
 * {@link plainText} for a stream: an escape sequence or a `\r\n` split across two chunks is held
 * back until the next chunk completes it, so no `[0m` fragment leaks into what the model reads.
 */
export class PlainTextStream {
  private carry = '';

  push(chunk: string): string {
    const text = this.carry + chunk;
    let cut = text.length;
    const esc = text.lastIndexOf('\x1b');
    if (esc >= 0 && text.length - esc < MAX_CARRY) {
      // An escape near the end that is not yet a whole sequence waits for the rest.
      if (!ANSI_AT_START.test(text.slice(esc))) cut = esc;
    }
    if (cut === text.length && text.endsWith('\r')) cut = text.length - 1;
    this.carry = text.slice(cut);
    return plainText(text.slice(0, cut));
  }

  /** Whatever is held back, at the end of the stream. */
  end(): string {
    const rest = plainText(this.carry);
    this.carry = '';
    return rest;
  }
}
