import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CarapaceClient } from '@shared/ipc/client';
import { setClient } from '../../ipc/client';
import type { FileRef } from './memory-api';
import { useOpenFile } from './use-open-file';

/**
 * A stand-in for the main process's memory files with the same rules the service keeps: a write names
 * the version it replaces, and a stale one is answered with a conflict carrying the disk's text.
 */
function fakeDisk(initial: string) {
  const disk = { text: initial as string | null, n: 1, writes: [] as string[] };
  const version = () => `v${disk.n}`;
  const client = {
    invoke: (channel: string, input: { text?: string; baseVersion?: string | null }) => {
      if (channel === 'memory.read') {
        if (disk.text === null) return Promise.reject(new Error('not found'));
        return Promise.resolve({ ...ref, text: disk.text, version: version(), writable: true });
      }
      if (channel === 'memory.write') {
        if ((disk.text === null ? null : version()) !== input.baseVersion)
          return Promise.resolve({
            kind: 'conflict',
            diskText: disk.text,
            diskVersion: disk.text === null ? null : version(),
            message: 'Changed on disk.',
          });
        disk.text = input.text ?? '';
        disk.n += 1;
        disk.writes.push(disk.text);
        return Promise.resolve({ kind: 'saved', version: version(), file: {} });
      }
      return Promise.reject(new Error(`unexpected ${channel}`));
    },
    on: () => () => undefined,
    onConnection: () => () => undefined,
  };
  setClient(client as unknown as CarapaceClient);
  /** Another program writes the file. */
  const outside = (text: string | null) => {
    disk.text = text;
    disk.n += 1;
  };
  return { disk, outside };
}

const ref: FileRef = { scope: 'auto-memory', root: 0, name: 'a.md' };

async function opened(initial: string) {
  const fake = fakeDisk(initial);
  const hook = renderHook(() => useOpenFile('p', () => undefined));
  await act(async () => {
    await hook.result.current.open(ref);
  });
  return { ...fake, hook };
}

afterEach(() => setClient(null as unknown as CarapaceClient));

describe('useOpenFile', () => {
  it('takes a change on disk at once when nothing is unsaved', async () => {
    const { outside, hook } = await opened('one');
    outside('two');
    await act(() => hook.result.current.diskChanged());
    expect(hook.result.current.file).toMatchObject({ base: 'two', draft: 'two', conflict: null });
  });

  it('never overwrites an unsaved edit: both versions, then Keep mine writes over the disk version', async () => {
    const { disk, outside, hook } = await opened('one');
    act(() => hook.result.current.setDraft('mine'));
    outside('theirs');
    await act(() => hook.result.current.diskChanged());
    expect(hook.result.current.file).toMatchObject({ draft: 'mine', conflict: { theirs: 'theirs' } });
    // Save is held while the conflict stands.
    await act(() => hook.result.current.save());
    expect(disk.writes).toEqual([]);
    await act(() => hook.result.current.keepMine());
    expect(disk.text).toBe('mine');
    expect(hook.result.current.file).toMatchObject({ base: 'mine', conflict: null });
  });

  it('a save that finds the file changed shows both versions; Take theirs drops mine', async () => {
    const { disk, outside, hook } = await opened('one');
    act(() => hook.result.current.setDraft('mine'));
    outside('theirs');
    await act(() => hook.result.current.save());
    expect(disk.text).toBe('theirs');
    expect(hook.result.current.file?.conflict).toEqual({ theirs: 'theirs', version: 'v2' });
    act(() => hook.result.current.takeTheirs());
    expect(hook.result.current.file).toMatchObject({ base: 'theirs', draft: 'theirs', conflict: null });
  });

  it('a file deleted on disk under an unsaved edit is a conflict with nothing on the other side', async () => {
    const { outside, hook } = await opened('one');
    act(() => hook.result.current.setDraft('mine'));
    outside(null);
    await act(() => hook.result.current.diskChanged());
    await waitFor(() => expect(hook.result.current.file?.conflict).toEqual({ theirs: null, version: null }));
  });

  it('its own save echoing back from the watcher changes nothing', async () => {
    const { hook } = await opened('one');
    act(() => hook.result.current.setDraft('two'));
    await act(() => hook.result.current.save());
    act(() => hook.result.current.setDraft('three'));
    await act(() => hook.result.current.diskChanged());
    expect(hook.result.current.file).toMatchObject({ base: 'two', draft: 'three', conflict: null });
  });
});
