import type { ToolDefinition } from '../../definitions/definitions';
import type { VisibilityResolver } from '../visibility';
import type { Negotiation } from './extension';

/**
 * What the protocol layer asks about a tool (a call that may become a task, the stateless era's
 * header check): the tool when it exists and this caller may know it, in this negotiation when
 * given. The same answer `tools/list` and `tools/call` give: the `visible` rule, then the
 * extensions' tool hooks (which may hide a tool from some clients).
 */
export interface ToolVisibility {
  tool(name: string, principal: unknown, negotiation?: Negotiation): ToolDefinition | undefined;
}

/** Whether a client in `negotiation` may know `tool` as the extensions' hooks say. */
export type ToolKnown = (tool: ToolDefinition, negotiation: Negotiation) => boolean;

/** The resolver's tool lookup, with the extensions' hooks after it when there are any. */
export function toolVisibility(visibility: VisibilityResolver, known: ToolKnown | undefined): ToolVisibility {
  if (!known) return visibility;
  return {
    tool(name, principal, negotiation) {
      const tool = visibility.tool(name, principal);
      return tool && (negotiation === undefined || known(tool, negotiation)) ? tool : undefined;
    },
  };
}
