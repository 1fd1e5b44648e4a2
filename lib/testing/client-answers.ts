import type {
  ClientCapabilities, CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult, ListRootsResult, Root,
} from '@modelcontextprotocol/sdk/types.js';

/** A client's answer to one kind of server request: a fixed result, or a function of the request's params. */
export type Answer<Params, Result> = Result | ((params: Params) => Result | Promise<Result>);

/** What the test client answers to `elicitation/create`: e.g. `{ action: 'accept', content: { city: 'Oslo' } }`. */
export type ElicitAnswer = Answer<ElicitRequestParams, ElicitResult>;

/** What the test client answers to `sampling/createMessage`: e.g. `{ role: 'assistant', model: 'fake', content: { type: 'text', text: 'Hi' } }`. */
export type SampleAnswer = Answer<CreateMessageRequestParams, CreateMessageResult>;

/** What the test client answers to `roots/list`: the roots (a list is short for `{ roots: list }`). */
export type RootsAnswer = Answer<Record<string, unknown> | undefined, ListRootsResult | Root[]>;

/** The client's answers to the server's requests; each one given also declares its capability. */
export interface ClientAnswers {
  /** Answers `ctx.elicit` (form and URL mode alike). */
  readonly elicit?: ElicitAnswer;
  /** Answers `ctx.sample`. */
  readonly sample?: SampleAnswer;
  /** Answers `ctx.listRoots`. */
  readonly roots?: RootsAnswer;
}

/** The request methods the answers serve, by the answer's name. */
const ANSWERED = Object.freeze({
  'elicitation/create': 'elicit',
  'sampling/createMessage': 'sample',
  'roots/list': 'roots',
} as const);

/** The capabilities the given answers declare (elicitation in both modes, sampling, roots), under the ones written out. */
export function capabilitiesOf(answers: ClientAnswers, declared: ClientCapabilities = {}): ClientCapabilities {
  return {
    ...(answers.elicit !== undefined ? { elicitation: { form: {}, url: {} } } : {}),
    ...(answers.sample !== undefined ? { sampling: {} } : {}),
    ...(answers.roots !== undefined ? { roots: {} } : {}),
    ...declared,
  };
}

/**
 * The answer to one server request (`method` with `params`), from the given answers. Rejects,
 * naming the option to set, when the server asked for something the test gave no answer for.
 */
export async function answerTo(answers: ClientAnswers, method: string, params: unknown): Promise<Record<string, unknown>> {
  const name = Object.hasOwn(ANSWERED, method) ? ANSWERED[method as keyof typeof ANSWERED] : undefined;
  if (name === undefined) throw new Error(`phantom-mcp/testing: the server sent ${method}, which the test client cannot answer`);
  const answer = answers[name] as Answer<unknown, unknown> | undefined;
  if (answer === undefined) {
    throw new Error(`phantom-mcp/testing: the server sent ${method}, but the test gave no \`${name}\` answer; pass { ${name}: ... }`);
  }
  const result = typeof answer === 'function' ? await answer(params) : answer;
  return (name === 'roots' && Array.isArray(result) ? { roots: result } : result) as Record<string, unknown>;
}
