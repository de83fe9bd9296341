/**
 * Which links a window may hand to the person's own browser or mail program: the same schemes the
 * transcript renders as links (http, https, mailto). Anything else (file:, javascript:, a custom
 * protocol that would start another program) is dropped.
 */
export function opensOutside(url: string): boolean {
  return outsideUrl(url) !== null;
}

/**
 * The URL to hand to the browser or mail program, or null when the link stays in. A `mailto:` link
 * goes out as its address alone: some mail programs honour query fields such as `?attach=/path`,
 * which would let a link in a transcript attach a local file to a new mail.
 */
export function outsideUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return url;
  if (parsed.protocol !== 'mailto:') return null;
  const address = parsed.pathname;
  return address === '' ? null : `mailto:${address}`;
}
