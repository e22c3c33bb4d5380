import { ServerSentence } from '../../components/ServerSentence.js';
import { RemoteGate } from '../RemoteGate.js';
import { toolDescription } from '../../i18n/toolDescriptions.js';
import { useApp, useT } from '../useApp.js';
import { useRemote } from '../useRemote.js';
import { SkillsSection } from './SkillsSection.js';
import { toolsByTier } from './tiers.js';

/** Every registered tool by tier, with its risk and whether it can be used right now. */
export function ToolsView() {
  const t = useT();
  const locale = useApp((s) => s.locale);
  const catalog = useRemote((c) => c.call('tools.catalog', {}));
  return (
    <section data-testid="tools-view">
      <h1>{t('tools.heading')}</h1>
      <RemoteGate remote={catalog} isEmpty={(d) => d.tools.length === 0} empty={t('tools.empty')} testId="tools-catalog">
        {({ tools }) =>
          toolsByTier(tools).map(([tier, list]) => (
            <div key={tier} className="tier" data-tier={tier}>
              <h2>
                {t(`tier.${tier}`)} <span className="hint">({list.length})</span>
              </h2>
              {list.length === 0 ? (
                <p className="hint">{t('tools.noneInTier')}</p>
              ) : (
                <table className="table">
                  <thead>
                    <tr>
                      <th>{t('tools.col.name')}</th>
                      <th>{t('tools.col.description')}</th>
                      <th>{t('tools.col.risk')}</th>
                      <th>{t('tools.col.availability')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((tool) => (
                      <tr key={tool.name} data-tool={tool.name} data-available={tool.availability.available}>
                        <td>
                          <code>{tool.name}</code>
                        </td>
                        <td data-label={t('tools.col.description')}>{toolDescription(locale, tool)}</td>
                        <td data-label={t('tools.col.risk')}>
                          <span className={`risk risk-${tool.risk}`}>{tool.risk}</span>
                        </td>
                        <td className={tool.availability.available ? 'ok' : 'bad'} data-label={t('tools.col.availability')}>
                          {tool.availability.available ? (
                            t('tools.available')
                          ) : (
                            // Why a tool is unavailable is its own (or the system's) words: shown as they are.
                            <ServerSentence
                              sentence={t('tools.unavailable')}
                              {...(tool.availability.reason && { detail: tool.availability.reason })}
                              separator={t('text.detailSeparator')}
                              plain={locale === 'en'}
                            />
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </div>
          ))
        }
      </RemoteGate>
      <SkillsSection />
    </section>
  );
}
