import { z } from 'zod';

/** A server text's parameter: a value, or a text of its own (a preview summary inside a state reason), or a list of texts. */
export type ServerTextParam = string | number | ServerText | ServerText[];

/** A server text (see ServerTextSchema). */
export interface ServerText {
  code: string;
  params: Record<string, ServerTextParam>;
  /** Machine words no catalog can hold (a tool's error message, a model's own words): shown verbatim, as code. */
  detail?: string;
}

/**
 * A sentence the server shows a person, as a catalog code plus its parameters, so each UI renders
 * it in its reader's language (`route.namedInPlan`, `{ capability: "web.read" }`). It travels next
 * to the English text, which the CLI and logs keep printing and a client shows for an unknown code.
 */
export const ServerTextSchema: z.ZodType<ServerText, { code: string; params?: Record<string, unknown>; detail?: string }> = z.lazy(() =>
  z.object({
    code: z.string().min(1).max(100),
    params: z.record(z.string(), z.union([z.string(), z.number(), ServerTextSchema, z.array(ServerTextSchema)])).default({}),
    detail: z.string().optional(),
  }),
);
