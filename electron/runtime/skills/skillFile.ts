import { parseDocument } from 'yaml';
import { SkillFrontmatterSchema, type SkillFrontmatter } from '../../contract/index.js';
import { formatIssuePath } from '../errors.js';
import { allowedToolEntries, allowedToolProblems } from './allowedTools.js';

/** The keys of the Agent Skills format; others are kept and noted. */
const KNOWN_KEYS = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools']);

/** A SKILL.md that parsed: its frontmatter, its Markdown body and its `allowed-tools` entries. */
export interface ParsedSkillFile {
  ok: true;
  frontmatter: SkillFrontmatter;
  body: string;
  /** Undefined when the skill does not narrow what a task may call. */
  allowedTools?: string[];
  notes: string[];
}

/** A SKILL.md that did not: one line per problem. */
export interface BadSkillFile {
  ok: false;
  problems: string[];
}

/**
 * Parses a SKILL.md: YAML frontmatter between `---` lines, then Markdown. The frontmatter must
 * name the skill as its folder is named (`folder`), describe it, and list valid tool entries.
 */
export function parseSkillFile(text: string, folder: string): ParsedSkillFile | BadSkillFile {
  const split = splitFrontmatter(text);
  if ('problem' in split) return { ok: false, problems: [split.problem] };
  const document = parseDocument(split.yaml, { prettyErrors: false });
  if (document.errors.length > 0) {
    return { ok: false, problems: document.errors.map((e) => `frontmatter is not valid YAML: ${e.message.split('\n')[0]}`) };
  }
  const raw: unknown = document.toJS();
  const parsed = SkillFrontmatterSchema.safeParse(raw ?? {});
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((i) => `${formatIssuePath(i.path)}: ${i.message}`) };
  const frontmatter = parsed.data;
  const problems: string[] = [];
  if (frontmatter.name !== folder) problems.push(`name: "${frontmatter.name}" must match its folder name "${folder}"`);
  const allowed = frontmatter['allowed-tools'] === undefined ? undefined : allowedToolEntries(frontmatter['allowed-tools']);
  if (allowed) problems.push(...allowedToolProblems(allowed));
  if (problems.length > 0) return { ok: false, problems };
  const unknown = Object.keys(frontmatter).filter((key) => !KNOWN_KEYS.has(key));
  const notes = unknown.length > 0 ? [`frontmatter keys outside the Agent Skills format are ignored: ${unknown.join(', ')}`] : [];
  const foreign = (allowed ?? []).filter((entry) => /^[A-Z]/.test(entry));
  if (foreign.length > 0) {
    notes.push(
      `allowed-tools names no Agent Desk tool (they are lowercase, e.g. fs.read): ${foreign.join(', ')}; while the skill is in use they allow nothing`,
    );
  }
  return { ok: true, frontmatter, body: split.body, ...(allowed && { allowedTools: allowed }), notes };
}

/** The YAML between the opening and closing `---` lines, and the Markdown after them. */
function splitFrontmatter(text: string): { yaml: string; body: string } | { problem: string } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---')
    return { problem: 'SKILL.md must start with YAML frontmatter: a "---" line, name and description, then "---"' };
  const end = lines.findIndex((line, i) => i > 0 && line.trim() === '---');
  if (end === -1) return { problem: 'the frontmatter is never closed: add a "---" line after it' };
  return {
    yaml: lines.slice(1, end).join('\n'),
    body: lines
      .slice(end + 1)
      .join('\n')
      .trim(),
  };
}
