import type { AgentDefinition } from './definition';
import explorePrompt from './prompts/explore.md?raw';
import generalPurposePrompt from './prompts/general-purpose.md?raw';
import planPrompt from './prompts/plan.md?raw';
import verificationPrompt from './prompts/verification.md?raw';

/** What reading and searching needs; the read-only agents get nothing else. */
const READ_TOOLS = ['Read', 'Glob', 'Grep', 'Bash'];

function builtin(
  d: Pick<AgentDefinition, 'name' | 'description' | 'tools' | 'model' | 'systemPrompt'> &
    Partial<Pick<AgentDefinition, 'readOnly' | 'runsChecks' | 'verdict'>>,
): AgentDefinition {
  return {
    disallowedTools: [],
    permissionMode: null,
    maxTurns: null,
    source: 'built-in',
    file: null,
    readOnly: false,
    runsChecks: false,
    verdict: false,
    // No built-in starts agents of its own: a tree of agents is something a file asks for.
    canSpawn: false,
    ...d,
    systemPrompt: d.systemPrompt.trim(),
  };
}

/**
 * The agent types every project has (Claude Code's general-purpose, Explore and Plan, plus the
 * Verification agent of the spec). Fresh objects each call: callers may not share and mutate them.
 */
export function builtinAgents(): AgentDefinition[] {
  return [
    builtin({
      name: 'general-purpose',
      description:
        'General-purpose agent for research, searching code and multi-step tasks, with all your tools. Use it for a search you may not get right in the first few tries, or a self-contained piece of work.',
      tools: null,
      model: 'inherit',
      systemPrompt: generalPurposePrompt,
    }),
    builtin({
      name: 'Explore',
      description:
        'Fast, read-only agent for exploring a codebase: finding files, searching code, answering questions about how it works. It cannot change files. Say how thorough it should be (quick, medium or very thorough).',
      tools: [...READ_TOOLS],
      // Searching and reading needs no big model; a cheaper one keeps exploration cheap.
      model: 'haiku',
      readOnly: true,
      systemPrompt: explorePrompt,
    }),
    builtin({
      name: 'Plan',
      description:
        'Read-only software architect: explores the code and returns a step-by-step implementation plan (files to change, order, risks). It writes nothing.',
      tools: [...READ_TOOLS],
      model: 'inherit',
      readOnly: true,
      systemPrompt: planPrompt,
    }),
    builtin({
      name: 'Verification',
      description:
        'Adversarial verifier: tries to prove finished work is broken by reading the diff and running the tests and builds. It changes no files, and ends with VERDICT: PASS or VERDICT: FAIL and the reasons.',
      tools: [...READ_TOOLS],
      model: 'inherit',
      readOnly: true,
      runsChecks: true,
      verdict: true,
      systemPrompt: verificationPrompt,
    }),
  ];
}
