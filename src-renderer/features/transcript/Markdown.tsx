import {
  memo,
  useDeferredValue,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ComponentPropsWithoutRef,
  type ReactNode,
} from 'react';
import type { Root, RootContent } from 'hast';
import ReactMarkdown, { type Components, type Options, type UrlTransform } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { splitBlocks, splitsExactly } from './markdown-blocks';
import './markdown.css';
import './highlight.css';

/**
 * Model replies as Markdown, through react-markdown (CommonMark) + remark-gfm (tables, task lists,
 * strikethrough, autolinks) + rehype-highlight (code, as `hljs-*` classes: the page's CSP allows
 * no inline styles). Raw HTML in a reply is shown as text, never parsed: react-markdown turns HTML
 * into text unless rehype-raw is added, and it must never be.
 */

/** Only these become links; anything else (javascript:, data:, relative paths) reads as plain text. */
const LINK = /^(https?:|mailto:)/i;

// react-markdown's default transform keeps relative URLs and a few other schemes; keep only ours.
const urlTransform: UrlTransform = (url) => (LINK.test(url.trim()) ? url.trim() : '');

type Props<T extends 'a' | 'img' | 'table' | 'td' | 'h1'> = ComponentPropsWithoutRef<T> & { node?: unknown };

/** Model headings sit inside a message: one to three levels below the app's own h1/h2. */
function heading(level: 1 | 2 | 3 | 4 | 5 | 6) {
  const Tag = `h${Math.min(level + 2, 6)}` as 'h3';
  return function Heading({ children, id }: Props<'h1'>) {
    return (
      <Tag className={`md-h${level}`} id={id}>
        {children}
      </Tag>
    );
  };
}

/** remark-gfm aligns table cells with a style; the CSP wants classes, so alignment becomes one. */
function cell(Tag: 'th' | 'td') {
  return function Cell({ children, style }: Props<'td'>) {
    const align = style?.textAlign;
    return <Tag className={typeof align === 'string' ? `md-align-${align}` : undefined}>{children}</Tag>;
  };
}

const components: Components = {
  // Links open outside the app: in Electron the window-open handler sends http(s) to the browser.
  a({ href, children }: Props<'a'>) {
    if (!href || !LINK.test(href)) return <>{children}</>;
    return (
      <a href={href} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    );
  },
  // Remote images would load (and track) on sight: show them as a link to open instead.
  img({ src, alt }: Props<'img'>) {
    const label = alt ? `Image: ${alt}` : 'Image';
    return typeof src === 'string' && src !== '' ? (
      <a href={src} target="_blank" rel="noopener noreferrer" className="md-image-link">
        {label}
      </a>
    ) : (
      <>{alt ?? ''}</>
    );
  },
  table({ children }: Props<'table'>) {
    return (
      <div className="md-table-wrap">
        <table>{children}</table>
      </div>
    );
  },
  th: cell('th'),
  td: cell('td'),
  h1: heading(1),
  h2: heading(2),
  h3: heading(3),
  h4: heading(4),
  h5: heading(5),
  h6: heading(6),
};

// rehype-highlight builds a highlight.js instance with all its grammars each time it is attached,
// and react-markdown attaches plugins on every render: build it once and hand the same transformer
// to every render. No language guessing: a fence without a language stays plain (guessing is slow).
const highlightTransformer = rehypeHighlight({ detect: false });

/** Whether a block holds a `pre` at all: most blocks are prose, and a full tree walk is not free. */
function hasCodeBlock(root: Root): boolean {
  const stack: (Root | RootContent)[] = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.type === 'element' && node.tagName === 'pre') return true;
    if ('children' in node) stack.push(...node.children);
  }
  return false;
}

const sharedHighlight =
  () =>
  (...[tree, file]: Parameters<typeof highlightTransformer>) => {
    if (hasCodeBlock(tree)) highlightTransformer(tree, file);
  };

/** The whole react-markdown setup; exported so a test can compare a split render with a whole one. */
export const markdownOptions = {
  remarkPlugins: [remarkGfm],
  rehypePlugins: [sharedHighlight],
  components,
  urlTransform,
} satisfies Options;

/** One top-level block; memo on its text, so while a reply streams only the last block re-renders. */
const MarkdownBlock = memo(function MarkdownBlock({ text }: { text: string }) {
  return <ReactMarkdown {...markdownOptions}>{text}</ReactMarkdown>;
});

/**
 * While a reply streams, its last block is re-parsed as it grows, and a Markdown parse has a fixed
 * cost of a few milliseconds whatever the length: ten tabs re-parsing on every batch of deltas
 * would fill every frame. So a changing text is shown at most every STREAM_MS (the latest text
 * always shows, at most that late), and the re-render runs in the background (useDeferredValue),
 * where React can pause it for a frame. A text that does not change renders at once.
 */
const STREAM_MS = 100;

function useThrottled(value: string, ms: number): string {
  const [shown, setShown] = useState(value);
  const lastShown = useRef(0);
  useEffect(() => {
    if (value === shown) return;
    const show = () => {
      lastShown.current = performance.now();
      setShown(value);
    };
    const wait = lastShown.current + ms - performance.now();
    if (wait <= 0) {
      show();
      return;
    }
    // Each newer text replaces the pending one, so the last text of a stream always shows.
    const timer = setTimeout(show, wait);
    return () => clearTimeout(timer);
  }, [value, shown, ms]);
  return shown;
}

/** Blocks side by side in one container, each parsed and memoised on its own. */
export function MarkdownBlocks({ blocks }: { blocks: readonly string[] }) {
  return (
    <div className="markdown">
      {blocks.map((block, i) => (
        <MarkdownBlock key={i} text={block} />
      ))}
    </div>
  );
}

/**
 * A reply as Markdown, split into top-level blocks so that while it streams only the growing last
 * one re-parses. A split reads exactly as one whole parse unless the reply has something a split
 * cannot see across (`splitsExactly`: reference definitions, footnotes, some HTML blocks); such a
 * reply is split only while it streams and parsed whole once it is finished or loaded. Either way a
 * finished reply reads exactly as it does loaded, and most finished replies keep their blocks: no
 * whole parse of a long reply (tens of milliseconds in one piece) when it ends.
 */
export const Markdown = memo(function Markdown({
  text,
  streaming = false,
}: {
  text: string;
  streaming?: boolean;
}): ReactNode {
  const shown = useDeferredValue(useThrottled(text, STREAM_MS));
  // The last text of a stream may still be on its way through the throttle: split until it shows.
  const split = streaming || shown !== text || splitsExactly(shown);
  const blocks = useMemo(() => (split ? splitBlocks(shown) : [shown]), [shown, split]);
  return <MarkdownBlocks blocks={blocks} />;
});
