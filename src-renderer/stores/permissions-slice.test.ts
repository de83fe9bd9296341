import { describe, expect, it } from 'vitest';
import type { PermissionLogEntry } from '@shared/domain/permissions';
import { ruleFromEntry } from './permissions-slice';

const entry = (toolName: string, summary: string, suggestions?: string[]): PermissionLogEntry => ({
  id: '1',
  at: '2026-12-06T00:00:00.000Z',
  toolName,
  toolUseId: 't1',
  summary,
  input: {},
  behavior: 'allow',
  decidedBy: 'user',
  reason: 'approved by user',
  ...(suggestions ? { suggestions } : {}),
});

describe('ruleFromEntry for web tools', () => {
  it('turns a past fetch into its domain rule, never a bare WebFetch that would allow every site', () => {
    expect(ruleFromEntry(entry('WebFetch', 'https://docs.rs/x', ['WebFetch(domain:docs.rs)']), '/p')).toBe(
      'WebFetch(domain:docs.rs)',
    );
    expect(ruleFromEntry(entry('WebFetch', 'https://Docs.Example.com/page'), '/p')).toBe(
      'WebFetch(domain:docs.example.com)',
    );
    expect(ruleFromEntry(entry('WebFetch', 'not a url'), '/p')).toBe('');
  });

  it('a search is allowed by the bare WebSearch rule', () => {
    expect(ruleFromEntry(entry('WebSearch', 'carapace'), '/p')).toBe('WebSearch');
  });
});
