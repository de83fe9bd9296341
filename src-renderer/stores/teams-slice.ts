import type { StateCreator } from 'zustand';
import type { TeamMessage, TeamView } from '@shared/domain/team';

/** Messages kept per team in the window: the main process keeps the rest. */
const KEEP_MESSAGES = 500;

export interface TeamsSlice {
  /** Coordinator sessions' teams, once fetched or announced. */
  teams: Record<string, TeamView>;
  setTeam(team: TeamView): void;
  /** A delivered message joins the timeline once (it may also come with a whole team). */
  addTeamMessage(sessionId: string, message: TeamMessage): void;
}

export const createTeamsSlice: StateCreator<TeamsSlice> = (set) => ({
  teams: {},
  setTeam: (team) => set((s) => ({ teams: { ...s.teams, [team.sessionId]: team } })),
  addTeamMessage: (sessionId, message) =>
    set((s) => {
      const team = s.teams[sessionId] ?? { sessionId, members: [], messages: [] };
      if (team.messages.some((m) => m.id === message.id)) return s;
      const messages = [...team.messages, message].slice(-KEEP_MESSAGES);
      return { teams: { ...s.teams, [sessionId]: { ...team, messages } } };
    }),
});
