import { z } from 'zod';

/** Operator scopes granted to a client session. `operator.admin` implies every scope but `operator.secrets`. */
export const ScopeSchema = z.enum(['operator.read', 'operator.write', 'operator.approvals', 'operator.admin', 'operator.secrets']);
/** One operator scope. */
export type Scope = z.infer<typeof ScopeSchema>;

/** Every scope in the order clients usually ask for them. */
export const ALL_SCOPES: readonly Scope[] = ScopeSchema.options;
