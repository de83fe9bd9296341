import { z } from 'zod';

/** The model id that routes to the in-process scripted server (no key, no base URL configured). */
export const DEMO_MODEL_ID = 'demo';

export const ModelInfo = z.object({
  id: z.string().min(1),
  label: z.string(),
  /** Demo models cost nothing and are labelled so nobody mistakes them for Claude. */
  demo: z.boolean(),
});
export type ModelInfo = z.infer<typeof ModelInfo>;

export const ModelId = z.string().min(1).max(200);
