import 'reflect-metadata';
import { expect } from 'chai';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { connect, textOf } from 'phantom-mcp/testing';
import { APP_MIME_TYPE, ELICITATION_META_KEY, FORM_SUBMIT_TOOL, FORM_VIEW_URI } from 'phantom-mcp/extensions';
import { createServer } from '../../../docs/examples/apps';

/** Client capabilities of a host that renders MCP Apps (an extension the v1 SDK's types do not know). */
const RENDERS_APPS = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [APP_MIME_TYPE] } } } as never;
const failureOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as McpError);

/** What the MCP Apps guide (docs/guide/apps.md) claims, run against docs/examples/apps.ts. */
describe('docs/examples/apps.ts (the MCP Apps guide)', () => {
  describe('a tool with a View', () => {
    it('is listed with _meta.ui and the legacy ui/resourceUri; the app-only tool with its visibility', async () => {
      const client = await connect(createServer(), { capabilities: RENDERS_APPS });
      const { tools } = await client.listTools();
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      expect(byName.get('roll_dice')?._meta).to.deep.equal({ ui: { resourceUri: 'ui://dice/view.html' }, 'ui/resourceUri': 'ui://dice/view.html' });
      expect(byName.get('reroll')?._meta).to.deep.include({ ui: { resourceUri: 'ui://dice/view.html', visibility: ['app'] } });
      expect(textOf(await client.callTool({ name: 'reroll', arguments: { sides: 2 } }))).to.match(/^Rolled [12] and [12] on d2\.$/);
      await client.close();
    });

    it('hides the app-only tool from a client that does not render apps, in lists and calls', async () => {
      const client = await connect(createServer());
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).to.include('roll_dice').and.not.to.include('reroll');
      expect((await failureOf(client.callTool({ name: 'reroll', arguments: {} })))?.code).to.equal(-32602);
      expect(textOf(await client.callTool({ name: 'roll_dice', arguments: {} }))).to.match(/^Rolled \d and \d on d6\.$/);
      await client.close();
    });

    it('serves the View as a ui:// resource with the app MIME type, the SDK inlined in place of the placeholder', async () => {
      const client = await connect(createServer(), { capabilities: RENDERS_APPS });
      const { contents } = await client.readResource({ uri: 'ui://dice/view.html' });
      const view = contents[0] as { mimeType?: string; text: string; _meta?: Record<string, unknown> };
      expect(view.mimeType).to.equal('text/html;profile=mcp-app');
      expect(view._meta).to.deep.equal({ ui: { prefersBorder: true } });
      expect(view.text).not.to.contain('<script data-mcp-apps-sdk></script>');
      expect(view.text).to.contain('globalThis.McpApps=Object.freeze({');
      await client.close();
    });

    it('declares what the map View may reach, on its listing and its contents, at the default ui:// URI', async () => {
      const client = await connect(createServer(), { capabilities: RENDERS_APPS });
      const expected = {
        ui: {
          csp: { connectDomains: ['https://tiles.example.com'], resourceDomains: ['https://*.example-cdn.com'] },
          permissions: { geolocation: {} },
        },
      };
      const { resources } = await client.listResources();
      expect(resources.find((resource) => resource.uri === 'ui://tools/show_map.html')?._meta).to.deep.equal(expected);
      const { contents } = await client.readResource({ uri: 'ui://tools/show_map.html' });
      expect(contents[0]._meta).to.deep.equal(expected);
      await client.close();
    });
  });

  describe('forms as an app (apps({ forms: true }))', () => {
    it('lists every tool without a View of its own with the form View', async () => {
      const client = await connect(createServer(), { capabilities: RENDERS_APPS });
      const { tools } = await client.listTools();
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      expect((byName.get('book_room')?._meta as any)?.ui?.resourceUri).to.equal(FORM_VIEW_URI);
      expect((byName.get('release_room')?._meta as any)?.ui?.resourceUri).to.equal(FORM_VIEW_URI);
      expect((byName.get('roll_dice')?._meta as any)?.ui?.resourceUri).to.equal('ui://dice/view.html');
      await client.close();
    });

    it('ends the call waiting for the user; the submit tool resumes it with the answer', async () => {
      const client = await connect(createServer(), { capabilities: RENDERS_APPS });
      const waiting = await client.callTool({ name: 'book_room', arguments: {} });
      expect(textOf(waiting)).to.match(/^Waiting for the user: they are asked "Which room\?" in the app/);
      const form = (waiting._meta as any)[ELICITATION_META_KEY];
      expect(form.requestedSchema.properties.room).to.deep.include({ enum: ['Ada', 'Grace', 'Hopper'] });
      const done = await client.callTool({ name: FORM_SUBMIT_TOOL, arguments: { token: form.token, action: 'accept', content: { room: 'Grace' } } });
      expect(textOf(done)).to.equal('Booked Grace.');
      await client.close();
    });

    it('answers unsupported to a question asked with fallback: false, for a host that cannot elicit', async () => {
      const client = await connect(createServer(), { capabilities: RENDERS_APPS });
      expect(textOf(await client.callTool({ name: 'release_room', arguments: {} }))).to.equal('Nothing released (unsupported).');
      await client.close();
    });

    it('gives a client that elicits ordinary elicitation requests', async () => {
      const client = await connect(createServer(), { capabilities: RENDERS_APPS, elicit: { action: 'accept', content: { room: 'Ada' } } });
      expect(textOf(await client.callTool({ name: 'book_room', arguments: {} }))).to.equal('Booked Ada.');
      await client.close();
    });
  });
});
