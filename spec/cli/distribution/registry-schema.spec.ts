import { expect } from 'chai';
import { registrySchemaProblems } from '../../../lib/cli/distribution/registry-schema';

const VALID = { name: 'io.github.acme/weather', description: 'Forecasts', version: '1.0.0', packages: [{ registryType: 'npm', identifier: 'weather', version: '1.0.0', transport: { type: 'stdio' } }] };

describe('registrySchemaProblems', () => {
  it('finds none in a valid document', () => {
    expect(registrySchemaProblems(VALID)).to.deep.equal([]);
  });

  it('names the path of each problem, formats included', () => {
    const problems = registrySchemaProblems({ ...VALID, description: 'x'.repeat(101), websiteUrl: 'not a url', packages: [{ ...VALID.packages[0], version: 'latest' }] });
    expect(problems).to.include('/description: must NOT have more than 100 characters');
    expect(problems).to.include('/websiteUrl: must match format "uri"');
    expect(problems).to.include('/packages/0/version: must NOT be valid');
  });
});
