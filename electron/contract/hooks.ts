import { z } from 'zod';

/**
 * When a hook runs: before a tool call is gated (`PreToolUse`), after it completed
 * (`PostToolUse`), when a goal or a message reaches a task (`UserPromptSubmit`), when a task's
 * first run starts (`TaskStart`) and when it ends (`TaskEnd`), and when an approval is waiting
 * (`Notification`).
 */
export const HookEventSchema = z.enum(['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'TaskStart', 'TaskEnd', 'Notification']);
/** A hook event name. */
export type HookEvent = z.infer<typeof HookEventSchema>;

/** How long a hook command may run when its entry names no `timeout` (seconds, as in Claude Code). */
export const DEFAULT_HOOK_TIMEOUT_S = 60;

/** One command a hook runs: a shell command line, given the event as JSON on stdin. */
export const HookCommandSchema = z
  .object({
    type: z.literal('command'),
    /** Run by `/bin/sh -c` in the task's workspace. */
    command: z.string().min(1).max(10_000),
    /** Seconds before the command (its whole process group) is killed; default 60. */
    timeout: z.number().positive().max(3600).optional(),
  })
  .strict();
/** A hook command. */
export type HookCommand = z.infer<typeof HookCommandSchema>;

/**
 * Commands and the tools they apply to: `matcher` is a tool-name wildcard (`fs.*`), several
 * joined by `|` (`fs.write|fs.delete`); absent, empty or `*` matches every tool. Events without a
 * tool (`UserPromptSubmit`, `TaskStart`, `TaskEnd`, `Notification`) ignore it.
 */
export const HookMatcherSchema = z
  .object({
    matcher: z.string().max(1000).optional(),
    hooks: z.array(HookCommandSchema).min(1).max(32),
  })
  .strict();
/** A hook matcher entry. */
export type HookMatcher = z.infer<typeof HookMatcherSchema>;

const entries = z.array(HookMatcherSchema).max(64).optional();

/** `hooks` in config.json, in the shape of Claude Code's `hooks` setting. */
export const HooksConfigSchema = z
  .object({
    PreToolUse: entries,
    PostToolUse: entries,
    UserPromptSubmit: entries,
    TaskStart: entries,
    TaskEnd: entries,
    Notification: entries,
  })
  .strict();
/** Hooks configuration. */
export type HooksConfig = z.infer<typeof HooksConfigSchema>;

/**
 * What a hook may print on stdout (exit 0), as JSON; unknown fields are ignored. Claude Code's
 * fields are read as they are there: `decision` (`block`/`deny`/`ask`/`allow`/`approve`) with
 * `reason`, and `hookSpecificOutput.permissionDecision` with `permissionDecisionReason` and
 * `additionalContext`. An `allow` is never an approval: it only means "no objection".
 */
export const HookOutputSchema = z.object({
  decision: z.enum(['block', 'deny', 'ask', 'allow', 'approve']).optional(),
  reason: z.string().optional(),
  hookSpecificOutput: z
    .object({
      hookEventName: z.string().optional(),
      permissionDecision: z.enum(['allow', 'deny', 'ask', 'defer']).optional(),
      permissionDecisionReason: z.string().optional(),
      additionalContext: z.string().optional(),
    })
    .optional(),
  additionalContext: z.string().optional(),
});
/** A hook's parsed stdout. */
export type HookOutput = z.infer<typeof HookOutputSchema>;

/** Fields every hook's stdin JSON carries (snake_case, as Claude Code sends them). */
export const HookInputBaseSchema = z.object({
  hook_event_name: HookEventSchema,
  /** The task id (Claude Code scripts read `session_id`). */
  session_id: z.string(),
  task_id: z.string(),
  /** The task's workspace, also the command's working directory. */
  cwd: z.string(),
  task_title: z.string(),
  /** `goal` or `playbook`. */
  task_kind: z.enum(['goal', 'playbook']),
});

/** The stdin JSON of one hook run, by event. Tool arguments and results are redacted: secrets appear as `[secret:name]`, references as `${secret:name}`. */
export const HookInputSchema = z.discriminatedUnion('hook_event_name', [
  HookInputBaseSchema.extend({
    hook_event_name: z.literal('PreToolUse'),
    tool_name: z.string(),
    tool_input: z.unknown(),
    /** The step's plan position (0-based). */
    step_index: z.number().int(),
  }),
  HookInputBaseSchema.extend({
    hook_event_name: z.literal('PostToolUse'),
    tool_name: z.string(),
    tool_input: z.unknown(),
    tool_response: z.unknown(),
    step_index: z.number().int(),
    tool_use_id: z.string(),
  }),
  HookInputBaseSchema.extend({
    hook_event_name: z.literal('UserPromptSubmit'),
    prompt: z.string(),
    /** `goal` at the task's first start, `message` for `tasks.message`. */
    prompt_source: z.enum(['goal', 'message']),
  }),
  HookInputBaseSchema.extend({ hook_event_name: z.literal('TaskStart') }),
  HookInputBaseSchema.extend({
    hook_event_name: z.literal('TaskEnd'),
    state: z.string(),
    reason: z.string().optional(),
  }),
  HookInputBaseSchema.extend({
    hook_event_name: z.literal('Notification'),
    notification_type: z.literal('approval_requested'),
    message: z.string(),
    approval_id: z.string(),
    tool_name: z.string(),
  }),
]);
/** A hook's stdin JSON. */
export type HookInput = z.infer<typeof HookInputSchema>;
