/**
 * Text from transcripts (session titles, model ids, project paths, problem notes) printed to a
 * terminal must not drive it: an escape sequence in a title could set the clipboard (OSC 52), clear
 * the screen, retitle the window or hide the lines around it. Whole ESC and C1 sequences (CSI, OSC,
 * DCS, …) are removed; any other control character (C0, DEL, C1) and the bidirectional overrides
 * that reorder what is shown are written as a visible `\xNN` / `\u{NNNN}` instead.
 */

/** ESC or its 8-bit C1 form, then: CSI (`[` … final byte), OSC/DCS/SOS/PM/APC (… up to BEL or ST), or one byte. */
const SEQUENCE =
  // eslint-disable-next-line no-control-regex
  /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?|(?:\x1b[\]PX^_]|[\x90\x98\x9d-\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b[ -~]?/g;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function terminalSafe(text: string): string {
  return text.replace(SEQUENCE, '').replace(CONTROL, (c) => {
    const code = c.codePointAt(0) ?? 0;
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
  });
}

/**
 * JSON.stringify escapes C0 controls in strings but writes C1 controls and the bidirectional
 * overrides as they are; `\uNNNN` keeps the JSON the same value and the terminal inert.
 */
export function jsonTerminalSafe(json: string): string {
  return json.replace(
    /[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
  );
}
