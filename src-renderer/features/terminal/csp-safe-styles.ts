/**
 * xterm's DOM renderer puts its cell sizes, font, colours and cursor into `<style>` elements. The
 * page's policy (`style-src 'self'`, no 'unsafe-inline') blocks them, so without a GPU the terminal
 * drew in a proportional font with no cursor. Rather than loosen the policy (a nonce or
 * 'unsafe-inline' for styles), the same CSS goes where CSP does not look: constructed stylesheets in
 * `document.adoptedStyleSheets`. Injected markup cannot make one, only our own scripts can, which
 * `script-src 'self'` already limits; so the header stays exactly as strict as it was.
 *
 * xterm makes these elements through a document it is given (`documentOverride`), except its scroll
 * bar's style, which it makes on the page's document while `open()` runs: hence both `document` and
 * `during`.
 *
 * Not covered: a truecolour cell's colour, which xterm's row factory sets with
 * `setAttribute('style', …)` on the page's own document; the policy blocks that one, and the cell
 * shows in the default colour.
 */
export interface CspSafeStyles {
  /** A stand-in for the page's document to pass as xterm's `documentOverride`. */
  readonly document: Document;
  /** Runs `fn` (xterm's `open`) with the page's document making style elements the same way. */
  during<T>(fn: () => T): T;
  /** Drops every stylesheet still adopted (after the terminal is disposed). */
  dispose(): void;
}

// The prototype's own methods, taken before `during` shadows `createElement` on the document.
const realCreateElement = (
  Object.getOwnPropertyDescriptor(Document.prototype, 'createElement') as PropertyDescriptor
).value as (this: Document, tag: string, options?: ElementCreationOptions) => HTMLElement;

export function cspSafeStyles(doc: Document): CspSafeStyles {
  const sheets = new Set<CSSStyleSheet>();
  const adopt = (sheet: CSSStyleSheet) => {
    sheets.add(sheet);
    doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
  };
  const drop = (sheet: CSSStyleSheet) => {
    if (!sheets.delete(sheet)) return;
    doc.adoptedStyleSheets = doc.adoptedStyleSheets.filter((s) => s !== sheet);
  };

  /**
   * What xterm gets for a `<style>`: an empty, hidden element (so nothing inline reaches the page)
   * whose `textContent` feeds an adopted stylesheet, and whose removal drops it.
   */
  const sheetHolder = (): HTMLElement => {
    const el = realCreateElement.call(doc, 'xterm-adopted-style');
    el.hidden = true;
    const sheet = new CSSStyleSheet();
    let text = '';
    Object.defineProperty(el, 'textContent', {
      configurable: true,
      get: () => text,
      set: (value: unknown) => {
        text = typeof value === 'string' ? value : '';
        sheet.replaceSync(text);
      },
    });
    const remove = el.remove.bind(el);
    el.remove = () => {
      drop(sheet);
      remove();
    };
    adopt(sheet);
    return el;
  };

  const createElement = (tag: string, options?: ElementCreationOptions): HTMLElement => {
    if (tag.toLowerCase() === 'style') return sheetHolder();
    return realCreateElement.call(doc, tag, options);
  };

  // xterm accepts the override only if it is a Document: a proxy of the real one is, and its methods
  // run on the real one (a DOM method called on the proxy itself throws "Illegal invocation").
  const standIn = new Proxy(doc, {
    get(target, prop) {
      if (prop === 'createElement') return createElement;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });

  return {
    document: standIn,
    during(fn) {
      Object.defineProperty(doc, 'createElement', {
        configurable: true,
        writable: true,
        value: createElement,
      });
      try {
        return fn();
      } finally {
        delete (doc as { createElement?: unknown }).createElement;
      }
    },
    dispose() {
      for (const sheet of [...sheets]) drop(sheet);
    },
  };
}
