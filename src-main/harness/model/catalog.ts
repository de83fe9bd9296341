import { DEMO_MODEL_ID, type ModelInfo } from '@shared/domain/models';

export const DEMO_MODEL: ModelInfo = { id: DEMO_MODEL_ID, label: 'Demo model (scripted, free)', demo: true };

/** Models offered in the picker. Any other id typed by the user is passed through to the API. */
export const CLAUDE_MODELS: readonly ModelInfo[] = [
  { id: 'claude-sonnet-4-5', label: 'Claude Sonnet 4.5', demo: false },
  { id: 'claude-opus-4-5', label: 'Claude Opus 4.5', demo: false },
  { id: 'claude-haiku-4-5', label: 'Claude Haiku 4.5', demo: false },
  { id: 'claude-opus-4-1', label: 'Claude Opus 4.1', demo: false },
];

export const DEFAULT_CLAUDE_MODEL = 'claude-sonnet-4-5';
