import type { StateCreator } from 'zustand';
import type { ProjectTrustView } from '@shared/domain/trust';

export interface TrustSlice {
  /** The "Trust this folder?" question on screen, if any. */
  trustPrompt: ProjectTrustView | null;
}

export const createTrustSlice: StateCreator<TrustSlice> = () => ({ trustPrompt: null });
