import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp';
import {
  createTranscript,
  readTranscript,
  repairTornTail,
  tornFileOf,
  TranscriptWriter,
  type TranscriptLine,
} from './transcript-file';

const title = (t: string): TranscriptLine => ({ type: 'title', title: t, at: '2025-01-01T00:00:00.000Z' });
const jsonl = (...lines: TranscriptLine[]) => lines.map((l) => `${JSON.stringify(l)}\n`).join('');
const TORN = '{"type":"title","title":"half';

describe('repairTornTail', () => {
  it('moves a torn last line to <file>.torn and cuts the transcript back to its last whole line', () => {
    const file = path.join(tempDir('transcript-'), 's.jsonl');
    writeFileSync(file, jsonl(title('one'), title('two')) + TORN);

    const report = repairTornTail(file);
    expect(report).toMatch(/^The last line \(3\) was cut off.*29 bytes were moved to s\.jsonl\.torn/);
    expect(readFileSync(file, 'utf8')).toBe(jsonl(title('one'), title('two')));
    expect(readFileSync(tornFileOf(file), 'utf8')).toBe(`${TORN}\n`);
    // Once mended, there is nothing more to do.
    expect(repairTornTail(file)).toBeNull();
  });

  it('leaves a clean file alone, and completes a whole entry that only lacks its newline', () => {
    const dir = tempDir('transcript-');
    const clean = path.join(dir, 'clean.jsonl');
    writeFileSync(clean, jsonl(title('one')));
    expect(repairTornTail(clean)).toBeNull();
    expect(readFileSync(clean, 'utf8')).toBe(jsonl(title('one')));

    const whole = path.join(dir, 'whole.jsonl');
    writeFileSync(whole, jsonl(title('one')) + JSON.stringify(title('two')));
    expect(repairTornTail(whole)).toBeNull();
    expect(readFileSync(whole, 'utf8')).toBe(jsonl(title('one'), title('two')));
    expect(existsSync(tornFileOf(whole))).toBe(false);

    expect(repairTornTail(path.join(dir, 'missing.jsonl'))).toBeNull();
  });
});

describe('TranscriptWriter', () => {
  it('mends a torn end before its first append, so the new line is not glued onto the torn one', () => {
    const file = path.join(tempDir('transcript-'), 's.jsonl');
    writeFileSync(file, jsonl(title('one')) + TORN);
    const writer = new TranscriptWriter(file);
    writer.append(title('two'));
    writer.close();

    const read = readTranscript(file);
    expect(read.problems).toEqual([]);
    expect(read.lines).toEqual([title('one'), title('two')]);
    expect(readFileSync(tornFileOf(file), 'utf8')).toBe(`${TORN}\n`);
  });
});

describe('createTranscript', () => {
  it('writes the first lines, and never over an existing file', () => {
    const file = path.join(tempDir('transcript-'), 'project', 's.jsonl');
    createTranscript(file, [title('one')]);
    expect(readTranscript(file).lines).toEqual([title('one')]);
    expect(() => createTranscript(file, [title('other')])).toThrow(/Could not create transcript/);
    expect(readTranscript(file).lines).toEqual([title('one')]);
  });
});

describe('partial lines', () => {
  it('skips and reports a piece whose block index is past the bound, keeping the rest', () => {
    const file = path.join(tempDir('transcript-'), 's.jsonl');
    const hostile = '{"type":"partial","itemId":"x","model":"m","index":4294967294,"text":"x"}\n';
    const fine = '{"type":"partial","itemId":"x","model":"m","index":4096,"text":"y"}\n';
    writeFileSync(file, jsonl(title('one')) + hostile + fine);
    const read = readTranscript(file);
    expect(read.lines).toEqual([
      title('one'),
      { type: 'partial', itemId: 'x', model: 'm', index: 4096, text: 'y' },
    ]);
    expect(read.problems).toEqual([
      'Line 2 is not a transcript entry this version understands; it was skipped.',
    ]);
  });
});
