/**
 * Change notices for gateways on PostgreSQL: a committed change to a task's row or an approval's
 * status sends its id on the `agent_desk_changes` channel (LISTEN/NOTIFY, delivered at commit,
 * the same id once per transaction). A trigger, so every writer of any version notifies; a
 * store watch reads the rows by id. SQLite has no channel: its watch asks `data_version`.
 */
export const changeNotices = `-- PostgreSQL only: a SQLite store is watched through its data_version.`;

export const changeNoticesPostgres = `
CREATE FUNCTION agent_desk_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('agent_desk_changes', TG_ARGV[0] || ':' || NEW.id);
  RETURN NULL;
END $$;
CREATE TRIGGER tasks_notify AFTER INSERT OR UPDATE OF updated_at ON tasks
  FOR EACH ROW EXECUTE FUNCTION agent_desk_notify_change('task');
CREATE TRIGGER approvals_notify_insert AFTER INSERT ON approvals
  FOR EACH ROW EXECUTE FUNCTION agent_desk_notify_change('approval');
CREATE TRIGGER approvals_notify_decided AFTER UPDATE OF status ON approvals
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION agent_desk_notify_change('approval');
`;
