import { create } from 'zustand';
import type { ProjectTrustView } from '@shared/domain/trust';

/** The "Trust this folder?" question on screen, if any. */
export interface TrustState {
  prompt: ProjectTrustView | null;
}

export const useTrust = create<TrustState>()(() => ({ prompt: null }));
