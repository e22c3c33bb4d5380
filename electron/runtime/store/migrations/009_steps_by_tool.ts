/** Finds a task's steps of one tool without reading all its steps (the gate looks up `skills.read` steps at every decision). */
export const stepsByTool = `
CREATE INDEX steps_by_task_tool ON steps(task_id, tool, idx, attempt);
`;
