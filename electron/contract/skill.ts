import { z } from 'zod';

/** A skill name as the Agent Skills format allows it: lowercase letters, digits and single hyphens, at most 64. */
export const SkillNameSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'required' : 'must be a string') })
  .min(1, 'must not be empty')
  .max(64, 'must be at most 64 characters')
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'lowercase letters, digits and single hyphens only, not starting or ending with "-"');

/**
 * `allowed-tools`: a space-delimited string or a list of tool entries (`fs.read`, `fs.*`,
 * `fs.write(reports/**)`), as the Agent Skills format accepts both spellings.
 */
export const AllowedToolsSchema = z.union([z.string(), z.array(z.string().min(1))]);

/**
 * The YAML frontmatter of a `SKILL.md` (agentskills.io). Keys outside the format are kept
 * (other products add their own) and reported as notes by `agent-desk skills list`.
 */
export const SkillFrontmatterSchema = z.looseObject({
  name: SkillNameSchema,
  description: z
    .string({ error: (issue) => (issue.input === undefined ? 'required' : 'must be a string') })
    .trim()
    .min(1, 'must not be empty')
    .max(1024, 'must be at most 1024 characters'),
  license: z.string().min(1).optional(),
  compatibility: z.string().min(1).max(500, 'must be at most 500 characters').optional(),
  /** A map from string keys to string values. */
  metadata: z.record(z.string(), z.string()).optional(),
  'allowed-tools': AllowedToolsSchema.optional(),
});
/** A parsed SKILL.md frontmatter. */
export type SkillFrontmatter = z.infer<typeof SkillFrontmatterSchema>;

/** Where a skill was found: the task workspace's `.agents/skills`, or the user's `$AGENT_DESK_HOME/skills`. */
export const SkillSourceSchema = z.enum(['workspace', 'user']);
/** A skill's source folder kind. */
export type SkillSource = z.infer<typeof SkillSourceSchema>;

/** One usable skill, as `agent-desk skills list --json` prints it. */
export const SkillSummarySchema = z.object({
  name: SkillNameSchema,
  description: z.string(),
  source: SkillSourceSchema,
  /** The skill's folder (absolute). */
  dir: z.string(),
  /** The tool entries the skill narrows a task to while it is in use; absent: no narrowing. */
  allowedTools: z.array(z.string()).optional(),
  license: z.string().optional(),
  compatibility: z.string().optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  /** Non-fatal remarks (keys outside the format, a workspace skill this one shadows). */
  notes: z.array(z.string()),
});
/** A usable skill. */
export type SkillSummary = z.infer<typeof SkillSummarySchema>;

/** A skill folder that could not be used, with one line per problem. */
export const SkillProblemSchema = z.object({
  /** The folder name (what the skill would be called). */
  folder: z.string(),
  source: SkillSourceSchema,
  /** The SKILL.md (or folder) the problems are in. */
  path: z.string(),
  problems: z.array(z.string()).min(1),
});
/** An unusable skill folder. */
export type SkillProblem = z.infer<typeof SkillProblemSchema>;

/** What discovery found: usable skills sorted by name, and the folders it had to skip. */
export const SkillListSchema = z.object({ skills: z.array(SkillSummarySchema), problems: z.array(SkillProblemSchema) });
/** The result of skill discovery. */
export type SkillList = z.infer<typeof SkillListSchema>;
