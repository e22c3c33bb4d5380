import { z } from 'zod';
import { ErrorShapeSchema } from './errors.js';

/** A request frame, as sent over WebSocket or IPC. */
export const RpcRequestSchema = z
  .object({
    id: z.union([z.string().max(200), z.number().int()]),
    method: z.string().min(1).max(200),
    params: z.unknown().optional(),
    /** Repeating a side-effecting call with the same key returns the first result. */
    idempotencyKey: z.string().min(1).max(200).optional(),
  })
  .strict();
/** An RPC request. */
export type RpcRequest = z.infer<typeof RpcRequestSchema>;

/** A response frame: `result` or `error`, never both. */
export const RpcResponseSchema = z.union([
  z.object({ id: z.union([z.string(), z.number(), z.null()]), result: z.unknown() }),
  z.object({ id: z.union([z.string(), z.number(), z.null()]), error: ErrorShapeSchema }),
]);
/** An RPC response. */
export type RpcResponse = z.infer<typeof RpcResponseSchema>;
