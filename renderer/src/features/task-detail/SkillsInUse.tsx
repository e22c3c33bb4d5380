import { useT } from '../useApp.js';
import { useRemote } from '../useRemote.js';

/**
 * The skills the task has in use (read by `skills.read`): while one is, calls outside its
 * allowed tools are refused, so a denial by "skill" is explained right here. Nothing when none.
 */
export function SkillsInUse({ taskId, skillReads }: { taskId: string; skillReads: number }) {
  const t = useT();
  // Only a completed skills.read step puts one in use: asked again when one completes, never before.
  const list = useRemote((c) => (skillReads === 0 ? Promise.resolve(undefined) : c.call('skills.list', { taskId })), [taskId, skillReads]);
  const inUse = list.data?.inUse ?? [];
  if (inUse.length === 0) return null;
  return (
    <p className="skills-in-use" data-testid="skills-in-use">
      {t('detail.skillsInUse')}{' '}
      {inUse.map((skill, i) => (
        <span key={skill.stepId}>
          {i > 0 && ' '}
          <code data-skill={skill.skill} title={skill.allowedTools?.join(' ') ?? t('skills.anyTool')}>
            {skill.skill}
          </code>
        </span>
      ))}
    </p>
  );
}
