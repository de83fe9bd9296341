import { useShallow } from 'zustand/react/shallow';
import type { AgentSummary } from '@shared/domain/agents';
import type { ToolResultBlock, TranscriptItem } from '@shared/domain/messages';
import type { SessionSummary } from '@shared/domain/session';
import type { TeamView } from '@shared/domain/team';
import type { AgentTranscript } from './transcripts-slice';
import { useStore, type AppState } from './store';

/**
 * Small selector hooks: each reads one thing, so a component re-renders only when that thing
 * changes (a streaming sub-agent does not re-render its siblings' cards).
 */

const NO_ITEMS: TranscriptItem[] = [];
const NO_AGENTS: Record<string, AgentSummary> = {};

export function useSession(sessionId: string): SessionSummary | undefined {
  return useStore((s) => s.sessions[sessionId]);
}

export function agentTranscript(
  s: AppState,
  sessionId: string,
  agentId: string,
): AgentTranscript | undefined {
  return s.transcripts[sessionId]?.[agentId];
}

/** Whether an agent's transcript is in the window (else it must be fetched). */
export function useTranscriptLoaded(sessionId: string, agentId: string): boolean {
  return useStore((s) => agentTranscript(s, sessionId, agentId) !== undefined);
}

export function useTranscriptItems(sessionId: string, agentId: string): TranscriptItem[] {
  return useStore((s) => agentTranscript(s, sessionId, agentId)?.items ?? NO_ITEMS);
}

export function useToolResults(
  sessionId: string,
  agentId: string,
): Record<string, ToolResultBlock> | undefined {
  return useStore((s) => agentTranscript(s, sessionId, agentId)?.results);
}

export function useToolResult(
  sessionId: string,
  agentId: string,
  toolUseId: string,
): ToolResultBlock | undefined {
  return useStore((s) => agentTranscript(s, sessionId, agentId)?.results[toolUseId]);
}

export function useToolProgress(sessionId: string, agentId: string, toolUseId: string): string | undefined {
  return useStore((s) => agentTranscript(s, sessionId, agentId)?.progress[toolUseId]);
}

export function useAgent(sessionId: string, agentId: string | null | undefined): AgentSummary | undefined {
  return useStore((s) => (agentId ? s.agents[sessionId]?.[agentId] : undefined));
}

/** The sub-agent an Agent tool call started, found by the call's id. */
export function useAgentForCall(sessionId: string, toolUseId: string): AgentSummary | undefined {
  return useStore((s) => findAgentForCall(s.agents[sessionId], toolUseId));
}

export function findAgentForCall(
  agents: Record<string, AgentSummary> | undefined,
  toolUseId: string,
): AgentSummary | undefined {
  for (const a of Object.values(agents ?? NO_AGENTS)) if (a.toolUseId === toolUseId) return a;
  return undefined;
}

/** Every sub-agent and worker of a session, by id. */
export function useSessionAgents(sessionId: string): Record<string, AgentSummary> {
  return useStore((s) => s.agents[sessionId] ?? NO_AGENTS);
}

/** How many agents a session has (and whether it runs a team): decides whether "Team" is offered. */
export function useHasAgents(sessionId: string): boolean {
  return useStore(
    (s) =>
      Object.keys(s.agents[sessionId] ?? NO_AGENTS).length > 0 ||
      (s.teams[sessionId]?.members.length ?? 0) > 0 ||
      s.sessions[sessionId]?.coordinator === true,
  );
}

export function useTeam(sessionId: string): TeamView | undefined {
  return useStore((s) => s.teams[sessionId]);
}

/** The last text an agent is streaming or wrote: a card's live line. */
export function useAgentLatestText(sessionId: string, agentId: string | null | undefined): string {
  return useStore((s) => (agentId ? latestText(agentTranscript(s, sessionId, agentId)?.items) : ''));
}

export function latestText(items: readonly TranscriptItem[] | undefined): string {
  if (!items) return '';
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item?.kind !== 'message' || item.role !== 'assistant') continue;
    for (let k = item.content.length - 1; k >= 0; k--) {
      const b = item.content[k];
      if (b?.type === 'text' && b.text.trim() !== '') return b.text;
    }
  }
  return '';
}

/** Pending permission requests of one session, oldest first. */
export function useSessionPending(sessionId: string) {
  return useStore(useShallow((s) => s.pending.filter((p) => p.sessionId === sessionId)));
}
