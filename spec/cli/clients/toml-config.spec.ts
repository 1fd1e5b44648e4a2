import { expect } from 'chai';
import { mergeToml, tomlString, tomlTable } from '../../../lib/cli/clients/toml-config';

const change = (entry: Record<string, unknown>, name = 'weather') => ({ key: 'mcp_servers', name, entry, inputs: [] });

describe('toml-config', () => {
  describe('tomlString', () => {
    it('escapes quotes, backslashes (Windows paths) and control characters', () => {
      expect(tomlString('C:\\Program Files\\node.exe')).to.equal('"C:\\\\Program Files\\\\node.exe"');
      expect(tomlString('say "hi"\n\t\u0001\u007f')).to.equal('"say \\"hi\\"\\n\\t\\u0001\\u007f"');
    });
  });

  describe('tomlTable', () => {
    it('writes strings and arrays, then each object as a sub-table', () => {
      expect(tomlTable(['mcp_servers', 'my.server'], { command: 'node', env: { A: '1' }, args: ['x', 'y'] })).to.equal(
        '[mcp_servers."my.server"]\ncommand = "node"\nargs = ["x", "y"]\n\n[mcp_servers."my.server".env]\nA = "1"\n',
      );
    });
  });

  describe('mergeToml', () => {
    it('keeps CRLF line ends', () => {
      const { text } = mergeToml('model = "x"\r\n', 'config.toml', change({ command: 'node' }));
      expect(text).to.equal('model = "x"\r\n\r\n[mcp_servers.weather]\r\ncommand = "node"\r\n');
    });

    it('finds the table however its header is quoted and spaced, and keeps tables between its sub-tables', () => {
      const old = '[ mcp_servers . "weather" ]\ncommand = "old"\n\n[other]\na = 1\n\n[mcp_servers.\'weather\'.env]\nB = "2"\n';
      const { text, replaced } = mergeToml(old, 'config.toml', change({ command: 'new' }));
      expect(replaced).to.equal(true);
      expect(text).to.equal('[mcp_servers.weather]\ncommand = "new"\n\n[other]\na = 1\n');
    });

    it('is not fooled by a header-like line inside a multi-line string', () => {
      const old = 'notes = """\n[mcp_servers.weather]\n"""\n';
      const { text, replaced } = mergeToml(old, 'config.toml', change({ command: 'node' }));
      expect(replaced).to.equal(false);
      expect(text.startsWith(old)).to.equal(true);
    });

    it('refuses mcp_servers as an inline table, and an array of tables', () => {
      expect(() => mergeToml('mcp_servers = { other = { command = "x" } }\n', 'config.toml', change({ command: 'node' }))).to.throw(/"mcp_servers" as an inline table/);
      expect(() => mergeToml('[[mcp_servers]]\nname = "x"\n', 'config.toml', change({ command: 'node' }))).to.throw(/an array of tables/);
    });

    it('leaves another server whose name starts the same alone', () => {
      const old = '[mcp_servers.weather2]\ncommand = "x"\n';
      expect(mergeToml(old, 'config.toml', change({ command: 'node' })).text).to.equal(`${old}\n[mcp_servers.weather]\ncommand = "node"\n`);
    });
  });
});
