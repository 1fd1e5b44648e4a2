/**
 * What the helpers throw when a result is not what the test expected: an `Error` named
 * `AssertionError`, with `actual` and `expected`, which mocha reports like a failed chai
 * assertion.
 */
export class ResultAssertionError extends Error {
  override readonly name = 'AssertionError';

  constructor(message: string, readonly actual?: unknown, readonly expected?: unknown) {
    super(message);
  }
}

/** The results the helpers read: a tool call's, a prompt's, a resource read's (the SDK's or `server.handle`'s outcome). */
export type AnyResult = object;

/**
 * The text of a result, its text parts joined by newlines: the text blocks of a tool result, the
 * text messages of a prompt, the text contents of a resource read. Throws when it has none.
 *
 * @example
 * expect(textOf(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).to.equal('Hello Ada');
 */
export function textOf(result: AnyResult): string {
  const parts = textParts(unwrap(result, 'textOf'));
  if (parts.length === 0) throw new ResultAssertionError(`textOf: the result has no text: ${shown(result)}`, result);
  return parts.join('\n');
}

/**
 * The structured content of a tool result. Throws when the result is an error result (saying its
 * text) or carries no `structuredContent`.
 *
 * @example
 * expect(structuredOf(await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } }))).to.deep.equal({ celsius: 21 });
 */
export function structuredOf<T = Record<string, unknown>>(result: AnyResult): T {
  const value = unwrap(result, 'structuredOf');
  if (value.isError === true) {
    throw new ResultAssertionError(`structuredOf: the tool returned an error result: ${JSON.stringify(textParts(value).join('\n'))}`, result);
  }
  if (value.structuredContent === undefined) throw new ResultAssertionError(`structuredOf: the result has no structuredContent: ${shown(result)}`, result);
  return value.structuredContent as T;
}

/**
 * Checks that a tool result is an error result (`isError: true`) whose text matches `expected`
 * (a pattern, or a string it must contain), and returns that text. Throws, saying what came
 * instead, when it is not.
 *
 * @example
 * expectToolError(await client.callTool({ name: 'forecast', arguments: { city: 'Atlantis' } }), /No forecast/);
 */
export function expectToolError(result: AnyResult, expected?: RegExp | string): string {
  const value = unwrap(result, 'expectToolError');
  const text = textParts(value).join('\n');
  if (value.isError !== true) {
    throw new ResultAssertionError(`expectToolError: expected an error result, but the tool succeeded with ${shown(result)}`, result, expected);
  }
  const matches = expected === undefined || (typeof expected === 'string' ? text.includes(expected) : expected.test(text));
  if (!matches) {
    throw new ResultAssertionError(`expectToolError: expected the error text to ${typeof expected === 'string' ? 'contain' : 'match'} ${describe(expected!)}, but it was ${JSON.stringify(text)}`, text, expected);
  }
  return text;
}

type Fields = Record<string, unknown>;

/** The result itself, or the one inside an outcome of `server.handle`; an error outcome throws, saying the error. */
function unwrap(result: AnyResult, helper: string): Fields {
  if (result === null || typeof result !== 'object') throw new ResultAssertionError(`${helper}: expected a result object, got ${shown(result)}`, result);
  const fields = result as Fields;
  if ('error' in fields && !('content' in fields)) {
    throw new ResultAssertionError(`${helper}: the request failed with an error, not a result: ${shown(fields.error)}`, result);
  }
  if ('result' in fields && typeof fields.result === 'object' && fields.result !== null) return fields.result as Fields;
  return fields;
}

function textParts(result: Fields): string[] {
  const blocks = [
    ...asArray(result.content),
    ...asArray(result.contents),
    ...asArray(result.messages).map((message) => (message as Fields | null)?.content),
  ];
  return blocks.flatMap((block) => {
    const fields = block as Fields | null;
    return typeof fields?.text === 'string' && (fields.type === 'text' || fields.type === undefined) ? [fields.text] : [];
  });
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function describe(expected: RegExp | string): string {
  return typeof expected === 'string' ? JSON.stringify(expected) : String(expected);
}

/** A result as a message shows it: JSON, cut short. */
function shown(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 500 ? `${json.slice(0, 500)}...` : json;
}
