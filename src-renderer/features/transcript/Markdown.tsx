import { memo, type ReactNode } from 'react';
import { parseMarkdown, type Inline } from './markdown';

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

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <>
      {parseMarkdown(text).map((b, i) => {
        switch (b.kind) {
          case 'paragraph':
            return <p key={i}>{renderInlines(b.inlines)}</p>;
          case 'heading': {
            const H = `h${Math.min(b.level + 2, 6)}` as 'h3';
            return <H key={i}>{renderInlines(b.inlines)}</H>;
          }
          case 'code':
            return (
              <pre key={i} data-lang={b.lang || undefined}>
                <code>{b.text}</code>
              </pre>
            );
          case 'list': {
            const L = b.ordered ? 'ol' : 'ul';
            return (
              <L key={i}>
                {b.items.map((item, j) => (
                  <li key={j}>{renderInlines(item)}</li>
                ))}
              </L>
            );
          }
          case 'quote':
            return <blockquote key={i}>{renderInlines(b.inlines)}</blockquote>;
        }
      })}
    </>
  );
});
