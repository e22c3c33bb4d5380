import { z } from 'zod';
import type { MethodSpec } from './methodSpec.js';
import type { Scope } from './scopes.js';

const spec = <P extends z.ZodType, R extends z.ZodType>(s: MethodSpec<P, R>): MethodSpec<P, R> => s;

/** What a person may do: a viewer sees, an operator runs their own tasks, an approver decides, an admin does all. */
export const RoleSchema = z.enum(['viewer', 'operator', 'approver', 'admin']);
/** A role. */
export type Role = z.infer<typeof RoleSchema>;

/** The operator scopes each role grants (a person's scopes are the union of their roles'). */
export const ROLE_SCOPES: Readonly<Record<Role, readonly Scope[]>> = {
  viewer: ['operator.read'],
  operator: ['operator.read', 'operator.write'],
  approver: ['operator.read', 'operator.approvals'],
  admin: ['operator.read', 'operator.write', 'operator.approvals', 'operator.admin'],
};

/** The scopes a set of roles grants, in the usual order. */
export function scopesOfRoles(roles: readonly Role[]): Scope[] {
  const granted = new Set(roles.flatMap((r) => ROLE_SCOPES[r]));
  return (['operator.read', 'operator.write', 'operator.approvals', 'operator.admin'] as const).filter((s) => granted.has(s));
}

/** Who did something, as recorded on tasks, decisions, grants and tokens: a stable subject and a name to show. */
export const ActorSchema = z.object({
  /** The identity provider's `sub` (`issuer#sub` when signed in), `local` for the gateway's own token, `token:<id>` for an unowned issued token. */
  subject: z.string().min(1).max(500),
  name: z.string().min(1).max(200),
});
/** An actor. */
export type Actor = z.infer<typeof ActorSchema>;

/** The gateway's own token: the single-user default, every role, nothing to set up. */
export const LOCAL_ACTOR: Actor = { subject: 'local', name: 'local operator' };

/** A person known to the gateway: first seen at sign-in; roles from the identity provider's groups or set by an admin. */
export const PersonSchema = ActorSchema.extend({
  email: z.string().optional(),
  roles: z.array(RoleSchema),
  /** The group claim at the person's last sign-in (policy may name a group who may decide). */
  groups: z.array(z.string()),
  /** Set when an admin removed the person: their tokens stop answering and their votes no longer count. */
  disabledAt: z.string().optional(),
  createdAt: z.string(),
  lastSignInAt: z.string().optional(),
});
/** A person. */
export type Person = z.infer<typeof PersonSchema>;

/** Who is calling, as a handler sees it: the actor plus what the gate needs to decide who may approve. */
export interface Caller extends Actor {
  roles: readonly Role[];
  groups: readonly string[];
  /** A person signed in through the identity provider (ownership rules apply), not a bare token. */
  signedIn: boolean;
}

/** `people.*`: who is signed in, and the admin's view of everyone. */
export const PeopleMethods = {
  'people.me': spec({
    params: z.object({}).strict().default({}),
    result: z.object({ subject: z.string(), name: z.string(), roles: z.array(RoleSchema), groups: z.array(z.string()) }),
    scope: 'operator.read',
    orScope: 'operator.approvals',
    sideEffect: false,
    description: 'Who this connection acts as: subject, name, roles and groups.',
  }),
  'people.list': spec({
    params: z.object({}).strict().default({}),
    result: z.object({ people: z.array(PersonSchema) }),
    scope: 'operator.admin',
    sideEffect: false,
    description: 'Everyone who has signed in, with their roles.',
  }),
  'people.update': spec({
    params: z
      .object({
        subject: z.string().min(1).max(500),
        roles: z.array(RoleSchema).max(4).optional(),
        disabled: z.boolean().optional(),
      })
      .strict(),
    result: PersonSchema,
    scope: 'operator.admin',
    sideEffect: true,
    description: 'Set a person’s roles, or remove (disable) them: their tokens stop answering and their pending votes stop counting.',
  }),
} as const;
