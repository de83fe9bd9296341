import { classify, type Classification } from './classify';
import { extract, type SimpleCommand } from './extract';
import { runInjectionChecks, type Finding } from './injection-checks';
import { commandReadOnlyReason } from './readonly';
import { loadBashParser, ParserUnavailableError, withBashTreeSync } from './tree-sitter';

export interface CommandAnalysis {
  command: string;
  /** The parser ran and understood every part of the command. */
  parsed: boolean;
  /** Every simple command, nested ones (in substitutions, subshells) included. */
  commands: SimpleCommand[];
  /** Injection checks that fired. */
  findings: Finding[];
  /** True only when the command provably only reads: it may run without asking. */
  readOnly: boolean;
  /** Why it is not read-only, for a person ("`find -exec` runs a command"). Empty when read-only. */
  reasons: string[];
  classification: Classification;
  /** `[ … ]` / `[[ … ]]` tests in it: the shell evaluates them itself (no command to judge). */
  tests?: number;
}

/**
 * Analyses a Bash command line: split into simple commands (lists, pipelines, substitutions,
 * subshells, redirections), run every injection check, and judge each command against the flag-level
 * read-only allowlist. Anything the analysis cannot fully account for is not read-only.
 */
export async function analyzeCommand(command: string): Promise<CommandAnalysis> {
  try {
    await loadBashParser();
  } catch (error) {
    if (!(error instanceof ParserUnavailableError)) throw error;
    return unavailable(command, error.message);
  }
  return analyzeCommandSync(command);
}

function unavailable(command: string, why: string): CommandAnalysis {
  return {
    command,
    parsed: false,
    commands: [],
    findings: [],
    readOnly: false,
    reasons: [why],
    classification: 'other',
  };
}

/** The same analysis, synchronously, once the parser is loaded (else: not read-only, with the reason). */
export function analyzeCommandSync(command: string): CommandAnalysis {
  try {
    return withBashTreeSync(command, (root) => {
      const x = extract(root);
      const findings = runInjectionChecks({ source: command, x });
      const reasons = findings.map((f) => f.reason);
      for (const c of x.commands) {
        const why = commandReadOnlyReason(c);
        if (why !== null && !reasons.includes(why)) reasons.push(why);
      }
      if (x.commands.length === 0 && x.tests === 0 && reasons.length === 0)
        reasons.push('there is no command to run');
      return {
        command,
        parsed: !x.hasError,
        commands: x.commands,
        findings,
        readOnly: reasons.length === 0,
        reasons,
        classification: classify(x.commands, x.redirects),
        tests: x.tests,
      };
    });
  } catch (error) {
    if (!(error instanceof ParserUnavailableError)) throw error;
    return unavailable(command, error.message);
  }
}
