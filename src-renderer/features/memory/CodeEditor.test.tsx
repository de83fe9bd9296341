import { act, cleanup, render } from '@testing-library/react';
import { EditorView } from '@codemirror/view';
import { afterEach, describe, expect, it } from 'vitest';
import { CodeEditor, minimalChange } from './CodeEditor';

afterEach(cleanup);

const apply = (text: string, c: { from: number; to: number; insert: string }) =>
  text.slice(0, c.from) + c.insert + text.slice(c.to);

describe('minimalChange', () => {
  it('replaces only the part that differs', () => {
    expect(minimalChange('name: old\nbody', 'name: new\nbody')).toEqual({ from: 6, to: 9, insert: 'new' });
    expect(minimalChange('abc', 'abXc')).toEqual({ from: 2, to: 2, insert: 'X' });
    expect(minimalChange('aaa', 'aa')).toEqual({ from: 2, to: 3, insert: '' });
  });
  it('always turns one text into the other', () => {
    const pairs: [string, string][] = [
      ['', 'x'],
      ['x', ''],
      ['abab', 'ab'],
      ['---\na\n---\n', '---\nb: 1\na\n---\n'],
      ['same', 'same'],
    ];
    for (const [a, b] of pairs) expect(apply(a, minimalChange(a, b))).toBe(b);
  });
});

/** The editor rendered with `value`, its CodeMirror view, and every text it reported through onChange. */
function mount(value: string) {
  const reported: string[] = [];
  const onChange = (text: string) => reported.push(text);
  const { container, rerender } = render(<CodeEditor value={value} onChange={onChange} label="Text" />);
  const editor = container
    .querySelector('[data-testid="memory-editor"]')
    ?.shadowRoot?.querySelector('.cm-editor');
  const view = editor instanceof HTMLElement ? EditorView.findFromDOM(editor) : null;
  if (!view) throw new Error('no editor view');
  return {
    view,
    reported,
    doc: () => view.state.doc.toString(),
    type: (at: number, text: string) =>
      act(() => view.dispatch({ changes: { from: at, insert: text }, userEvent: 'input' })),
    setValue: (next: string) =>
      act(() => rerender(<CodeEditor value={next} onChange={onChange} label="Text" />)),
  };
}

describe('CodeEditor and its value', () => {
  it('keeps a keystroke typed before the parent caught up with the one before it', () => {
    const e = mount('line');
    e.type(4, '\n');
    e.type(5, 'M');
    // The parent re-renders with the text after Enter only now, when the editor already holds the "M".
    e.setValue('line\n');
    expect(e.doc()).toBe('line\nM');
    expect(e.reported).toEqual(['line\n', 'line\nM']);
    e.setValue('line\nM');
    expect(e.doc()).toBe('line\nM');
    expect(e.reported).toEqual(['line\n', 'line\nM']);
  });

  it('shows a text from outside without reporting it back through onChange', () => {
    const e = mount('name: old');
    e.setValue('name: new');
    expect(e.doc()).toBe('name: new');
    expect(e.reported).toEqual([]);
    // Typing afterwards is reported as usual. Once the parent has caught up, a text the editor reported
    // earlier that comes from outside again (the file saved a moment ago, reloaded) is shown.
    e.type(9, '!');
    e.type(10, '?');
    expect(e.reported).toEqual(['name: new!', 'name: new!?']);
    e.setValue('name: new!?');
    e.setValue('name: new!');
    expect(e.doc()).toBe('name: new!');
    expect(e.reported).toEqual(['name: new!', 'name: new!?']);
  });
});
