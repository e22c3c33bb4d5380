import { z } from 'zod';
import type { MethodSpec } from './methodSpec.js';

const spec = <P extends z.ZodType, R extends z.ZodType>(s: MethodSpec<P, R>): MethodSpec<P, R> => s;

/** A spend limit in dollars, tokens (input + output), or both; reaching either asks. */
export const SpendLimitSchema = z
  .object({
    usd: z.number().positive().max(1_000_000).optional().describe('Dollars, priced by `models.prices`.'),
    tokens: z.number().int().positive().optional().describe('Input plus output tokens.'),
  })
  .strict();
/** A spend limit. */
export type SpendLimit = z.infer<typeof SpendLimitSchema>;

/**
 * `budgets` in config.json: spend limits kept in the store across every worker. A person is a
 * task's owner (`local` before people); the team is everyone on this store. Days and months are UTC.
 */
export const SpendBudgetsConfigSchema = z
  .object({
    perPersonDaily: SpendLimitSchema.optional().describe('What each person’s tasks may spend per UTC day, together.'),
    perTeamMonthly: SpendLimitSchema.optional().describe('What all tasks on this store may spend per UTC month, together.'),
  })
  .strict();
/** The spend limits of config.json. */
export type SpendBudgetsConfig = z.infer<typeof SpendBudgetsConfigSchema>;

/** Which limit stopped a task: its own budget, its owner's day, the team's month, or a loop. */
export const BudgetLimitKindSchema = z.enum(['task', 'person', 'team', 'loop']);
/** A limit kind. */
export type BudgetLimitKind = z.infer<typeof BudgetLimitKindSchema>;

/** What the limit counts: dollars, tokens, steps, running time, or repeats of one call (a loop). */
export const BudgetMetricSchema = z.enum(['usd', 'tokens', 'steps', 'wallMs', 'repeats']);
/** A metric. */
export type BudgetMetric = z.infer<typeof BudgetMetricSchema>;

/** How a hold ended: raised (the task continues), declined (it is cancelled), or replaced by a newer hold. */
export const BudgetHoldOutcomeSchema = z.enum(['raised', 'declined', 'superseded']);

/**
 * A task stopped at a limit, waiting in the store for a person who may raise it: "this task has
 * spent $2.50 of $2.50; raise by $1?". It survives restarts; `budgets.raise` answers it.
 */
export const BudgetHoldSchema = z.object({
  id: z.string(),
  taskId: z.string(),
  limit: BudgetLimitKindSchema,
  metric: BudgetMetricSchema,
  /** What was spent against the limit when the task stopped (dollars for usd). */
  spent: z.number(),
  /** The limit then (raises already counted). */
  cap: z.number(),
  /** The raise the question suggests, in the metric's unit. */
  raiseBy: z.number(),
  /** The person (limit person) whose day it is. */
  subject: z.string().optional(),
  /** The UTC day (person) or month (team) the limit is for. */
  period: z.string().optional(),
  askedAt: z.string(),
  decidedAt: z.string().optional(),
  decidedBy: z.object({ subject: z.string(), name: z.string() }).optional(),
  outcome: BudgetHoldOutcomeSchema.optional(),
  /** The raise given, in the metric's unit. */
  raised: z.number().optional(),
});
/** A budget hold. */
export type BudgetHold = z.infer<typeof BudgetHoldSchema>;

/** Spend in dollars and tokens. */
export const SpendSchema = z.object({ usd: z.number(), tokens: z.number().int() });
/** Spend. */
export type Spend = z.infer<typeof SpendSchema>;

/** One person's spend on a day, with the limit that applies to it (raises counted). */
export const PersonSpendSchema = SpendSchema.extend({
  subject: z.string(),
  name: z.string(),
  limit: SpendLimitSchema.optional(),
});
/** A person's spend. */
export type PersonSpend = z.infer<typeof PersonSpendSchema>;

/** `spend.summary` result: each person's spend on the day, and the team's in the month. */
export const SpendSummarySchema = z.object({
  day: z.string(),
  month: z.string(),
  people: z.array(PersonSpendSchema),
  team: SpendSchema.extend({ limit: SpendLimitSchema.optional() }),
});
/** A spend summary. */
export type SpendSummary = z.infer<typeof SpendSummarySchema>;

const TaskRef = z.object({ taskId: z.string().min(1).max(100) }).strict();
const DAY = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a UTC day as YYYY-MM-DD');

/** Budgets that pause and ask: the hold a task waits on, raising or declining it, and who spent what. */
export const SpendMethods = {
  'budgets.hold': spec({
    params: TaskRef,
    result: z.object({ hold: BudgetHoldSchema.optional() }),
    scope: 'operator.read',
    orScope: 'operator.approvals',
    sideEffect: false,
    description: 'The budget question a task waits on (limit, spend, suggested raise), if any.',
  }),
  'budgets.raise': spec({
    params: TaskRef.extend({
      by: z
        .number()
        .positive()
        .max(1_000_000)
        .optional()
        .describe('The raise in the limit’s unit (dollars, tokens, steps, ms); default: the suggested one.'),
    }).strict(),
    result: z.object({ hold: BudgetHoldSchema }),
    scope: 'operator.approvals',
    sideEffect: true,
    description: 'Raise the limit a task stopped at (its own budget, its owner’s day or the team’s month) and let it continue.',
  }),
  'budgets.decline': spec({
    params: TaskRef.extend({ reason: z.string().max(500).optional() }).strict(),
    result: z.object({ hold: BudgetHoldSchema }),
    scope: 'operator.approvals',
    sideEffect: true,
    description: 'Refuse to raise the limit a task stopped at: the task is cancelled.',
  }),
  'spend.summary': spec({
    params: z.object({ day: DAY.optional() }).strict().default({}),
    result: SpendSummarySchema,
    scope: 'operator.read',
    sideEffect: false,
    description: 'What each person spent on a UTC day (default today) and the team in its month, with the limits.',
  }),
} as const;
