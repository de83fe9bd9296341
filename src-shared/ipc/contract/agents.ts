import { z } from 'zod';
import { AgentSummary } from '../../domain/agents';
import { TranscriptItem } from '../../domain/messages';
import { SessionId } from '../../domain/session';
import { channel, SessionRef } from './common';

/** A session's sub-agents and workers: their cards, transcripts, and stopping one alone. */

const AgentRef = z.strictObject({ sessionId: SessionId, agentId: z.string().min(1).max(100) });

export const requests = {
  /** Every sub-agent and worker of a session, running or ended (also those of earlier runs). */
  'agents.list': channel(SessionRef, z.array(AgentSummary)),
  /** One agent's transcript, live or saved. */
  'agents.transcript': channel(AgentRef, z.array(TranscriptItem)),
  /** Stops one agent (and the agents it started); its parent carries on. */
  'agents.stop': channel(AgentRef, z.object({ stopped: z.boolean() })),
} as const;

export const events = {
  /** An agent started, changed state or activity, used tokens, or ended. */
  'agents.changed': z.object({ agent: AgentSummary }),
} as const;
