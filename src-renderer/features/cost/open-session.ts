import { goToSession } from '../../ipc/attention';
import { openProject, openSession } from '../../ipc/actions';
import { showToast, useStore } from '../../stores/store';

/**
 * Opens a Carapace session from the dashboard, wherever it ran: in the project on screen at once;
 * in another project, that project first (as the Inbox's "Go to" does), opening its folder when no
 * window has it open. The dashboard closes so the session is in view.
 */
export async function openCostSession(sessionId: string, projectPath: string): Promise<void> {
  const state = useStore.getState();
  state.setCostOpen(false);
  if (state.project?.path === projectPath) {
    await openSession(sessionId);
    return;
  }
  const open = Object.values(state.openProjects).find((p) => p.path === projectPath);
  if (open) {
    await goToSession(open.id, sessionId);
    return;
  }
  if (!(await openProject(projectPath))) {
    showToast(`Could not open the project at ${projectPath}.`);
    return;
  }
  await openSession(sessionId);
}
