/** Per-task options: the agent it runs as, its policy profile and sandbox mode, readable with the task row. */
export const taskOptions = `
ALTER TABLE tasks ADD COLUMN agent TEXT;
ALTER TABLE tasks ADD COLUMN policy_profile TEXT;
ALTER TABLE tasks ADD COLUMN sandbox TEXT;
UPDATE tasks SET agent = (SELECT agent FROM task_agents WHERE task_agents.task_id = tasks.id);
`;
