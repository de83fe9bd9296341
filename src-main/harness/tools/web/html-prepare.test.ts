import { describe, expect, it } from 'vitest';
import { MAX_HTML_CHARS, prepareHtml } from './html-prepare';

describe('prepareHtml', () => {
  it('drops scripts, styles, svg, the head and comments, whatever their case, and keeps the rest', () => {
    const { html, cut } = prepareHtml(
      '<HTML><Head><title>t</title></HEAD><body><p>one</p><SCRIPT type="x">a < b && "</p>"</script >' +
        '<!-- hidden --><style>p{}</style><svg><path d="M0"/></svg><p>two</p></body></HTML>',
    );
    expect(html).toBe('<HTML><body><p>one</p><p>two</p></body></HTML>');
    expect(cut).toBe(false);
  });

  it('an element never closed runs to the end of the page', () => {
    expect(prepareHtml('<p>kept</p><script>var x = 1;<p>not shown</p>').html).toBe('<p>kept</p>');
    expect(prepareHtml('<p>kept</p><!-- open comment <p>gone</p>').html).toBe('<p>kept</p>');
  });

  it('stays linear on a hostile page of many unclosed openers', () => {
    const hostile = '<p>x</p>' + '<script'.repeat(300_000);
    expect(prepareHtml(hostile).html).toBe('<p>x</p>');
    const comments = '<p>x</p>' + '<!--'.repeat(300_000);
    expect(prepareHtml(comments).html).toBe('<p>x</p>');
  });

  it('cuts a huge page on a tag boundary and says so', () => {
    const row = '<p>some text here</p>\n';
    const { html, cut } = prepareHtml(row.repeat(Math.ceil((MAX_HTML_CHARS * 2) / row.length)));
    expect(cut).toBe(true);
    expect(html.length).toBeLessThanOrEqual(MAX_HTML_CHARS);
    expect(html.endsWith('</p>\n')).toBe(true);
  });
});
