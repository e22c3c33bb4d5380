import { describe, expect, it } from 'vitest';
import { cliName } from '../../../electron/cli/cliName.js';

describe('the CLI name printed in hints', () => {
  it('is agent-desk when run as an installed bin', () => {
    expect(cliName('/usr/local/bin/agent-desk', '/home/ada')).toBe('agent-desk');
  });
  it('is node with the path to the script, as typed from the repository root', () => {
    expect(cliName('/work/agent-desk/bin/agent-desk.js', '/work/agent-desk')).toBe('node bin/agent-desk.js');
  });
  it('is node with the absolute path from elsewhere, quoted when it has a space', () => {
    expect(cliName('/opt/agent desk/bin/agent-desk.js', '/home/ada')).toBe('node "/opt/agent desk/bin/agent-desk.js"');
  });
});
