import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp';
import { SandboxService } from './sandbox';

const sandbox = new SandboxService();
afterAll(() => sandbox.close());

describe('SandboxService (real sandbox runtime)', () => {
  it('admits the union of the domains of the commands still running, dropping each as its command ends', async () => {
    const status = await sandbox.status();
    expect(status, status.reason ?? '').toEqual({ available: true, reason: null });
    const request = (allowedDomains: string[]) => ({
      command: 'true',
      cwd: tempDir(),
      writable: [],
      denyRead: [],
      allowedDomains,
    });
    const a = await sandbox.wrap(request(['a.example.com', 'shared.example.com']));
    const b = await sandbox.wrap(request(['b.example.com', 'shared.example.com']));
    expect(sandbox.allowedDomainsNow).toEqual(['a.example.com', 'b.example.com', 'shared.example.com']);
    a.release();
    expect(sandbox.allowedDomainsNow).toEqual(['b.example.com', 'shared.example.com']);
    a.release();
    expect(sandbox.allowedDomainsNow).toEqual(['b.example.com', 'shared.example.com']);
    b.release();
    expect(sandbox.allowedDomainsNow).toEqual([]);
  });

  it('says why when bubblewrap is not where it was told to look', async () => {
    const missing = new SandboxService({ bwrapPath: '/nonexistent/bwrap' });
    expect(await missing.status()).toEqual({
      available: false,
      reason: 'bubblewrap was not found at /nonexistent/bwrap',
    });
  });
});
