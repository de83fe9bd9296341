import { z } from 'zod';
import { SessionId } from '../../domain/session';

/** Small schemas shared by several namespaces of the contract. */

export const Empty = z.strictObject({});
export const ProjectRef = z.strictObject({ projectId: z.string().min(1).max(500) });
export const SessionRef = z.strictObject({ sessionId: SessionId });

/** One request channel: the schema of its input and of its output. */
export function channel<I extends z.ZodType, O extends z.ZodType>(
  input: I,
  output: O,
): { input: I; output: O } {
  return { input, output };
}
