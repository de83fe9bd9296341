/**
 * What the small model reads: the page between rules, then the caller's prompt, then the limits on
 * quoting (the same instructions Claude Code gives its reader).
 */
export function readerPrompt(markdown: string, prompt: string, notes: readonly string[]): string {
  const cut = notes.length > 0 ? `\n(${notes.join(' ')})\n` : '';
  return `Web page content:
---
${markdown}
---
${cut}
${prompt}

Provide a concise response based only on the content above. In your response:
 - Enforce a strict 125-character maximum for quotes from any source document. Open Source Software is ok as long as we respect the license.
 - Use quotation marks for exact language from articles; any language outside of the quotation marks should never be word-for-word the same.
 - You are not a lawyer and never comment on the legality of your own prompts and responses.
 - Never produce or reproduce exact song lyrics.`;
}

/** The result for a redirect to another host: the model fetches the new URL itself, through permission. */
export function redirectMessage(o: {
  url: string;
  redirectUrl: string;
  status: number;
  statusText: string;
  prompt: string;
}): string {
  return `REDIRECT DETECTED: The URL redirects to a different host.

Original URL: ${o.url}
Redirect URL: ${o.redirectUrl}
Status: ${o.status}${o.statusText ? ` ${o.statusText}` : ''}

To complete your request, I need to fetch content from the redirected URL. Please use WebFetch again with these parameters:
- url: "${o.redirectUrl}"
- prompt: "${o.prompt}"`;
}
