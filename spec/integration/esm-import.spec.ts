import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

describe('the published build', () => {
  it('is importable by name from an ES module', () => {
    const entry = pathToFileURL(join(__dirname, '..', '..', 'lib', 'index.js')).href;
    const script = `import * as phantom from '${entry}'; console.log(['PhantomServer','Tool','Resource','Prompt','Elicit','Field','Context','StdioTransport'].map((n) => typeof phantom[n]).join(','));`;
    const printed = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim();
    expect(printed).to.equal('function,function,function,function,function,function,function,function');
  });
});
