/** Claude Code's own transcripts as a second source of usage (issue 11, item 5). */
export { claudeCodeDirs, listClaudeCodeFiles } from './dirs';
export { mergeClaudeCodeFiles } from './merge';
export { type ClaudeCodeFile, CLAUDE_CODE_COST_VERSION, readClaudeCodeFile } from './read-file';
export { claudeCodeEnabled } from './setting';
