import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { memoryDirFor } from '../../src-main/harness/memory/dir/paths';
import { expect, newSessionTab, send, test } from '../fixtures/test';
import { docsScreenshot } from '../fixtures/screenshots';

test.use({
  scenario: {
    steps: [
      {
        times: true,
        reply: {
          content: [{ type: 'text', text: 'Noted.' }],
          usage: { input_tokens: 12, output_tokens: 2 },
        },
      },
    ],
  },
});

/**
 * The memory browser against the real served app: its files on disk are the auto-memory folder the
 * harness uses (`memoryDirFor`), written and changed behind the browser's back with plain fs calls.
 */
test('memory browser: create, validate, save, live reload, conflict, trash and restore', async ({
  app,
  serve,
  project,
}) => {
  const csp: string[] = [];
  app.on('console', (m) => {
    if (/content security policy/i.test(m.text())) csp.push(m.text());
  });
  await app.setViewportSize({ width: 900, height: 600 });

  await app.getByRole('button', { name: 'Memory', exact: true }).click();
  const browser = app.getByRole('dialog', { name: 'Memory' });
  await expect(browser).toBeVisible();
  // The filter takes the cursor; Ctrl+P brings it back from anywhere in the browser.
  await expect(browser.getByRole('searchbox', { name: 'Filter files' })).toBeFocused();

  // A feedback memory from its template.
  await browser.getByRole('button', { name: 'New file in Auto-memory' }).click();
  await browser.getByLabel('Type').selectOption('feedback');
  await browser.getByLabel('File name').fill('tabs in go');
  await browser.getByRole('button', { name: 'Create' }).click();
  await expect(browser.getByRole('heading', { name: 'tabs-in-go.md' })).toBeVisible();
  const file = path.join(memoryDirFor({ carapaceHome: serve.home, projectRoot: project }), 'tabs-in-go.md');
  await expect.poll(() => existsSync(file)).toBe(true);

  // CodeMirror is styled although the page forbids inline <style>: its rules are adopted stylesheets.
  const editor = browser.locator('.cm-editor');
  await expect(editor).toBeVisible();
  expect(await editor.evaluate((el) => getComputedStyle(el).display)).toBe('flex');

  // Without **Why:** the form says so beside the field, and Ctrl+S does not save.
  const form = browser.getByRole('group', { name: 'Frontmatter' });
  await form.getByLabel('Description').fill('Go files use tabs');
  await form.getByLabel('Why', { exact: true }).fill('');
  await expect(form.getByRole('alert').filter({ hasText: 'needs a **Why:** line' })).toBeVisible();
  await expect(form.getByLabel('Why', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await app.keyboard.press('Control+s');
  await expect(browser.getByText('Not saved: fix the fields marked in red first.')).toBeVisible();
  expect(readFileSync(file, 'utf8')).not.toContain('Go files use tabs');

  // Fixed, Ctrl+S: the file on disk has the frontmatter and the Why line.
  await form.getByLabel('Why', { exact: true }).fill('gofmt formats with tabs');
  await expect(form.getByRole('alert')).toHaveCount(0);
  await app.keyboard.press('Control+s');
  await expect(browser.getByText('— unsaved')).toHaveCount(0);
  const saved = readFileSync(file, 'utf8');
  expect(saved).toMatch(/^---\n/);
  expect(saved).toContain('type: feedback');
  expect(saved).toContain('description: Go files use tabs');
  expect(saved).toContain('**Why:** gofmt formats with tabs');

  await app.screenshot({ path: docsScreenshot(test.info(), 'memory-900x600.png') });

  // Changed on disk with nothing unsaved: the browser shows the new text.
  writeFileSync(file, saved.replace('description: Go files use tabs', 'description: Tabs, always'));
  await expect(form.getByLabel('Description')).toHaveValue('Tabs, always');

  // Changed on disk during an unsaved edit: both versions, nothing overwritten.
  await browser.locator('.cm-content').click();
  await app.keyboard.press('Control+End');
  await app.keyboard.type('\nMy unsaved line.');
  await expect(browser.getByText('— unsaved')).toBeVisible();
  const theirs = readFileSync(file, 'utf8').replace('Tabs, always', 'Changed elsewhere');
  writeFileSync(file, theirs);
  const conflict = browser.getByRole('region', { name: 'Changed on disk' });
  await expect(conflict).toBeVisible();
  await expect(conflict.getByRole('figure', { name: 'Your version' })).toContainText('My unsaved line.');
  await expect(conflict.getByRole('figure', { name: 'Version on disk' })).toContainText('Changed elsewhere');
  await app.screenshot({ path: docsScreenshot(test.info(), 'memory-conflict-900x600.png') });
  expect(readFileSync(file, 'utf8')).toBe(theirs);
  await conflict.getByRole('button', { name: 'Keep mine' }).click();
  await expect(conflict).toHaveCount(0);
  await expect.poll(() => readFileSync(file, 'utf8')).toContain('My unsaved line.');

  // Delete (confirmed) goes to the trash; the Trash view brings it back.
  await browser.getByRole('button', { name: 'Delete', exact: true }).click();
  await browser
    .getByRole('alertdialog', { name: 'Confirm delete' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect.poll(() => existsSync(file)).toBe(false);
  await browser.getByRole('button', { name: 'Trash' }).click();
  await browser.getByRole('button', { name: 'Restore tabs-in-go.md' }).click();
  await expect.poll(() => existsSync(file)).toBe(true);
  expect(readFileSync(file, 'utf8')).toContain('My unsaved line.');
  await expect(
    browser.getByRole('navigation', { name: 'Memory files' }).getByText('tabs-in-go.md'),
  ).toBeVisible();

  // Ctrl+P goes back to the filter, which narrows the tree.
  await browser.getByRole('navigation', { name: 'Memory files' }).getByText('tabs-in-go.md').click();
  await browser.locator('.cm-content').click();
  await app.keyboard.press('Control+p');
  await expect(browser.getByRole('searchbox', { name: 'Filter files' })).toBeFocused();
  await app.keyboard.type('tabs');
  await expect(browser.getByRole('navigation', { name: 'Memory files' }).getByRole('button')).toHaveCount(2);

  expect(csp).toEqual([]);
});

test('memory browser: "Loaded in this session" lists the instruction files with the import chain; the MEMORY.md gauge', async ({
  app,
  project,
  serve,
}) => {
  const memoryDir = memoryDirFor({ carapaceHome: serve.home, projectRoot: project });
  mkdirSync(memoryDir, { recursive: true });
  writeFileSync(
    path.join(memoryDir, 'MEMORY.md'),
    Array.from({ length: 300 }, (_, i) => `- note ${i}`).join('\n') + '\n',
  );
  writeFileSync(
    path.join(memoryDir, 'a-note.md'),
    '---\nname: a\ndescription: a note\ntype: user\n---\nA.\n',
  );
  writeFileSync(path.join(project, 'CLAUDE.md'), '# Project rules\n\nSee @docs/notes.md for the details.\n');
  mkdirSync(path.join(project, 'docs'));
  writeFileSync(path.join(project, 'docs', 'notes.md'), 'Deploys go through staging first.\n');
  await newSessionTab(app);
  await send(app, 'hello');
  await expect(app.getByRole('tabpanel').getByText('Noted.')).toBeVisible();

  await app.keyboard.press('Control+Shift+M');
  const browser = app.getByRole('dialog', { name: 'Memory' });
  await expect(browser).toBeVisible();
  await browser.getByRole('button', { name: 'Loaded in this session' }).click();
  const loaded = browser.getByRole('region', { name: 'Loaded in this session' });
  const items = loaded.getByRole('listitem');
  await expect(items.filter({ hasText: path.join(project, 'CLAUDE.md') })).toHaveCount(1);
  const notes = items.filter({ hasText: path.join(project, 'docs', 'notes.md') });
  await expect(notes).toContainText('imported by CLAUDE.md');
  // Precedence order: the importing file comes before what it imports.
  const texts = await items.allTextContents();
  const at = (p: string) => texts.findIndex((t) => t.includes(p));
  expect(at(path.join(project, 'CLAUDE.md'))).toBeLessThan(at(path.join(project, 'docs', 'notes.md')));
  // A listed file in one of the browser's scopes opens in the editor.
  await loaded.getByRole('button', { name: path.join(project, 'CLAUDE.md') }).click();
  await expect(browser.locator('.cm-content')).toContainText('See @docs/notes.md for the details.');

  // MEMORY.md comes first in its scope, and its gauge says what the session start cuts.
  const auto = browser.getByRole('region', { name: 'Auto-memory' });
  await expect(auto.getByRole('listitem').first()).toContainText('MEMORY.md');
  await auto.getByRole('button', { name: /^MEMORY\.md/ }).click();
  const gauge = browser.getByLabel('Index size');
  await expect(gauge).toContainText('Lines 300 of 200');
  await expect(gauge.getByRole('alert')).toContainText('100 line(s) past the 200-line limit');

  // Consolidate now runs autoDream's consolidation through the model and says how it went.
  await browser.getByRole('button', { name: 'Consolidate now' }).click();
  await expect(app.locator('.toasts')).toContainText(/memor|consolidat/i);
  await expect(browser.getByRole('button', { name: 'Consolidate now' })).toBeEnabled();
});
