import { ServerSentence } from '../../components/ServerSentence.js';
import { RemoteGate } from '../RemoteGate.js';
import { useApp, useT } from '../useApp.js';
import { useRemote } from '../useRemote.js';

/** The user's Agent Skills ($AGENT_DESK_HOME/skills): what goal tasks are offered, and what each narrows them to. */
export function SkillsSection() {
  const t = useT();
  const locale = useApp((s) => s.locale);
  const list = useRemote((c) => c.call('skills.list', {}));
  return (
    <div className="skills" data-testid="skills">
      <h2>{t('skills.heading')}</h2>
      <RemoteGate
        remote={list}
        isEmpty={(d) => d.skills.length === 0 && d.problems.length === 0}
        empty={t('skills.empty')}
        testId="skills-list"
      >
        {({ skills, problems }) => (
          <>
            {skills.length > 0 && (
              <table className="table">
                <thead>
                  <tr>
                    <th>{t('skills.col.name')}</th>
                    <th>{t('skills.col.description')}</th>
                    <th>{t('skills.col.allowed')}</th>
                  </tr>
                </thead>
                <tbody>
                  {skills.map((skill) => (
                    <tr key={skill.name} data-skill={skill.name}>
                      <td>
                        <code>{skill.name}</code>
                      </td>
                      {/* A skill's description is its author's words: shown as written. */}
                      <td data-label={t('skills.col.description')}>{skill.description}</td>
                      <td data-label={t('skills.col.allowed')}>
                        {skill.allowedTools ? <code>{skill.allowedTools.join(' ')}</code> : t('skills.anyTool')}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {problems.map((problem) => (
              <p key={problem.path} className="hint" data-skill-problem={problem.folder}>
                <ServerSentence
                  sentence={t('skills.skipped', { folder: problem.folder })}
                  detail={problem.problems.join('; ')}
                  separator={t('text.detailSeparator')}
                  plain={locale === 'en'}
                />
              </p>
            ))}
          </>
        )}
      </RemoteGate>
    </div>
  );
}
