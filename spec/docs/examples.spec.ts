import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from 'chai';
import { connect, textOf } from '../../lib/testing';
import { createServer as helloServer } from '../../docs/examples/hello';
import { createServer as bookingServer } from '../../docs/examples/elicitation';
import { booksInBothEras, forecastFromAFake, greetsByName, noForecastIsAToolError } from '../../docs/examples/testing';
import { DOCS, includeProblem, includesOf, markdownPages } from './snippet-includes';

/** Client capabilities of a host that renders MCP Apps (an extension the v1 SDK's types do not know). */
const RENDERS_APPS = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };

/**
 * The docs site's snippets are regions of docs/examples/*.ts: compiled with the project and run
 * here, so a snippet that stops compiling or working fails npm test.
 */
describe('The docs site examples (docs/examples)', () => {
  describe('the pages\' snippet includes', () => {
    it('every `<<< @/...` names a compiled example and a region it has, once', () => {
      const includes = markdownPages().flatMap(includesOf);
      expect(includes.length).to.be.greaterThan(8);
      const problems = includes.flatMap((include) => {
        const problem = includeProblem(include);
        return problem ? [`${include.page}: ${problem}`] : [];
      });
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });

    it('every page with code shows it only through includes (no fenced TypeScript)', () => {
      const fenced = markdownPages().filter((page) => /^```(?:ts|typescript|js|javascript)\b/m.test(readFileSync(resolve(DOCS, page), 'utf8')));
      expect(fenced).to.deep.equal([]);
    });
  });

  describe('hello.ts (getting started)', () => {
    it('lists the greet tool with its DTO as input schema', async () => {
      const client = await connect(helloServer());
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).to.deep.equal(['greet']);
      expect(tools[0].inputSchema.required).to.deep.equal(['name']);
      expect(Object.keys(tools[0].inputSchema.properties ?? {})).to.have.members(['name', 'greeting']);
      await client.close();
    });
  });

  describe('testing.ts (the testing guide, run as written)', () => {
    const checks: Array<[string, () => Promise<void>]> = [
      ['greetsByName', greetsByName],
      ['forecastFromAFake', forecastFromAFake],
      ['noForecastIsAToolError', noForecastIsAToolError],
      ['booksInBothEras', booksInBothEras],
    ];
    for (const [name, check] of checks) {
      it(`${name} passes`, async () => {
        await check();
      });
    }
  });

  describe('elicitation.ts (the elicitation guide)', () => {
    it('book_table tells a declining user no table was booked', async () => {
      const client = await connect(bookingServer(), { elicit: { action: 'decline' } });
      expect(textOf(await client.callTool({ name: 'book_table', arguments: {} }))).to.equal('No table booked (decline).');
      await client.close();
    });

    it('book_table is listed with the form View for hosts that render apps', async () => {
      const client = await connect(bookingServer(), { capabilities: RENDERS_APPS as never });
      const { tools } = await client.listTools();
      const bookTable = tools.find((tool) => tool.name === 'book_table');
      expect(JSON.stringify(bookTable?._meta ?? {})).to.contain('ui://phantom-mcp/elicitation');
      await client.close();
    });
  });
});
