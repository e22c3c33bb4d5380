import type { Task } from '../../../../electron/contract/index.js';
import { ENDED_STATES } from '../../stores/contractValues.js';
import { ActionError } from '../ActionError.js';
import { useApp, useT } from '../useApp.js';
import { useAction } from '../useRemote.js';
import { downloadText } from './downloadText.js';
import { rerunParams } from './rerun.js';

/** Stop, Pause and Resume while the task runs (each enabled when it applies); Run again once it ended, and Save as playbook once a goal task succeeded. */
export function TaskControls({ task }: { task: Task }) {
  const t = useT();
  const controlTask = useApp((s) => s.controlTask);
  const createTaskWith = useApp((s) => s.createTaskWith);
  const client = useApp((s) => s.client);
  const action = useAction();
  const ended = ENDED_STATES.includes(task.state);

  if (ended)
    return (
      <div className="task-controls" role="toolbar" aria-label={t('detail.controls')}>
        <button
          type="button"
          disabled={action.busy}
          onClick={() =>
            void action.run(async () => {
              window.location.hash = `#/task/${await createTaskWith(rerunParams(task))}`;
            })
          }
        >
          {t('detail.runAgain')}
        </button>
        {task.state === 'succeeded' && task.plan.kind === 'goal' && client && (
          <button
            type="button"
            disabled={action.busy}
            onClick={() =>
              void action.run(async () => {
                const { yaml, playbook } = await client.call('tasks.record', { taskId: task.id });
                downloadText(`${playbook.name}.yaml`, yaml, 'text/yaml');
              })
            }
          >
            {t('detail.saveAsPlaybook')}
          </button>
        )}
        <ActionError error={action.error} />
      </div>
    );
  const paused = task.state === 'paused';
  return (
    <div className="task-controls" role="toolbar" aria-label={t('detail.controls')}>
      <button type="button" className="deny" disabled={action.busy} onClick={() => void action.run(() => controlTask(task.id, 'cancel'))}>
        {t('detail.stop')}
      </button>
      <button type="button" disabled={action.busy || paused} onClick={() => void action.run(() => controlTask(task.id, 'pause'))}>
        {t('detail.pause')}
      </button>
      <button type="button" disabled={action.busy || !paused} onClick={() => void action.run(() => controlTask(task.id, 'resume'))}>
        {t('detail.resume')}
      </button>
      <ActionError error={action.error} />
    </div>
  );
}
