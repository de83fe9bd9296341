import { z } from 'zod';

/** What a widening item in a project's own settings would change. */
export const TrustItemKind = z.enum(['allow', 'sandbox', 'hook', 'mcp', 'env', 'apiKeyHelper', 'plugin']);
export type TrustItemKind = z.infer<typeof TrustItemKind>;

/** One thing a project's `.claude/settings*.json` or `.mcp.json` would widen, if the folder were trusted. */
export const TrustItem = z.object({
  kind: TrustItemKind,
  /** Stable, content-based: a changed item is a new key, asked about again. */
  key: z.string(),
  /** The file it comes from, relative to the project. */
  file: z.string(),
  /** In words, for the prompt. */
  label: z.string(),
});
export type TrustItem = z.infer<typeof TrustItem>;

export const ProjectTrustView = z.object({
  projectId: z.string(),
  path: z.string(),
  items: z.array(TrustItem.extend({ state: z.enum(['accepted', 'declined', 'pending']) })),
  /** How many items nobody has decided on: the "Trust this folder?" prompt shows when above 0. */
  pending: z.number(),
});
export type ProjectTrustView = z.infer<typeof ProjectTrustView>;

export const TrustedFolder = z.object({
  path: z.string(),
  accepted: z.number(),
  declined: z.number(),
  updatedAt: z.string(),
});
export type TrustedFolder = z.infer<typeof TrustedFolder>;
