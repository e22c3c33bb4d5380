import { useState } from 'react';
import type { Config } from '../../../../electron/contract/index.js';
import { ActionError } from '../ActionError.js';
import { useT } from '../useApp.js';
import { useAction } from '../useRemote.js';
import { linesOf } from './lines.js';

const LISTS = ['deny', 'ask', 'allow'] as const;

/** Policy rules (`Tool(pattern)`, one per line), the network allowlist, and the named profiles. */
export function PolicyPanel({ config, save }: { config: Config; save: (patch: Partial<Config>) => Promise<void> }) {
  const t = useT();
  const policy = config.policy;
  const [rules, setRules] = useState(
    () => Object.fromEntries(LISTS.map((l) => [l, policy.rules[l].join('\n')])) as Record<(typeof LISTS)[number], string>,
  );
  const [network, setNetwork] = useState(policy.networkAllow.join('\n'));
  const action = useAction();
  const profiles = Object.keys(policy.profiles ?? {});

  const submit = () =>
    action.run(() =>
      save({
        policy: {
          ...policy,
          rules: { deny: linesOf(rules.deny), ask: linesOf(rules.ask), allow: linesOf(rules.allow) },
          networkAllow: linesOf(network),
        },
      }),
    );

  return (
    <section className="panel" data-testid="settings-policy">
      <h2>{t('policy.heading')}</h2>
      <p className="hint">{t('policy.hint')}</p>
      <div className="row">
        {LISTS.map((list) => (
          <label key={list}>
            {t(`policy.${list}`)}
            <textarea
              rows={5}
              value={rules[list]}
              onChange={(e) => setRules({ ...rules, [list]: e.target.value })}
              data-testid={`policy-${list}`}
              spellCheck={false}
            />
          </label>
        ))}
        <label>
          {t('policy.networkAllow')}
          <textarea rows={5} value={network} onChange={(e) => setNetwork(e.target.value)} spellCheck={false} />
        </label>
      </div>
      <p>
        {t('policy.profiles')}: {profiles.length === 0 ? t('policy.noProfiles') : profiles.map((p) => <code key={p}>{p} </code>)}
      </p>
      <ActionError error={action.error} />
      <button type="button" disabled={action.busy} onClick={() => void submit()} data-testid="policy-save">
        {t('settings.save')}
      </button>
    </section>
  );
}
