import type { ToolDescriptor } from '../../../../electron/contract/index.js';
import { TIERS } from '../../stores/contractValues.js';

/** Tools grouped by tier in the router's order of preference (every tier, even an empty one), by name within. */
export function toolsByTier(tools: readonly ToolDescriptor[]): [ToolDescriptor['tier'], ToolDescriptor[]][] {
  return TIERS.map((tier) => [tier, tools.filter((tool) => tool.tier === tier).sort((a, b) => a.name.localeCompare(b.name))]);
}
