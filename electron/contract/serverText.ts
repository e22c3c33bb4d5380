import { z } from 'zod';

/**
 * A sentence the server shows a person, as a catalog code plus its parameters, so each UI renders
 * it in its reader's language (`route.namedInPlan`, `{ capability: "web.read" }`). It travels next
 * to the English text, which the CLI and logs keep printing and a client shows for an unknown code.
 */
export const ServerTextSchema = z.object({
  code: z.string().min(1).max(100),
  params: z.record(z.string(), z.union([z.string(), z.number()])).default({}),
});
/** A server text. */
export type ServerText = z.infer<typeof ServerTextSchema>;
