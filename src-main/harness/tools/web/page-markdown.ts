import { createRequire } from 'node:module';
import type TurndownService from 'turndown';
import type { FetchedPage } from './fetch-page';
import { MAX_HTML_CHARS, prepareHtml } from './html-prepare';

/** What the small model gets of a page at most; a longer page is cut here, with a note saying so. */
export const MAX_MARKDOWN_CHARS = 100_000;

// turndown (and the DOM parser under it) loads on the first page fetched, not with every session:
// most runs never fetch a page, and loading it cost every `carapace -p` start about 35 ms.
const nodeRequire = createRequire(import.meta.url);
let turndown: TurndownService | null = null;

function converter(): TurndownService {
  if (turndown) return turndown;
  const Turndown = nodeRequire('turndown') as typeof TurndownService;
  turndown = new Turndown({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  // What a reader never sees: scripts, styles and embedded documents are not page content.
  turndown.remove(['script', 'style', 'noscript', 'iframe', 'template', 'head', 'canvas', 'object', 'embed']);
  turndown.remove((node) => node.nodeName.toLowerCase() === 'svg');
  return turndown;
}

function isHtml(page: FetchedPage): boolean {
  if (page.mediaType === 'text/html' || page.mediaType === 'application/xhtml+xml') return true;
  // A server that names no type: judged by the first characters, as a browser would sniff.
  return page.mediaType === '' && /^\s*(<!doctype html|<html[\s>])/i.test(page.text.slice(0, 1024));
}

/**
 * The page as Markdown for the small model: HTML through turndown, text, Markdown and JSON as they
 * are. Cut at MAX_MARKDOWN_CHARS; the notes say what was cut, so the answer does not pass a part for
 * the whole.
 */
export function pageMarkdown(page: FetchedPage): { markdown: string; notes: string[] } {
  const notes: string[] = [];
  if (page.truncated)
    notes.push(
      `The page is larger than ${Math.round(page.bytes / (1024 * 1024))} MB; only its beginning was read.`,
    );
  let markdown = page.text;
  if (isHtml(page)) {
    const prepared = prepareHtml(page.text);
    if (prepared.cut)
      notes.push(
        `The page's markup was cut at ${MAX_HTML_CHARS / 1024} KB before it was turned into Markdown.`,
      );
    markdown = converter().turndown(prepared.html);
  }
  if (markdown.length > MAX_MARKDOWN_CHARS) {
    notes.push(
      `The content was cut at ${MAX_MARKDOWN_CHARS.toLocaleString('en-US')} of its ${markdown.length.toLocaleString('en-US')} characters.`,
    );
    markdown = markdown.slice(0, MAX_MARKDOWN_CHARS);
  }
  return { markdown, notes };
}
