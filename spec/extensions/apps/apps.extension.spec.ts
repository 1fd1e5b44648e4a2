import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DefinitionError } from '../../../lib/core/errors';
import type { ClientCapabilities } from '../../../lib/core/wire.types';
import { Tool } from '../../../lib/decorators/tool.decorator';
import { ToolUi } from '../../../lib/decorators/tool-ui.decorator';
import { APP_MIME_TYPE, apps, type AppsExtension } from '../../../lib/extensions/apps/apps.extension';
import type { AppsOptions } from '../../../lib/extensions/apps/apps-options';
import type { ExtensionTool, FixedExtensionResource, Negotiation } from '../../../lib/router/extensions/extension';
import { Context } from '../../../lib/context/context';
import { PhantomServer } from '../../../lib/server/phantom-server';
import { recordingHost, type RecordingHost } from '../../support/skill-folders';

const VIEW = '<!doctype html><html><head><meta charset="utf-8"></head><body><p>counter</p></body></html>';
const UI_CLIENT: ClientCapabilities = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [APP_MIME_TYPE] } } } as ClientCapabilities;

class Counter {
  @Tool({ description: 'Show the counter', _meta: { 'com.example/kept': true } })
  @ToolUi({ html: VIEW, csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true })
  show() { return 'count: 0'; }

  @Tool({ description: 'Increment' })
  @ToolUi({ resourceUri: 'ui://tools/show.html', visibility: ['app'] })
  increment() { return 'count: 1'; }

  @Tool({ description: 'Plain' })
  plain() { return 'plain'; }
}

/** The tools of `classes` as a host lists them. */
function toolsOf(...classes: (new () => object)[]): ExtensionTool[] {
  return classes.flatMap((owner) => Object.getOwnPropertyNames(owner.prototype).filter((member) => member !== 'constructor').map((member) => ({
    name: member, owner, member, descriptor: Object.freeze({ name: member, description: member, inputSchema: { type: 'object' as const } }),
  })));
}

const negotiation = (clientCapabilities: ClientCapabilities = {}): Negotiation => ({ era: 'session', protocolVersion: '2025-11-25', clientCapabilities });

async function started(options: AppsOptions = {}, ...classes: (new () => object)[]): Promise<{ extension: AppsExtension; host: RecordingHost; tools: ExtensionTool[] }> {
  const tools = toolsOf(...(classes.length > 0 ? classes : [Counter]));
  const host = recordingHost(undefined, tools);
  const extension = apps(options);
  await extension.setup(host);
  return { extension, host, tools };
}

async function setupProblems(options: AppsOptions, ...classes: (new () => object)[]): Promise<readonly string[]> {
  try {
    await started(options, ...classes);
  } catch (error) {
    expect(error).to.be.instanceOf(DefinitionError);
    return (error as DefinitionError).problems;
  }
  throw new Error('expected setup to fail');
}

const tool = (tools: ExtensionTool[], name: string) => tools.find((candidate) => candidate.name === name)!;

describe('AppsExtension', () => {
  describe('#settings', () => {
    it('advertises {} once some tool has a View', async () => {
      const { extension } = await started();
      expect(extension.settings()).to.deep.equal({});
    });

    context('when no tool has a View', () => {
      it('advertises nothing', async () => {
        class Plain {
          @Tool({ description: 'Plain' })
          plain() { return 'plain'; }
        }
        const { extension, host } = await started({}, Plain);
        expect(extension.settings()).to.equal(undefined);
        expect(host.served).to.deep.equal([]);
      });
    });
  });

  describe('#setup', () => {
    it('serves each View as a ui:// resource with the Apps MIME type and its _meta.ui on the listing and on the read contents', async () => {
      const { host } = await started();
      expect(host.served).to.have.length(1);
      const view = host.served[0] as FixedExtensionResource;
      const ui = { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true };
      expect(view).to.include({ uri: 'ui://tools/show.html', name: 'show view', mimeType: APP_MIME_TYPE });
      expect(view._meta).to.deep.equal({ ui });
      expect(await view.read('ui://tools/show.html', {}, new Context())).to.deep.equal({
        contents: [{ uri: 'ui://tools/show.html', mimeType: APP_MIME_TYPE, text: VIEW, _meta: { ui } }],
      });
    });

    it('reads a View from its file when the server starts', async () => {
      const folder = mkdtempSync(join(tmpdir(), 'apps-view-'));
      try {
        writeFileSync(join(folder, 'view.html'), VIEW);
        class FromFile {
          @Tool({ description: 'From a file' })
          @ToolUi({ file: join(folder, 'view.html'), resourceUri: 'ui://files/view.html', name: 'File view' })
          shown() { return 'shown'; }
        }
        const { host } = await started({}, FromFile);
        const view = host.served[0] as FixedExtensionResource;
        expect(view).to.include({ uri: 'ui://files/view.html', name: 'File view' });
        expect(view._meta).to.equal(undefined);
        expect(await view.read(view.uri, {}, new Context())).to.deep.equal({ contents: [{ uri: view.uri, mimeType: APP_MIME_TYPE, text: VIEW }] });
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    });

    it('fails with every problem of every @ToolUi at once', async () => {
      class Bad {
        @Tool({ description: 'a' })
        @ToolUi({ html: VIEW, file: 'view.html' })
        both() { return ''; }

        @Tool({ description: 'b' })
        @ToolUi({ visibility: ['app'] })
        nothing() { return ''; }

        @Tool({ description: 'c' })
        @ToolUi({ resourceUri: 'https://example.com/view.html', csp: { connectDomains: ['https://x.example'] } })
        elsewhere() { return ''; }

        @Tool({ description: 'd' })
        @ToolUi({ html: VIEW, visibility: ['agent' as never], csp: { scriptDomains: ['x'] } as never, permissions: { camera: true } as never })
        badFields() { return ''; }

        @Tool({ description: 'e' })
        @ToolUi({ file: '/nonexistent/phantom/view.html' })
        missing() { return ''; }

        @ToolUi({ html: VIEW })
        notATool() { return ''; }
      }
      class Clash {
        @Tool({ description: 'f' })
        @ToolUi({ html: VIEW, resourceUri: 'ui://tools/show.html' })
        again() { return ''; }
      }
      const tools = toolsOf(Bad, Counter, Clash).filter((candidate) => candidate.member !== 'notATool');
      const error = await apps().setup(recordingHost(undefined, tools)).then(() => undefined, (failure: unknown) => failure);
      expect(error).to.be.instanceOf(DefinitionError);
      expect((error as DefinitionError).problems).to.deep.equal([
        'apps: Bad#notATool: @ToolUi on a method that is not a @Tool',
        'apps: Bad#both: @ToolUi takes html or file, not both',
        'apps: Bad#nothing: @ToolUi needs html, file, the resourceUri of a View served elsewhere, or forms',
        'apps: Bad#elsewhere: @ToolUi gives csp without html or file: they describe the View, so they go where it is served',
        'apps: Bad#elsewhere: @ToolUi resourceUri must be a ui:// URI; got "https://example.com/view.html"',
        'apps: Bad#badFields: @ToolUi visibility must list "model", "app" or both, each once; got ["agent"]',
        'apps: Bad#badFields: @ToolUi csp.scriptDomains is not a field of MCP Apps (connectDomains, resourceDomains, frameDomains, baseUriDomains)',
        'apps: Bad#badFields: @ToolUi permissions.camera must be an object ({})',
        `apps: Bad#missing: @ToolUi file /nonexistent/phantom/view.html cannot be read: ENOENT: no such file or directory, open '/nonexistent/phantom/view.html'`,
        'apps: Clash#again: @ToolUi serves a View at ui://tools/show.html, which Counter#show serves already (name it with resourceUri and no html or file to share it)',
      ]);
    });

    it('is refused at construction when on a property, as a misplaced @Tool is', () => {
      class Misplaced {
        @Tool({ description: 'Show' })
        show() { return ''; }

        @ToolUi({ html: VIEW })
        declare view: string;
      }
      expect(() => new PhantomServer({ name: 'x', version: '1', providers: [Misplaced], extensions: [apps()] }))
        .to.throw(DefinitionError).with.property('problems').that.deep.equals(['Misplaced#view: @ToolUi belongs on a method']);
    });

    context('when a View asks for the app-side SDK', () => {
      class WithSdk {
        @Tool({ description: 'With the SDK' })
        @ToolUi({ html: '<html><head><script data-mcp-apps-sdk></script></head><body><script type="module">globalThis.McpApps.App</script></body></html>' })
        sdk() { return ''; }
      }

      it('inlines the SDK module in its place, its exports gathered in globalThis.McpApps', async () => {
        const folder = mkdtempSync(join(tmpdir(), 'apps-sdk-'));
        try {
          writeFileSync(join(folder, 'sdk.js'), 'class a{}const s="</script>";export{a as App,s};\n');
          const { host } = await started({ sdkModule: join(folder, 'sdk.js') }, WithSdk);
          const read = await (host.served[0] as FixedExtensionResource).read('ui://tools/sdk.html', {}, new Context()) as { contents: { text: string }[] };
          expect(read.contents[0].text).to.equal('<html><head><script type="module">class a{}const s="<\\/script>";globalThis.McpApps=Object.freeze({App:a,s:s});</script></head>'
            + '<body><script type="module">globalThis.McpApps.App</script></body></html>');
        } finally {
          rmSync(folder, { recursive: true, force: true });
        }
      });

      it('inlines the package\'s app-with-deps module by default', async () => {
        const { host } = await started({}, WithSdk);
        const read = await (host.served[0] as FixedExtensionResource).read('ui://tools/sdk.html', {}, new Context()) as { contents: { text: string }[] };
        const text = read.contents[0].text;
        expect(text).to.match(/^<html><head><script type="module">/);
        expect(text).to.contain('globalThis.McpApps=Object.freeze({');
        expect(text).to.contain('App:');
        expect(text).not.to.contain('data-mcp-apps-sdk');
      });

      it('fails, saying what to do, when the SDK module cannot be read or is no bundled module', async () => {
        const folder = mkdtempSync(join(tmpdir(), 'apps-sdk-'));
        try {
          writeFileSync(join(folder, 'plain.js'), 'module.exports = {};\n');
          expect(await setupProblems({ sdkModule: join(folder, 'missing.js') }, WithSdk)).to.deep.equal([
            `apps: WithSdk#sdk: the MCP Apps SDK module ${join(folder, 'missing.js')} cannot be read: ENOENT: no such file or directory, open '${join(folder, 'missing.js')}'`,
          ]);
          expect(await setupProblems({ sdkModule: join(folder, 'plain.js') }, WithSdk)).to.deep.equal([
            `apps: WithSdk#sdk: the MCP Apps SDK module ${join(folder, 'plain.js')} cannot be inlined: it does not end in an export {...} statement (a self-contained ES module such as app-with-deps.js)`,
          ]);
        } finally {
          rmSync(folder, { recursive: true, force: true });
        }
      });
    });
  });

  describe('#tool', () => {
    it('lists a UI tool with _meta.ui and the flat ui/resourceUri, keeping its own _meta', async () => {
      const { extension, tools } = await started();
      const show = { ...tool(tools, 'show'), descriptor: { ...tool(tools, 'show').descriptor, _meta: { 'com.example/kept': true, ui: { 'com.example/extra': 1 } } } };
      expect(extension.tool(show, negotiation(UI_CLIENT))).to.deep.equal({
        ...show.descriptor,
        _meta: { 'com.example/kept': true, ui: { 'com.example/extra': 1, resourceUri: 'ui://tools/show.html' }, 'ui/resourceUri': 'ui://tools/show.html' },
      });
    });

    it('gives the same listing object for the same descriptor (made once)', async () => {
      const { extension, tools } = await started();
      expect(extension.tool(tool(tools, 'show'), negotiation(UI_CLIENT))).to.equal(extension.tool(tool(tools, 'show'), negotiation()));
    });

    it('leaves a tool without a View as it is', async () => {
      const { extension, tools } = await started();
      expect(extension.tool(tool(tools, 'plain'), negotiation())).to.equal(tool(tools, 'plain').descriptor);
    });

    context('when the tool is app-only', () => {
      it('lists it, with its visibility, to a client that renders Views', async () => {
        const { extension, tools } = await started();
        expect(extension.tool(tool(tools, 'increment'), negotiation(UI_CLIENT))?._meta).to.deep.equal({
          ui: { resourceUri: 'ui://tools/show.html', visibility: ['app'] }, 'ui/resourceUri': 'ui://tools/show.html',
        });
      });

      it('hides it from a client that did not declare the extension, or declared other MIME types', async () => {
        const { extension, tools } = await started();
        expect(extension.tool(tool(tools, 'increment'), negotiation())).to.equal(undefined);
        const other = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html'] } } } as ClientCapabilities;
        expect(extension.tool(tool(tools, 'increment'), negotiation(other))).to.equal(undefined);
      });

      it('lists it to every client with hideAppOnlyTools: false', async () => {
        const { extension, tools } = await started({ hideAppOnlyTools: false });
        expect(extension.tool(tool(tools, 'increment'), negotiation())).not.to.equal(undefined);
      });
    });

    it('leaves the flat key out with legacyResourceUriKey: false', async () => {
      const { extension, tools } = await started({ legacyResourceUriKey: false });
      expect(extension.tool(tool(tools, 'show'), negotiation(UI_CLIENT))?._meta).to.deep.equal({ ui: { resourceUri: 'ui://tools/show.html' } });
    });
  });
});
