import { useCallback, useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import { formatSessionCost } from '@shared/domain/cost';
import { loadAgents, loadAgentTranscript, loadTeam, stopAgent, stopSession } from '../../ipc/actions';
import { useSession, useSessionAgents, useTeam } from '../../stores/selectors';
import { showToast, useStore } from '../../stores/store';
import { Transcript } from '../transcript/Transcript';
import { isLive, teamMembers, type Member } from './members';
import { cardId, MemberCard } from './MemberCard';
import { moveSelection } from './navigation';
import { stuckOf } from './stuck';
import {
  createTeamViewStore,
  MIN_STUCK_SEC,
  TeamViewContext,
  useTeamView,
  useTeamViewStore,
  type TeamViewProps,
} from './team-view-store';
import { Timeline } from './Timeline';
import './team.css';

/** Keys typed into a box are text, not commands. */
function typing(target: EventTarget): boolean {
  return (
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}

/** The side pane: the opened member's live transcript. */
function MemberTranscript({ sessionId, member }: { sessionId: string; member: Member | undefined }) {
  const loaded = useStore((s) => (member ? s.transcripts[sessionId]?.[member.agentId] !== undefined : false));
  useEffect(() => {
    if (member && !member.root && !loaded) void loadAgentTranscript(sessionId, member.agentId);
  }, [sessionId, member, loaded]);
  if (!member)
    return <p className="muted team-empty">Pick a member (click, or Enter) to follow its transcript here.</p>;
  // The main agent's transcript is the session's own: <Transcript> fetches it when the window let
  // it go, and offers a retry if that fails. A worker's or sub-agent's is fetched above.
  if (!loaded && !member.root)
    return <p className="muted team-empty">Loading the transcript of {member.name}…</p>;
  return (
    <Transcript
      sessionId={sessionId}
      agentId={member.agentId}
      working={member.root ? undefined : isLive(member)}
      label={`Transcript of ${member.name}`}
    />
  );
}

function TeamPanel() {
  const store = useTeamViewStore();
  const sessionId = useTeamView((s) => s.sessionId);
  const session = useSession(sessionId);
  const agents = useSessionAgents(sessionId);
  const team = useTeam(sessionId);
  const listed = useStore((s) => s.agentsListed[sessionId] === true);
  const coordinator = session?.coordinator === true;
  const members = useMemo(() => (session ? teamMembers(session, agents, team) : []), [session, agents, team]);
  const opened = useTeamView((s) => s.opened);
  const pane = useTeamView((s) => s.pane);
  const stuckAfterSec = useTeamView((s) => s.stuckAfterSec);
  const selected = useTeamView((s) => s.selected);
  const now = useTeamView((s) => s.now);
  const [limitDraft, setLimitDraft] = useState(String(stuckAfterSec));

  useEffect(() => {
    if (!listed) void loadAgents(sessionId);
    if (coordinator) void loadTeam(sessionId);
  }, [sessionId, listed, coordinator]);

  // Elapsed times and "no progress for" read this clock.
  useEffect(() => {
    const timer = setInterval(() => store.getState().tick(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [store]);

  const byKey = useCallback((key: string | null) => members.find((m) => m.key === key), [members]);

  const focusCard = (key: string) => document.getElementById(cardId(sessionId, key))?.focus();

  const activate = useCallback((key: string) => store.getState().open(key), [store]);
  const select = useCallback((key: string) => store.getState().select(key), [store]);
  const message = useCallback(
    (key: string) => {
      const m = byKey(key);
      store.getState().select(key);
      if (m?.worker) store.getState().compose(key);
      else showToast(`Only workers of a team take messages; ${m?.name ?? 'this member'} is not one.`);
    },
    [byKey, store],
  );
  const stop = useCallback(
    (key: string) => {
      const m = byKey(key);
      store.getState().select(key);
      if (m && isLive(m)) store.getState().confirmStop(key);
      else showToast(`${m?.name ?? 'This member'} is not running.`);
    },
    [byKey, store],
  );
  const stopConfirmed = useCallback(
    (key: string) => {
      const m = byKey(key);
      store.getState().confirmStop(null);
      if (!m) return;
      void (m.root ? stopSession(sessionId) : stopAgent(sessionId, m.agentId));
      focusCard(key);
    },
    // focusCard reads only sessionId.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [byKey, store, sessionId],
  );
  const formDone = useCallback(
    (key: string) => {
      store.getState().compose(null);
      store.getState().confirmStop(null);
      focusCard(key);
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [store, sessionId],
  );

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (typing(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
    const s = store.getState();
    const current = s.selected ?? members[0]?.key ?? null;
    // With nothing chosen yet, the first card (the one Tab reaches) is where the arrows start.
    const moved = moveSelection(members, current, e.key);
    if (moved !== null) {
      s.select(moved);
      focusCard(moved);
    } else if (current === null) return;
    else if (e.key === 'Enter') {
      if (s.confirmingStop === current) stopConfirmed(current);
      else activate(current);
    } else if (e.key === 'm' || e.key === 'M') message(current);
    else if (e.key === 's' || e.key === 'S') {
      if (s.confirmingStop === current) stopConfirmed(current);
      else stop(current);
    } else if (e.key === 'Escape') {
      if (s.confirmingStop || s.composing) formDone(current);
      else useStore.getState().setTeamViewOpen(sessionId, false);
    } else return;
    e.preventDefault();
    e.stopPropagation();
  };

  if (!session) return null;
  const working = members.filter((m) => m.state === 'working').length;
  const waiting = members.filter((m) => m.state === 'waiting').length;
  const stuck = members.filter((m) => stuckOf(m, now, stuckAfterSec * 1000) !== null).length;
  const messages = team?.messages.length ?? 0;
  const focusKey = selected ?? members[0]?.key ?? null;

  return (
    <section
      className="team-view"
      aria-label="Team view"
      onKeyDown={(e) => {
        // Esc closes the view from anywhere in it (the cards handle their own Esc first).
        if (e.key === 'Escape' && !typing(e.target)) {
          e.preventDefault();
          useStore.getState().setTeamViewOpen(sessionId, false);
        }
      }}
    >
      <div className="team-toolbar">
        <h2 className="team-title">{coordinator ? 'Team' : 'Agents'}</h2>
        <span className="team-summary" data-testid="team-summary">
          {members.length - 1} {members.length - 1 === 1 ? 'member' : 'members'} · {working} working
          {waiting > 0 ? ` · ${waiting} waiting for you` : ''}
          {stuck > 0 ? ` · ${stuck} stuck` : ''} · {formatSessionCost(session.costUsd, session.costKind)} in
          all
        </span>
        <label className="team-limit" title="A working member with no progress for this long is flagged">
          Stuck after
          <input
            type="number"
            aria-label="Stuck after (seconds)"
            min={MIN_STUCK_SEC}
            step={10}
            value={limitDraft}
            onChange={(e) => {
              setLimitDraft(e.target.value);
              const n = Number(e.target.value);
              if (e.target.value !== '' && n >= MIN_STUCK_SEC) store.getState().setStuckAfter(n);
            }}
            onBlur={() => setLimitDraft(String(store.getState().stuckAfterSec))}
          />
          s
        </label>
        <button
          type="button"
          className="small"
          title="Close the team view (Esc)"
          onClick={() => useStore.getState().setTeamViewOpen(sessionId, false)}
        >
          Close
        </button>
      </div>
      <div className="team-body">
        <div className="team-tree-wrap">
          <div role="tree" aria-label="Members" className="team-tree" onKeyDown={onKeyDown}>
            {members.map((m) => (
              <MemberCard
                key={m.key}
                sessionId={sessionId}
                member={m}
                costKind={session.costKind}
                focusable={m.key === focusKey}
                onSelect={select}
                onActivate={activate}
                onMessage={message}
                onStop={stop}
                onStopConfirmed={stopConfirmed}
                onFormDone={formDone}
              />
            ))}
          </div>
          <p className="muted team-keys">↑↓←→ move · Enter opens · M messages · S stops · Esc closes</p>
        </div>
        <div className="team-side">
          <div role="tablist" aria-label="Side pane" className="team-tabs">
            <button
              type="button"
              role="tab"
              aria-selected={pane === 'transcript'}
              onClick={() => store.getState().showPane('transcript')}
            >
              Transcript{opened ? `: ${byKey(opened)?.name ?? ''}` : ''}
            </button>
            <button
              type="button"
              role="tab"
              aria-selected={pane === 'messages'}
              onClick={() => store.getState().showPane('messages')}
            >
              Messages{messages > 0 ? ` (${messages})` : ''}
            </button>
          </div>
          <div className="team-pane" role="tabpanel">
            {pane === 'transcript' ? (
              <MemberTranscript sessionId={sessionId} member={byKey(opened)} />
            ) : (
              <Timeline sessionId={sessionId} />
            )}
          </div>
        </div>
      </div>
    </section>
  );
}

/**
 * The team view of one session: its coordinator (or main agent), workers and sub-agents as cards in
 * a tree, with a side pane for the opened member's live transcript and the team's messages. Each
 * panel has its own small store (selection, stuck limit, clock), made from its props.
 */
export function TeamView(props: TeamViewProps) {
  const [store] = useState(() => createTeamViewStore(props));
  return (
    <TeamViewContext.Provider value={store}>
      <TeamPanel />
    </TeamViewContext.Provider>
  );
}
