/**
 * A task's state reason, a step's error and a cron run's reason as catalog codes (JSON `{code, params, detail}`);
 * rows written before keep only the English.
 */
export const stateReasonText = `
ALTER TABLE tasks ADD COLUMN state_reason_text TEXT;
ALTER TABLE cron_runs ADD COLUMN reason_text TEXT;
ALTER TABLE steps ADD COLUMN error_text TEXT;
`;
