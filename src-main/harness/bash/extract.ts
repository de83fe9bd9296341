import type { Node } from 'web-tree-sitter';
import { wordValue } from './words';

export interface Redirect {
  /** The operator: `>`, `>>`, `<`, `>&`, `&>`, `<<<`, `<<`, … */
  op: string;
  /** Static target (file or fd), or null when computed. */
  target: string | null;
  /** An explicit file descriptor (`2>`), if any. */
  fd: string | null;
  /** The target has an unquoted glob (`< *.txt`): the shell expands it to a file name. */
  glob?: boolean;
}

/** One simple command, as the shell would run it, with wrappers like `env`/`timeout` peeled off. */
export interface SimpleCommand {
  /** Source text of the whole command. */
  text: string;
  /** Static argv; null where a word is computed at run time. */
  argv: (string | null)[];
  /** argv after leading assignments and wrappers: [name, ...args]. */
  core: (string | null)[];
  assignments: { name: string; value: string | null }[];
  wrappers: string[];
  redirects: Redirect[];
  /** Inside a substitution, subshell, group or control structure. */
  nested: boolean;
  /** Some argv word has an unquoted glob. */
  glob: boolean;
}

export interface Extraction {
  commands: SimpleCommand[];
  /** Every node type met, named and anonymous, for the injection checks. */
  nodeTypes: Set<string>;
  /** Named node types outside the small set the analysis can judge. */
  unsupported: Set<string>;
  hasError: boolean;
  /** `&` used as a terminator (a background job). */
  background: boolean;
  /** Every redirect anywhere in the tree (on a command, a group or a subshell). */
  redirects: Redirect[];
  /** Nodes the injection checks look at, with their source text. */
  special: { type: string; text: string }[];
  /** Assignments that stand alone (`FOO=1; …`), setting variables for later commands. */
  bareAssignments: number;
  /** `[ … ]` / `[[ … ]]` tests: they run nothing. */
  tests: number;
}

/** Node kinds whose text the injection checks need. */
const SPECIAL = new Set([
  'command_substitution',
  'process_substitution',
  'ansi_c_string',
  'translated_string',
  'simple_expansion',
  'expansion',
  'brace_expression',
  'arithmetic_expansion',
  'heredoc_body',
  'herestring_redirect',
  'comment',
  'function_definition',
  'word',
  'command_name',
  'concatenation',
]);

/** The node kinds whose meaning is fully known: a command made only of these can be judged. */
const JUDGEABLE = new Set([
  'program',
  'list',
  'pipeline',
  'command',
  'command_name',
  'word',
  'string',
  'string_content',
  'raw_string',
  'number',
  'concatenation',
  'variable_assignment',
  'variable_name',
  'redirected_statement',
  'file_redirect',
  'file_descriptor',
  'heredoc_redirect',
  'heredoc_start',
  'heredoc_body',
  'heredoc_content',
  'heredoc_end',
  'comment',
  // `[ … ]` and `[[ … ]]` tests made of plain words (substitutions inside are caught by the checks).
  'test_command',
  'unary_expression',
  'binary_expression',
  'test_operator',
  'parenthesized_expression',
]);

/** Kinds that put the commands inside them in a nested context. */
const NESTING = new Set([
  'command_substitution',
  'process_substitution',
  'subshell',
  'compound_statement',
  'if_statement',
  'while_statement',
  'for_statement',
  'c_style_for_statement',
  'case_statement',
  'function_definition',
  'test_command',
  'negated_command',
  'do_group',
  'elif_clause',
  'else_clause',
  'case_item',
  'arithmetic_expansion',
  'expansion',
]);

/** Wrappers that run their arguments as a command; peeled off before judging (fixed list, as Claude Code's). */
function stripWrappers(argv: (string | null)[]): { core: (string | null)[]; wrappers: string[] } {
  let rest = [...argv];
  const wrappers: string[] = [];
  for (let guard = 0; guard < 10 && rest.length > 0; guard++) {
    const [name, ...args] = rest;
    if (name === 'time' || name === 'nohup' || name === 'noglob' || name === 'builtin') {
      wrappers.push(name);
      rest = args;
    } else if (name === 'command' && args[0] !== '-v' && args[0] !== '-V') {
      wrappers.push(name);
      rest = args.filter((a, i) => !(i === 0 && a === '-p'));
    } else if (
      name === 'nice' ||
      name === 'ionice' ||
      name === 'stdbuf' ||
      name === 'timeout' ||
      name === 'setsid' ||
      name === 'sudo' ||
      name === 'watch' ||
      name === 'xargs' ||
      name === 'env' ||
      name === 'flock'
    ) {
      // Skip the wrapper's own options (and timeout's duration, env's NAME=value pairs).
      let i = 0;
      while (i < args.length) {
        const a = args[i];
        if (a === null || a === undefined) break;
        if (a.startsWith('-')) {
          // Options that take a separate value.
          if (
            [
              '-n',
              '-c',
              '-u',
              '-g',
              '-s',
              '-k',
              '-i',
              '-o',
              '-e',
              '-d',
              '-I',
              '-L',
              '-P',
              '--signal',
              '--kill-after',
            ].includes(a) &&
            name !== 'env'
          )
            i++;
          i++;
          continue;
        }
        if (name === 'env' && a.includes('=')) {
          i++;
          continue;
        }
        if (name === 'timeout' && /^\d+(\.\d+)?[smhd]?$/.test(a)) {
          i++;
          continue;
        }
        if (name === 'flock' && i === 0) {
          i++;
          continue;
        }
        break;
      }
      wrappers.push(name);
      rest = args.slice(i);
      if (rest.length === 0) {
        // `env` alone prints the environment; `xargs` alone runs echo: the wrapper is the command.
        wrappers.pop();
        rest = [name, ...args];
        break;
      }
    } else break;
  }
  return { core: rest, wrappers };
}

function redirectOf(node: Node): Redirect {
  const op = node.children.find((c) => !c.isNamed)?.type ?? '';
  const fd = node.childForFieldName('descriptor')?.text ?? null;
  const dest = node.childForFieldName('destination');
  let target: string | null = null;
  let glob = false;
  if (node.type !== 'herestring_redirect' && dest) ({ value: target, glob } = wordValue(dest));
  return {
    op: node.type === 'herestring_redirect' ? '<<<' : node.type === 'heredoc_redirect' ? '<<' : op,
    target,
    fd,
    ...(glob ? { glob } : {}),
  };
}

function commandOf(node: Node, nested: boolean, redirects: Redirect[]): SimpleCommand {
  const argv: (string | null)[] = [];
  const assignments: { name: string; value: string | null }[] = [];
  let glob = false;
  for (const child of node.namedChildren) {
    if (child.type === 'variable_assignment') {
      const value = child.childForFieldName('value');
      assignments.push({
        name: child.childForFieldName('name')?.text ?? '',
        value: value ? wordValue(value).value : '',
      });
    } else if (child.type === 'command_name') {
      const inner = child.namedChildren[0];
      argv.push(inner ? wordValue(inner).value : null);
    } else if (child.type.endsWith('_redirect')) {
      redirects.push(redirectOf(child));
    } else if (child.type !== 'comment') {
      const w = wordValue(child);
      argv.push(w.value);
      glob ||= w.glob;
    }
  }
  const { core, wrappers } = stripWrappers(argv);
  return { text: node.text, argv, core, assignments, wrappers, redirects, nested, glob };
}

/** Walks the parse tree: every simple command (nested ones included) and what the tree is made of. */
export function extract(root: Node): Extraction {
  const commands: SimpleCommand[] = [];
  const nodeTypes = new Set<string>();
  const unsupported = new Set<string>();
  let background = false;
  const allRedirects: Redirect[] = [];
  const special: { type: string; text: string }[] = [];
  let bareAssignments = 0;
  let tests = 0;

  const visit = (node: Node, nested: boolean, pendingRedirects: Redirect[] | null): void => {
    nodeTypes.add(node.type);
    if (SPECIAL.has(node.type)) special.push({ type: node.type, text: node.text });
    if (
      (node.type === 'variable_assignment' || node.type === 'variable_assignments') &&
      node.parent?.type !== 'command' &&
      node.parent?.type !== 'declaration_command'
    )
      bareAssignments++;
    if (node.isNamed && !JUDGEABLE.has(node.type)) unsupported.add(node.type);
    if (!node.isNamed && node.type === '&') background = true;
    // Every redirect counts, wherever it sits (a heredoc can carry one: `cat <<EOF > file`).
    if (node.type === 'file_redirect' || node.type === 'herestring_redirect')
      allRedirects.push(redirectOf(node));
    if (node.type === 'test_command') tests++;
    if (node.type === 'command') {
      const redirects = pendingRedirects ?? [];
      commands.push(commandOf(node, nested, redirects));
      for (const child of node.children) visit(child, nested, null);
      return;
    }
    if (node.type === 'redirected_statement') {
      const redirects = node.namedChildren.filter((c) => c.type.endsWith('_redirect')).map(redirectOf);
      const body = node.childForFieldName('body');
      for (const child of node.children) {
        if (body && child.id === body.id) visit(child, nested, body.type === 'command' ? redirects : null);
        else visit(child, nested, null);
      }
      return;
    }
    const nextNested = nested || NESTING.has(node.type);
    for (const child of node.children) visit(child, nextNested, null);
  };
  visit(root, false, null);
  return {
    commands,
    nodeTypes,
    unsupported,
    hasError: root.hasError,
    background,
    redirects: allRedirects,
    special,
    bareAssignments,
    tests,
  };
}
