import { useEffect, useLayoutEffect, useRef } from 'react';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { markdown } from '@codemirror/lang-markdown';
import { yamlFrontmatter } from '@codemirror/lang-yaml';
import { defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search';
import { Annotation, EditorState, type Extension } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  keymap,
  lineNumbers,
  placeholder as placeholderText,
} from '@codemirror/view';
import { editorTheme } from './editor-theme';

/**
 * Marks a change pushed into the editor from outside (the `value` prop). It is never reported through
 * `onChange`: the parent already has that text, and echoing it back could overwrite a newer draft.
 */
const fromOutside = Annotation.define<boolean>();

/** How many reported texts are remembered while the parent has not caught up (it is usually one). */
const MAX_UNACKNOWLEDGED = 50;

/**
 * CodeMirror 6 for a memory or instruction file: Markdown with its YAML frontmatter highlighted,
 * undo history, search (Ctrl+F) and line numbers.
 *
 * The editor lives in a shadow root. CodeMirror injects its styles through style-mod, which uses a
 * `<style>` element for a document (blocked by the page's `style-src 'self'` policy) but a constructed,
 * adopted stylesheet for a shadow root (which the policy does not govern). So the editor is fully
 * styled without loosening the policy or a nonce. Colours come in through CSS variables, which do
 * cross the shadow boundary.
 */
export interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  readOnly?: boolean;
  label: string;
}

function extensions(
  props: { readOnly: boolean; label: string },
  onDoc: (text: string, typed: boolean) => void,
): Extension[] {
  return [
    lineNumbers(),
    history(),
    drawSelection(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    search({ top: true }),
    // Markdown, with the leading --- block parsed as YAML.
    yamlFrontmatter({ content: markdown() }),
    syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
    EditorView.lineWrapping,
    keymap.of([...defaultKeymap, ...historyKeymap, ...searchKeymap, indentWithTab]),
    EditorState.readOnly.of(props.readOnly),
    EditorView.editable.of(!props.readOnly),
    EditorView.contentAttributes.of({ 'aria-label': props.label, 'aria-multiline': 'true' }),
    placeholderText('Empty file'),
    editorTheme,
    EditorView.updateListener.of((u) => {
      if (!u.docChanged) return;
      const typed = u.transactions.some((t) => t.docChanged && !t.annotation(fromOutside));
      onDoc(u.state.doc.toString(), typed);
    }),
  ];
}

export function CodeEditor({ value, onChange, readOnly = false, label }: CodeEditorProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  // The latest callback without rebuilding the editor (which would lose its undo history).
  const onChangeRef = useRef(onChange);
  useLayoutEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);
  // The editor's text, kept for when the editor is rebuilt (read-only or label changed).
  const textRef = useRef(value);
  // The texts the editor reported that the parent has not yet passed back as `value`, oldest first.
  // The parent can be a keystroke or more behind: a `value` found here came from the editor itself and
  // is not pushed back in (that would roll the editor back and lose what was typed since).
  const reportedRef = useRef<string[]>([]);

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
    const parent = document.createElement('div');
    parent.className = 'memory-editor-root';
    shadow.replaceChildren(parent);
    const view = new EditorView({
      root: shadow,
      parent,
      state: EditorState.create({
        doc: textRef.current,
        extensions: extensions({ readOnly, label }, (text, typed) => {
          textRef.current = text;
          if (!typed) return;
          const reported = reportedRef.current;
          reported.push(text);
          if (reported.length > MAX_UNACKNOWLEDGED) reported.shift();
          onChangeRef.current(text);
        }),
      }),
    });
    viewRef.current = view;
    return () => {
      view.destroy();
      viewRef.current = null;
    };
  }, [readOnly, label]);

  // A new text from outside (a form field, a reload from disk) is one undoable change, of only the
  // part that differs, so the cursor and selection elsewhere stay where they were.
  useEffect(() => {
    const reported = reportedRef.current;
    const echoed = reported.lastIndexOf(value);
    if (echoed >= 0) {
      // The editor's own text coming back (perhaps an older one): the parent has caught up to here.
      reported.splice(0, echoed + 1);
      return;
    }
    reported.length = 0;
    const view = viewRef.current;
    if (!view) {
      textRef.current = value;
      return;
    }
    const current = view.state.doc.toString();
    if (current === value) return;
    view.dispatch({ changes: minimalChange(current, value), annotations: fromOutside.of(true) });
  }, [value]);

  return <div ref={hostRef} className="memory-editor" data-testid="memory-editor" />;
}

/** The one replacement that turns `from` into `to`: the span between their common start and end. */
export function minimalChange(from: string, to: string): { from: number; to: number; insert: string } {
  let start = 0;
  const max = Math.min(from.length, to.length);
  while (start < max && from.charCodeAt(start) === to.charCodeAt(start)) start++;
  let end = 0;
  while (end < max - start && from.charCodeAt(from.length - 1 - end) === to.charCodeAt(to.length - 1 - end))
    end++;
  return { from: start, to: from.length - end, insert: to.slice(start, to.length - end) };
}
