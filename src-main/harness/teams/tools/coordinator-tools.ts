import type { AnyTool } from '../../tools/tool';
import { SendMessageTool } from './send-message';
import { SyntheticOutputTool } from './synthetic-output';
import { teamCreateTool } from './team-create';
import { TeamDeleteTool } from './team-delete';

/** A coordinator's tools: these four and no others. */
export function coordinatorTools(agentTypes: () => { name: string; description: string }[]): AnyTool[] {
  return [teamCreateTool(agentTypes), TeamDeleteTool, SendMessageTool, SyntheticOutputTool];
}
