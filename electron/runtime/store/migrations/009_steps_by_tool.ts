/**
 * Finds a task's `skills.read` steps without reading all its steps. Partial: only those rows are
 * in it, so the writes of every other step (thousands per task) maintain no extra index.
 */
export const stepsByTool = `
CREATE INDEX steps_skill_reads ON steps(task_id, idx, attempt) WHERE tool = 'skills.read';
`;
