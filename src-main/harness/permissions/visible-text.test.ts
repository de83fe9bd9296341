import { describe, expect, it } from 'vitest';
import { analyzeCommand } from '../bash/analyze';
import { builtinTools } from '../tools/registry';
import type { AnyTool } from '../tools/tool';
import { summarize } from './engine-gate';
import { suggestBashRules } from './suggest';
import { spellHidden } from './visible-text';

const bash = builtinTools().find((t) => t.name === 'Bash') as AnyTool;

describe('what a person approves reads as what runs', () => {
  it('spells out bidi overrides, controls and invisible characters; keeps tabs and newlines', () => {
    expect(spellHidden('echo hi\u202E;txt.exe')).toBe('echo hi⟨U+202E⟩;txt.exe');
    expect(spellHidden('a\u200Bb\u001Bc\rd')).toBe('a⟨U+200B⟩b⟨U+001B⟩c⟨U+000D⟩d');
    expect(spellHidden('make\tall\nmake test')).toBe('make\tall\nmake test');
  });

  it('the prompt’s command line shows a Trojan-Source command as it is, and no rule is suggested for it', async () => {
    const command = 'rm -rf ~ #\u202E tsil ';
    expect(summarize(bash, { command })).toBe('rm -rf ~ #⟨U+202E⟩ tsil ');
    expect(suggestBashRules(await analyzeCommand('npm run lint\u2066'))).toEqual([]);
    // Control: the same command without the hidden character gets its rule.
    expect(suggestBashRules(await analyzeCommand('npm run lint'))).toEqual(['Bash(npm run lint *)']);
  });
});
