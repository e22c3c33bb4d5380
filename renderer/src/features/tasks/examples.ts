// The example playbooks are bundled as text so the page can offer them without a server call.
import cleanupOldLogs from '../../../../examples/playbooks/cleanup-old-logs.yaml?raw';
import inventoryReport from '../../../../examples/playbooks/inventory-report.yaml?raw';
import sandboxForm from '../../../../examples/playbooks/sandbox-form.yaml?raw';
import sendStatusUpdate from '../../../../examples/playbooks/send-status-update.yaml?raw';

/** Example playbooks by name. */
export const EXAMPLE_PLAYBOOKS: Record<string, string> = {
  'cleanup-old-logs': cleanupOldLogs,
  'inventory-report': inventoryReport,
  'sandbox-form': sandboxForm,
  'send-status-update': sendStatusUpdate,
};
