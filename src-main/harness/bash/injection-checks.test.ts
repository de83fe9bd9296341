import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommandSync } from './analyze';
import { INJECTION_CHECKS } from './injection-checks';
import { loadBashParser } from './tree-sitter';

/** For every check: commands it must flag, and look-alikes it must leave alone. */
const CASES: Record<string, { fires: string[]; passes: string[] }> = {
  unparseable: { fires: ["echo 'unterminated", 'ls ) x'], passes: ["echo 'closed'"] },
  'too-long': { fires: [`echo ${'a'.repeat(10_001)}`], passes: [`echo ${'a'.repeat(100)}`] },
  'command-substitution': {
    fires: ['ls $(whoami)', 'echo "$(id)"'],
    passes: ["echo '$(id)'", 'echo \\$\\(id\\)'],
  },
  backticks: { fires: ['ls `whoami`'], passes: ["echo '`id`'"] },
  'process-substitution': { fires: ['diff <(ls a) <(ls b)', 'tee >(cat)'], passes: ['diff a b'] },
  eval: { fires: ['eval ls', 'ls && eval "$X"'], passes: ['echo eval'] },
  exec: { fires: ['exec ls'], passes: ['echo exec', 'find . -name exec'] },
  source: { fires: ['source ./env.sh', '. ./env.sh'], passes: ['echo source', 'ls .'] },
  'shell-c': {
    fires: ["bash -c 'ls'", 'sh -c ls', '/bin/zsh -c ls', 'busybox sh'],
    passes: ['echo bash -c', 'ls bash'],
  },
  'here-string': { fires: ['cat <<< hello'], passes: ['cat << EOF\nhello\nEOF'] },
  'heredoc-expansion': {
    fires: ['cat <<EOF\n$(id)\nEOF', 'cat <<EOF\n$HOME\nEOF'],
    passes: ["cat <<'EOF'\nplain text\nEOF"],
  },
  ifs: { fires: ['cat${IFS}/etc/passwd', 'echo $IFS'], passes: ['echo IFS'] },
  'ansi-c-quoting': { fires: ["$'\\x6c\\x73'", "echo $'a\\nb'"], passes: ["echo 'a\\nb'"] },
  'locale-quoting': { fires: ['echo $"hello"'], passes: ['echo "hello"'] },
  'brace-expansion': {
    fires: ['echo {a,b}', 'cp x{,.bak}', 'echo {1..3}'],
    passes: ['echo "{a,b}"', "echo '{1..3}'", 'find . -name x -print'],
  },
  newline: { fires: ['ls\nrm -rf x'], passes: ['ls; pwd', "cat <<'EOF'\na\nEOF"] },
  'carriage-return': { fires: ['ls\rrm x'], passes: ['ls'] },
  'control-characters': { fires: ['ls\u0007', 'ls \u001b[2K'], passes: ['ls\t-la'] },
  'unicode-whitespace': { fires: ['ls\u00a0-la', 'ls\u3000x'], passes: ['ls -la'] },
  'look-alikes': { fires: ['ls\u200b -la', '\u0441at notes.txt'], passes: ['cat notes.txt', 'echo café'] },
  'zsh-builtins': { fires: ['zmodload zsh/system', 'emulate sh'], passes: ['echo zmodload'] },
  'zsh-equals-expansion': { fires: ['=curl evil.example'], passes: ['echo a=b', 'ls --color=auto'] },
  'redirect-write': {
    fires: ['ls > out', 'ls >> out', 'ls &> out', 'cat <<EOF > f\nx\nEOF'],
    passes: ['ls > /dev/null', 'ls 2>&1', 'cat < in'],
  },
  'redirect-fd': { fires: ['ls >&3', 'cat <&5'], passes: ['ls 2>&1', 'ls 1>&2'] },
  'env-wrapper': { fires: ['env ls', 'env -i PATH=/x ls'], passes: ['env', 'printenv'] },
  'command-builtin-wrapper': { fires: ['command ls', 'builtin echo x'], passes: ['command -v ls'] },
  'exec-wrappers': {
    fires: ['sudo ls', 'ls | xargs rm', 'watch ls', 'setsid ls', 'flock /tmp/l ls'],
    passes: ['timeout 5 ls', 'nice ls', 'xargs'],
  },
  comment: { fires: ['ls # && rm -rf /', 'ls #x'], passes: ['echo "#not a comment"', 'echo a#b'] },
  'dynamic-command-name': { fires: ['$CMD -rf x', '"$X" ls'], passes: ['ls $HOME'] },
  'quoted-command-name': { fires: ["r''m -rf x", '"rm" x', '\\rm x'], passes: ['rm x', "echo 'quoted arg'"] },
  'parameter-expansion': {
    fires: ['ls $HOME', 'echo ${PATH}', 'echo "${X:-$(id)}"'],
    passes: ["echo '$HOME'", 'echo \\$HOME'],
  },
  'arithmetic-expansion': { fires: ['echo $((1 + 2))', 'x=$((a[$(id)]))'], passes: ['expr 1 + 2'] },
  background: { fires: ['sleep 10 &', 'ls & rm x'], passes: ['ls && pwd', 'ls 2>&1'] },
  'function-definition': { fires: ['ls() { rm -rf x; }', 'function ls { echo; }'], passes: ['ls'] },
  'unsupported-syntax': {
    fires: ['if true; then ls; fi', 'for i in 1; do ls; done', '(ls)', '{ ls; }', 'case x in *) ls;; esac'],
    passes: ['ls && pwd', '[ -d src ]'],
  },
  'dangerous-assignment': {
    fires: ['LD_PRELOAD=/tmp/x.so ls', 'PATH=/tmp ls', 'GIT_SSH_COMMAND=x git status'],
    passes: ['LANG=C ls', 'TZ=UTC date'],
  },
  'bare-assignment': { fires: ['X=1', 'X=1; ls', 'a=b && ls'], passes: ['X=1 ls', 'echo X=1'] },
  'git-program-option': {
    fires: [
      "git fetch --upload-pack='cat ~/.ssh/id_rsa' .",
      'git fetch --upload-pack cat .',
      'git pull --upl=cat origin',
      'git push --receive-pack=cat origin',
      'git push --exec=cat origin',
      'git archive --remote=. --exec=cat HEAD',
      'git rebase --exec "make test" main',
      'git -C sub fetch --upload-pack=cat .',
      'git clone -u cat ./repo out',
      'git ls-remote -qu cat .',
      'git --exec-path=/tmp/x status',
      'git --exec-path /tmp/x status',
    ],
    passes: [
      'git fetch origin',
      'git fetch -u origin',
      'git push -u origin main',
      'git --exec-path',
      'git log --reverse',
      'git commit -m "--exec is refused"',
      'git log -- --upload-pack',
      'echo --upload-pack=cat',
    ],
  },
  'glob-command-name': { fires: ['/bin/l* -la', 'l? x'], passes: ['ls *.ts'] },
};

beforeAll(() => loadBashParser());

describe('injection checks', () => {
  it('are at least 25 distinct named rules, each with its own cases', () => {
    const ids = INJECTION_CHECKS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(25);
    expect(Object.keys(CASES).sort()).toEqual([...ids].sort());
  });

  for (const check of INJECTION_CHECKS) {
    describe(`${check.id}: ${check.title}`, () => {
      const cases = CASES[check.id] ?? { fires: [], passes: [] };
      it.each(cases.fires)('flags %j', (command) => {
        const a = analyzeCommandSync(command);
        const finding = a.findings.find((f) => f.id === check.id);
        expect(finding, `${check.id} should fire; findings: ${JSON.stringify(a.findings)}`).toBeDefined();
        expect(finding?.reason.length).toBeGreaterThan(10);
        expect(a.readOnly).toBe(false);
      });
      it.each(cases.passes)('leaves %j alone', (command) => {
        const a = analyzeCommandSync(command);
        expect(a.findings.map((f) => f.id)).not.toContain(check.id);
      });
    });
  }
});
