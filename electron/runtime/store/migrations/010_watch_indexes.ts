/** What a store watch reads every look: tasks and approvals changed since a time. */
export const watchIndexes = `
CREATE INDEX tasks_by_updated ON tasks(updated_at);
CREATE INDEX approvals_by_created ON approvals(created_at);
CREATE INDEX approvals_by_decided ON approvals(decided_at);
`;
