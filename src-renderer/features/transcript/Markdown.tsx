import { memo, type ReactNode } from 'react';
import { parseMarkdown, type Block, type Inline } from './markdown';

function renderInlines(inlines: Inline[]): ReactNode[] {
  return inlines.map((n, i) => {
    switch (n.kind) {
      case 'text':
        return n.text;
      case 'code':
        return <code key={i}>{n.text}</code>;
      case 'strong':
        return <strong key={i}>{renderInlines(n.children)}</strong>;
      case 'em':
        return <em key={i}>{renderInlines(n.children)}</em>;
      case 'link':
        return (
          <a key={i} href={n.href} target="_blank" rel="noreferrer noopener">
            {renderInlines(n.children)}
          </a>
        );
    }
  });
}

/** One block; re-rendered only when its source text changed (while streaming, only the last one does). */
const BlockView = memo(
  function BlockView({ block }: { block: Block }) {
    switch (block.kind) {
      case 'paragraph':
        return <p>{renderInlines(block.inlines)}</p>;
      case 'heading': {
        const H = `h${Math.min(block.level + 2, 6)}` as 'h3';
        return <H>{renderInlines(block.inlines)}</H>;
      }
      case 'code':
        return (
          <pre data-lang={block.lang || undefined}>
            <code>{block.text}</code>
          </pre>
        );
      case 'list': {
        const L = block.ordered ? 'ol' : 'ul';
        return (
          <L>
            {block.items.map((item, j) => (
              <li key={j}>{renderInlines(item)}</li>
            ))}
          </L>
        );
      }
      case 'quote':
        return <blockquote>{renderInlines(block.inlines)}</blockquote>;
    }
  },
  (a, b) => a.block.kind === b.block.kind && a.block.source === b.block.source,
);

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <>
      {parseMarkdown(text).map((block, i) => (
        <BlockView key={i} block={block} />
      ))}
    </>
  );
});
