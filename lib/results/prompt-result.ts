import type { ContentBlock, GetPromptResult, PromptMessage, Role } from '../core/wire.types';
import { shallowCopy } from '../core/shallow-copy';
import { Content, isContentBlock } from './content';

/** A user message with text. */
export function userText(text: string): PromptMessage {
  return { role: 'user', content: Content.text(text) };
}

/** An assistant message with text. */
export function assistantText(text: string): PromptMessage {
  return { role: 'assistant', content: Content.text(text) };
}

/** A message with any content block (image, audio, embedded resource, link). */
export function promptMessage(role: Role, content: ContentBlock): PromptMessage {
  return { role, content };
}

function isMessage(value: unknown): value is PromptMessage {
  if (typeof value !== 'object' || value === null) return false;
  const { role, content } = value as PromptMessage;
  return (role === 'user' || role === 'assistant') && isContentBlock(content);
}

function toMessage(value: unknown): PromptMessage {
  if (isMessage(value)) return value;
  if (isContentBlock(value)) return { role: 'user', content: value };
  return userText(typeof value === 'string' ? value : JSON.stringify(value));
}

/**
 * Turns whatever a prompt handler returned into a `GetPromptResult`: a string is one user
 * message, a message or content block is one message, an array is several, and an object with
 * `messages` is taken as it is. `description` defaults to the prompt's own.
 */
export function normalisePromptResult(value: unknown, description?: string): GetPromptResult {
  if (typeof value === 'object' && value !== null && Array.isArray((value as GetPromptResult).messages)) {
    const result = value as GetPromptResult;
    const copy = shallowCopy(result) as { description?: string; messages: GetPromptResult['messages'] };
    copy.description = result.description ?? description;
    copy.messages = result.messages.map(toMessage);
    return copy as GetPromptResult;
  }
  const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  const messages = items.map(toMessage);
  return description === undefined ? { messages } : { description, messages };
}
