/**
 * Characters that would make what a person approves look different from what runs: controls (a
 * carriage return or escape can hide text), bidirectional overrides and invisible characters
 * ("Trojan Source"). Tabs and newlines stay: commands and files use them openly.
 */
const HIDDEN =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u200B-\u200F\u2028-\u202E\u2060-\u2069\uFEFF]/g;

/** `text` with every hidden character spelled out as ⟨U+XXXX⟩. */
export function spellHidden(text: string): string {
  return text.replace(
    HIDDEN,
    (c) => `⟨U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟩`,
  );
}
