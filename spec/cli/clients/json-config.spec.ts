import { expect } from 'chai';
import { mergeJson } from '../../../lib/cli/clients/json-config';

const change = (name: string) => ({ key: 'mcpServers', name, entry: { command: 'node' }, inputs: [] });

describe('mergeJson', () => {
  it('keeps a server named __proto__ a key, not a prototype', () => {
    const { text } = mergeJson(undefined, 'mcp.json', change('__proto__'));
    expect(Object.keys(JSON.parse(text).mcpServers)).to.deep.equal(['__proto__']);
  });

  it('keeps the order of keys, the indentation, CRLF line ends and a missing final line end', () => {
    const { text } = mergeJson('{\r\n\t"a": 1,\r\n\t"mcpServers": {},\r\n\t"z": 2\r\n}', 'mcp.json', change('weather'));
    expect(text).to.equal('{\r\n\t"a": 1,\r\n\t"mcpServers": {\r\n\t\t"weather": {\r\n\t\t\t"command": "node"\r\n\t\t}\r\n\t},\r\n\t"z": 2\r\n}');
  });

  it('replaces VS Code inputs of the same id and keeps the others', () => {
    const old = JSON.stringify({ servers: {}, inputs: [{ type: 'promptString', id: 'mine', description: 'other' }, { type: 'promptString', id: 'w-KEY', description: 'old' }] });
    const input = { type: 'promptString' as const, id: 'w-KEY', description: 'new', password: true };
    const { text } = mergeJson(old, 'mcp.json', { key: 'servers', name: 'w', entry: {}, inputs: [input] });
    expect(JSON.parse(text).inputs).to.deep.equal([{ type: 'promptString', id: 'mine', description: 'other' }, input]);
  });

  it('takes an empty file as an empty configuration', () => {
    expect(JSON.parse(mergeJson('\n', 'mcp.json', change('weather')).text)).to.deep.equal({ mcpServers: { weather: { command: 'node' } } });
  });

  it('accepts fractions and safe integers, and refuses a negative integer beyond them', () => {
    expect(() => mergeJson('{"a": 1.5e300, "b": [9007199254740991, -3]}', 'mcp.json', change('w'))).to.not.throw();
    expect(() => mergeJson('{"a": -9007199254740993}', 'mcp.json', change('w'))).to.throw(/holds the number -9007199254740993/);
  });
});
