/**
 * `phantom-mcp/testing`: the testing kit. A connected official SDK client in one call, in either
 * protocol era, with the server's providers and optional overrides; a recording `Context` for
 * calling a handler directly; helpers for the common assertions on results.
 *
 * @example
 * import { connect, textOf } from 'phantom-mcp/testing';
 * const client = await connect(server);
 * expect(textOf(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).to.equal('Hello Ada');
 * await client.close();
 *
 * @module
 */
export { connect, DEFAULT_MAX_ROUNDS, type ConnectOptions, type Override } from './connect';
export { testContext, type TestContext, type TestContextOptions, type RecordedLog, type RecordedProgress } from './test-context';
export { textOf, structuredOf, expectToolError, ResultAssertionError, type AnyResult } from './result-assertions';
export type { Answer, ClientAnswers, ElicitAnswer, RootsAnswer, SampleAnswer } from './client-answers';
export { STATELESS_VERSION } from './stateless-era.transport';
