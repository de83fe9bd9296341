import { describe, expect, it } from 'vitest';
import { fileNameFor } from './NewFileForm';

describe('fileNameFor', () => {
  it('makes a plain .md name from words', () => {
    expect(fileNameFor('Tabs in Go files')).toBe('tabs-in-go-files.md');
    expect(fileNameFor('  Café: déploiement!  ')).toBe('cafe-deploiement.md');
    expect(fileNameFor('frontend/Style Guide')).toBe('frontend/style-guide.md');
  });
  it('keeps a name already given as a file name, and gives nothing for nothing', () => {
    expect(fileNameFor('CLAUDE.md')).toBe('CLAUDE.md');
    expect(fileNameFor(' !!! ')).toBe('');
  });
});
