import { expect } from 'chai';
import { registryRepository } from '../../../lib/cli/distribution/repository-source';

describe('registryRepository', () => {
  it('turns each form npm accepts for GitHub and GitLab into a browsable https URL and its source', () => {
    const github = { url: 'https://github.com/acme/weather', source: 'github' };
    for (const url of ['git+https://github.com/acme/weather.git', 'https://github.com/acme/weather', 'git://github.com/acme/weather.git', 'git+ssh://git@github.com/acme/weather.git', 'git@github.com:acme/weather.git', 'github:acme/weather', 'acme/weather']) {
      expect(registryRepository({ url }), url).to.deep.equal(github);
    }
    expect(registryRepository({ url: 'gitlab:acme/weather' })).to.deep.equal({ url: 'https://gitlab.com/acme/weather', source: 'gitlab' });
    expect(registryRepository({ url: 'https://gitlab.com/acme/group/weather.git' })).to.deep.equal({ url: 'https://gitlab.com/acme/group/weather', source: 'gitlab' });
  });

  it('gives a monorepo package\'s directory as its subfolder', () => {
    expect(registryRepository({ url: 'https://github.com/acme/tools', directory: './packages/weather/' })).to.deep.equal({ url: 'https://github.com/acme/tools', source: 'github', subfolder: 'packages/weather' });
  });

  it('says why it leaves out a repository on another host, or none', () => {
    expect(registryRepository({ url: 'https://bitbucket.org/acme/weather' })).to.match(/is not on GitHub or GitLab/);
    expect(registryRepository(undefined)).to.match(/has no "repository"/);
  });
});
