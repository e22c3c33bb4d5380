import { useT } from '../useApp.js';
import { useRemote } from '../useRemote.js';

/**
 * The skills the task has in use (read by `skills.read`): while one is, calls outside its
 * allowed tools are refused, so a denial by "skill" is explained right here. Nothing when none.
 */
export function SkillsInUse({ taskId, completedSteps }: { taskId: string; completedSteps: number }) {
  const t = useT();
  // Looked up again as steps complete: a skills.read step is what puts one in use.
  const list = useRemote((c) => c.call('skills.list', { taskId }), [taskId, completedSteps]);
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
