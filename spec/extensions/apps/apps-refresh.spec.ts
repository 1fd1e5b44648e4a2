import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DefinitionError } from '../../../lib/core/errors';
import { Tool } from '../../../lib/decorators/tool.decorator';
import { ToolUi } from '../../../lib/decorators/tool-ui.decorator';
import { apps, type AppsExtension } from '../../../lib/extensions/apps/apps.extension';
import { SILENT_DIAGNOSTICS } from '../../../lib/core/diagnostics';
import { PhantomServer } from '../../../lib/server/phantom-server';

const page = (body: string) => `<!doctype html><html><head></head><body>${body}</body></html>`;

describe('AppsExtension#refresh', () => {
  let folder: string;
  let server: PhantomServer;
  let extension: AppsExtension;

  class Base {
    @Tool({ description: 'Base' })
    base() { return 'base'; }
  }

  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'apps-refresh-'));
    writeFileSync(join(folder, 'later.html'), page('first'));
    extension = apps();
    server = new PhantomServer({ name: 'refresh', version: '1', providers: [Base], diagnostics: SILENT_DIAGNOSTICS, extensions: [extension] });
    await server.start();
  });

  afterEach(async () => {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const listed = async () => ((await server.handle('tools/list', {})) as { result: { tools: { name: string; _meta?: unknown }[] } }).result.tools;
  const read = async (uri: string) => server.handle('resources/read', { uri }) as Promise<{ result?: { contents: { text: string }[] }; error?: { code: number } }>;

  it('serves the View of a tool added after the start, and lists it with _meta.ui only once it is served', async () => {
    const file = join(folder, 'later.html');
    class Later {
      @Tool({ description: 'Added later' })
      @ToolUi({ file })
      later() { return 'later'; }
    }
    expect(extension.settings()).to.equal(undefined);
    server.add(Later);
    expect((await listed()).find((tool) => tool.name === 'later')?._meta).to.equal(undefined);
    expect((await read('ui://tools/later.html')).error).to.not.equal(undefined);

    await extension.refresh();
    expect(extension.settings()).to.deep.equal({});
    expect((await listed()).find((tool) => tool.name === 'later')?._meta).to.deep.equal({ ui: { resourceUri: 'ui://tools/later.html' }, 'ui/resourceUri': 'ui://tools/later.html' });
    expect((await read('ui://tools/later.html')).result?.contents[0].text).to.equal(page('first'));

    writeFileSync(file, page('second'));
    await extension.refresh();
    expect((await read('ui://tools/later.html')).result?.contents[0].text).to.equal(page('second'));

    server.removeTool('later');
    await extension.refresh();
    expect((await read('ui://tools/later.html')).error).to.not.equal(undefined);
    expect(extension.settings()).to.equal(undefined);
  });

  it('changes nothing when a problem is found, and lists every one', async () => {
    class Good {
      @Tool({ description: 'Good' })
      @ToolUi({ html: page('good') })
      good() { return 'good'; }
    }
    server.add(Good);
    await extension.refresh();
    class Broken {
      @Tool({ description: 'Broken' })
      @ToolUi({ file: join(folder, 'missing.html'), visibility: [] })
      broken() { return 'broken'; }
    }
    server.add(Broken);
    const error = await extension.refresh().then(() => undefined, (failure: unknown) => failure);
    expect(error).to.be.instanceOf(DefinitionError);
    expect((error as DefinitionError).problems).to.deep.equal(['apps: Broken#broken: @ToolUi visibility must list "model", "app" or both, each once; got []']);
    expect((await read('ui://tools/good.html')).result?.contents[0].text).to.equal(page('good'));
  });
});
