import { z } from 'zod';

/** Stable error codes every RPC client can switch on. */
export const ErrorCodeSchema = z.enum([
  'invalid_request',
  'method_not_found',
  'invalid_params',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'invalid_playbook',
  'budget_exceeded',
  'unavailable',
  /** The data folder or its database is broken (corrupt, read-only, disk full, not a folder). */
  'bad_state',
  'internal',
]);
/** A stable error code. */
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

/** One problem inside a payload, located by a dotted path such as `steps[2].args.path`. */
export const IssueSchema = z.object({ path: z.string(), message: z.string() });
/** One located problem. */
export type Issue = z.infer<typeof IssueSchema>;

/** The typed error shape returned by every boundary: RPC, CLI `--json`, IPC. */
export const ErrorShapeSchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  details: z.unknown().optional(),
});
/** A typed error as it crosses a boundary. */
export type ErrorShape = z.infer<typeof ErrorShapeSchema>;
