import type { CallToolResult, ContentBlock, JsonObject } from '../core/wire.types';
import { Content, isContentBlock } from './content';

/**
 * Helpers for what a tool returns. A handler may also return a string (text), a content block or
 * an array of them, a plain object (structured content plus its JSON as text), or nothing.
 *
 * @example
 * return ToolResult.json({ temperature: 21 });   // structuredContent + text
 * return ToolResult.error('No such city; try list_cities');
 */
export const ToolResult = Object.freeze({
  /** A result of one text block (what returning a string gives). */
  text(text: string): CallToolResult {
    return { content: [Content.text(text)] };
  },
  /** A plain object becomes `structuredContent`, and its JSON the text for older clients. */
  json(value: JsonObject): CallToolResult {
    return { content: [Content.text(JSON.stringify(value))], structuredContent: value };
  },
  /** A result of the given blocks, in order (build them with `Content`). */
  content(...blocks: ContentBlock[]): CallToolResult {
    return { content: blocks };
  },
  /** A failure the model should see and can act on. */
  error(message: string): CallToolResult {
    return { content: [Content.text(message)], isError: true };
  },
});

function isCallToolResult(value: object): value is CallToolResult {
  const content = (value as { content?: unknown }).content;
  return Array.isArray(content) && content.every(isContentBlock);
}

/** Turns whatever a tool handler returned into a `CallToolResult`. */
export function normaliseToolResult(value: unknown): CallToolResult {
  if (value === undefined || value === null) return { content: [] };
  if (typeof value === 'string') return ToolResult.text(value);
  if (typeof value !== 'object') return ToolResult.text(String(value));
  if (isContentBlock(value)) return { content: [value] };
  if (Array.isArray(value) && value.every(isContentBlock)) return { content: value };
  if (isCallToolResult(value)) return value;
  if (Array.isArray(value)) return { content: [Content.text(JSON.stringify(value))] };
  return ToolResult.json(toJsonObject(value));
}

/** Class instances (an output DTO, say) are sent as their JSON form. */
function toJsonObject(value: object): JsonObject {
  return Object.getPrototypeOf(value) === Object.prototype ? (value as JsonObject) : JSON.parse(JSON.stringify(value));
}
