import type { z } from 'zod';
import type { Scope } from './scopes.js';

/** The shape half of an RPC method: the runtime adds the handler. */
export interface MethodSpec<P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  params: P;
  result: R;
  scope: Scope;
  /** A second scope that also opens the method (an approvals-only token may list approvals). */
  orScope?: Scope;
  /** Side-effecting methods accept an idempotency key. */
  sideEffect: boolean;
  description: string;
}
