import { EditorView } from '@codemirror/view';

/**
 * The editor's look, as a CodeMirror theme (so it reaches inside the shadow root). It reads the
 * window's own CSS variables (styles.css), which inherit across the shadow boundary, with plain
 * fallbacks; focus is visible as in the rest of the window.
 */
export const editorTheme = EditorView.theme({
  '&': {
    height: '100%',
    fontSize: '13px',
    color: 'var(--text, CanvasText)',
    backgroundColor: 'var(--panel, Canvas)',
  },
  '&.cm-focused': { outline: '2px solid var(--accent, Highlight)', outlineOffset: '-2px' },
  '.cm-scroller': {
    fontFamily: 'var(--mono, ui-monospace, SFMono-Regular, Menlo, Consolas, monospace)',
    lineHeight: '1.5',
  },
  '.cm-content': { caretColor: 'var(--text, CanvasText)' },
  '.cm-gutters': {
    backgroundColor: 'var(--bg, transparent)',
    color: 'var(--muted, GrayText)',
    borderRight: '1px solid var(--border, GrayText)',
  },
  '.cm-activeLine': { backgroundColor: 'color-mix(in srgb, var(--accent, Highlight) 8%, transparent)' },
  '.cm-panels': { backgroundColor: 'var(--bg, Canvas)', color: 'var(--text, CanvasText)' },
  '.cm-panel.cm-search input, .cm-panel.cm-search button': { fontSize: '12px' },
  '.cm-panel.cm-search input:focus-visible, .cm-panel.cm-search button:focus-visible': {
    outline: '2px solid var(--accent, Highlight)',
  },
});
