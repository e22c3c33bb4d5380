/** A task's state reason as a catalog code (JSON `{code, params}`); rows before it keep only the English. */
export const stateReasonText = `
ALTER TABLE tasks ADD COLUMN state_reason_text TEXT;
`;
