import { z } from 'zod';
import { ComputerActionSchema } from './computerAction.js';
import type { MethodSpec } from './methodSpec.js';
import { StepSchema } from './step.js';
import { TaskSchema } from './task.js';

const spec = <P extends z.ZodType, R extends z.ZodType>(s: MethodSpec<P, R>): MethodSpec<P, R> => s;
const TaskRef = z.object({ taskId: z.string().min(1).max(100) }).strict();

/** A desktop sandbox container as `sandboxes.list` shows it. */
export const SandboxInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  state: z.string(),
  owner: z.string(),
  pid: z.number().int(),
  task: z.string().optional(),
  createdAt: z.string(),
  /** The engine of `sandbox.hosts` it runs on (`local` without hosts). */
  host: z.string().optional(),
});
/** A sandbox listing row. */
export type SandboxInfo = z.infer<typeof SandboxInfoSchema>;

/** Desktop sandbox methods: containers, the live screen, human takeover. */
export const SandboxMethods = {
  'sandboxes.list': spec({
    params: z.object({}).strict().default({}),
    result: z.object({ sandboxes: z.array(SandboxInfoSchema) }),
    scope: 'operator.read',
    sideEffect: false,
    description: "This runtime's desktop sandbox containers.",
  }),
  'sandboxes.destroy': spec({
    params: z.object({ id: z.string().min(1).max(200) }).strict(),
    result: z.object({ destroyed: z.string() }),
    scope: 'operator.admin',
    sideEffect: true,
    description: 'Remove a desktop sandbox container (its task then fails its next GUI step).',
  }),
  'screen.latest': spec({
    params: TaskRef.extend({ format: z.enum(['png', 'jpeg']).default('jpeg') }).strict(),
    result: z.object({
      taskId: z.string(),
      format: z.enum(['png', 'jpeg']),
      width: z.number().int(),
      height: z.number().int(),
      data: z.string(),
      /** The live view's sequence number when the frame came from it (absent: a fresh capture). */
      seq: z.number().int().optional(),
      at: z.string().optional(),
    }),
    scope: 'operator.read',
    sideEffect: false,
    description: "The newest frame of a task's desktop: the live view's last JPEG frame, else a fresh screenshot.",
  }),
  'screen.input': spec({
    params: TaskRef.extend({
      action: ComputerActionSchema,
      /** Typed text is a secret (a password, say): the step records its length, never the text. */
      secret: z.boolean().default(false),
    }).strict(),
    result: z.object({ step: StepSchema }),
    scope: 'operator.write',
    sideEffect: true,
    description:
      "While the task is taken over: perform the user's action on its desktop and record it as a completed step (tool gui.user_action).",
  }),
  'tasks.takeover': spec({
    params: TaskRef,
    result: TaskSchema,
    scope: 'operator.write',
    sideEffect: true,
    description: "Pause the agent and hand the task's desktop to the user.",
  }),
  'tasks.release': spec({
    params: TaskRef,
    result: TaskSchema,
    scope: 'operator.write',
    sideEffect: true,
    description: 'Give the desktop back to the agent and resume the task.',
  }),
} as const;
