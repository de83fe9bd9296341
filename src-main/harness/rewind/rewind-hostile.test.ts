import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RewindOutcome } from '@shared/ipc/contract/rewind';
import { testCarapace } from '../../test-support/carapace';
import { text, toolUse } from '../../test-support/engine';
import { tempDir } from '../../test-support/temp';
import { until, wireValue } from '../../test-support/wait';

const value = wireValue;

describe('rewind with files that are not UTF-8', () => {
  it('a Latin-1 file and a file of raw bytes the agent overwrote come back byte for byte, not as U+FFFD', async () => {
    const project = realpathSync(tempDir('carapace-rewind-bytes-'));
    const latin1 = path.join(project, 'notes.txt');
    const image = path.join(project, 'logo.bin');
    const latin1Bytes = Buffer.from('caf\xe9 cr\xe8me\n', 'latin1');
    const imageBytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe, 0x80, 0x0a]);
    writeFileSync(latin1, latin1Bytes);
    writeFileSync(image, imageBytes);
    const t = await testCarapace({
      steps: [
        {
          when: { lastUserText: 'tidy' },
          reply: {
            content: [
              toolUse('Read', { file_path: latin1 }, 'r1'),
              toolUse('Read', { file_path: image }, 'r2'),
            ],
          },
        },
        {
          reply: {
            content: [
              toolUse('Write', { file_path: latin1, content: 'café crème\n' }, 'w1'),
              toolUse('Write', { file_path: image, content: 'no longer an image\n' }, 'w2'),
            ],
          },
        },
        { reply: { content: [text('Tidied.')] } },
        { times: true, reply: { content: [text('Fine.')] } },
      ],
    });
    const { workspace, sessions } = t.carapace.services;
    const projectId = workspace.open(project).project.id;
    const id = workspace.createSession(projectId).id;
    sessions.setPermissionMode(id, 'acceptEdits');
    sessions.send(id, 'tidy');
    await until(
      () => sessions.get(id).session.activity === 'idle' && readFileSync(image, 'utf8').startsWith('no'),
    );
    expect(readFileSync(latin1, 'utf8')).toBe('café crème\n');
    const tidy = sessions
      .get(id)
      .transcript.find(
        (i) => i.kind === 'message' && i.origin === 'user' && JSON.stringify(i.content).includes('tidy'),
      );
    const out = RewindOutcome.parse(
      value(
        await t.carapace.router.dispatch(
          'rewind.run',
          { sessionId: id, messageId: tidy?.id, confirmed: false },
          { transport: 'websocket' },
        ),
      ),
    );
    expect(out.restored.sort()).toEqual([image, latin1].sort());
    expect(readFileSync(latin1).equals(latin1Bytes)).toBe(true);
    expect(readFileSync(image).equals(imageBytes)).toBe(true);
  });
});
