import { z } from 'zod';
import type { Availability, Task, ToolDescriptor } from '../../contract/index.js';
import { AgentDeskError } from '../errors.js';
import type { AnyTool } from './types.js';

/** The task fields that decide which tools it may use. */
export type ToolUser = Pick<Task, 'agent' | 'policyProfile'>;

/** Given a task, a predicate over the tool names it may be offered, or undefined for all. */
export type TaskToolFilter = (task: ToolUser) => Promise<((tool: string) => boolean) | undefined>;

/** The tools known to the runtime, by unique name. */
export class ToolRegistry {
  private readonly tools = new Map<string, AnyTool>();
  private taskFilter: TaskToolFilter | undefined;
  /** `list()` as last sorted; the router reads it every step, tools change rarely. */
  private sorted: readonly AnyTool[] | undefined;
  private changes = 0;

  /** Narrows the tools offered to a task (its agent's allowlist); the runtime sets it from its policy gate. */
  restrictPerTask(filter: TaskToolFilter): void {
    this.taskFilter = filter;
  }

  /** Which tool names a task may be offered; undefined: every tool. */
  async filterFor(task: ToolUser): Promise<((tool: string) => boolean) | undefined> {
    return this.taskFilter?.(task);
  }

  /** Adds a tool; a second tool with the same name is a conflict, not a silent replacement. */
  register(tool: AnyTool): void {
    if (this.tools.has(tool.name)) {
      throw new AgentDeskError('conflict', `a tool named "${tool.name}" is already registered; unregister it first`, {
        tool: tool.name,
      });
    }
    this.tools.set(tool.name, tool);
    this.sorted = undefined;
    this.changes++;
  }

  /** Removes a tool; returns false when there was none by that name. */
  unregister(name: string): boolean {
    this.sorted = undefined;
    this.changes++;
    return this.tools.delete(name);
  }

  /** Changes whenever a tool is registered or removed (what is derived from the list can be kept until then). */
  get revision(): number {
    return this.changes;
  }

  /** The tool with this name, if any. */
  get(name: string): AnyTool | undefined {
    return this.tools.get(name);
  }

  /** All tools, sorted by name. */
  list(): AnyTool[] {
    this.sorted ??= [...this.tools.values()].sort(byName);
    return [...this.sorted];
  }

  /** Descriptors sorted by name, so prompts built from them stay byte-stable for caching. */
  descriptors(): ToolDescriptor[] {
    return this.list().map(describeTool);
  }
}

/** A tool's public descriptor; never throws, whatever the tool's schema or availability check does. */
export function describeTool(tool: AnyTool): ToolDescriptor {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    tier: tool.tier,
    capabilities: [...tool.capabilities],
    risk: tool.risk,
    readOnly: tool.readOnly,
    idempotent: tool.idempotent,
    inputSchema: inputJsonSchema(tool),
    availability: availabilityOf(tool),
  };
}

/** A tool's availability; a throwing check counts as unavailable, with its message as the reason. */
export function availabilityOf(tool: AnyTool): Availability {
  try {
    return tool.availability();
  } catch (error) {
    return { available: false, reason: `availability check failed: ${(error as Error)?.message ?? String(error)}` };
  }
}

// io 'input': fields with defaults are optional to the caller, which is what a model must see.
function inputJsonSchema(tool: AnyTool): Record<string, unknown> {
  try {
    return z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  } catch {
    return {};
  }
}

function byName(a: AnyTool, b: AnyTool): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
