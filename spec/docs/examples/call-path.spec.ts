import 'reflect-metadata';
import { expect } from 'chai';
import { connect, expectToolError, structuredOf } from '../../../lib/testing';
import { createServer, echoInProcess } from '../../../docs/examples/call-path';

// docs/concepts/call-path.md, as the page tells it: guards, then the argument pipe, then the
// interceptors around the handler, then the result mapper; the same in both eras.
describe('docs/examples/call-path.ts (the call path)', () => {
  for (const era of ['session', 'stateless'] as const) {
    context(`in the ${era} era`, () => {
      it('takes the guard, then the interceptor around the handler, in that order', async () => {
        const client = await connect(createServer(), { era });
        const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
        expect(structuredOf(result)).to.deep.equal({
          trail: ['guard: tools/call echo', 'interceptor: before', `handler: hi (${era})`, 'interceptor: after'],
        });
        await client.close();
      });

      it('answers arguments the DTO refuses before any interceptor or the handler runs', async () => {
        const seen: string[] = [];
        const server = createServer().use(
          { canActivate: ({ method }) => { seen.push(`guard ${method}`); return true; } },
          { intercept: (_, next) => { seen.push('interceptor'); return next(); } },
        );
        const client = await connect(server, { era });
        seen.length = 0;
        expectToolError(await client.callTool({ name: 'echo', arguments: { text: 'x'.repeat(21) } }), /text/);
        expect(seen).to.deep.equal(['guard tools/call']);
        await client.close();
      });
    });
  }

  it('enters at the router in-process: the same members, no era', async () => {
    expect(await echoInProcess('hi')).to.deep.equal({
      trail: ['guard: tools/call echo', 'interceptor: before', 'handler: hi (in-process)', 'interceptor: after'],
    });
  });
});
