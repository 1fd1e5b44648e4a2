import { expect } from 'chai';
import { CLIENTS } from '../../../lib/cli/clients/client-table';
import type { Place, Scope } from '../../../lib/cli/clients/config-locations';

/** Where a client's file is in a scope, or the refusal's message. */
function fileOf(client: string, scope: Scope, place: Place): string {
  const locate = CLIENTS.get(client)!.files[scope];
  if (!locate) return 'none';
  try {
    return locate(place);
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  }
}

const MAC: Place = { platform: 'darwin', env: { HOME: '/Users/ada' }, cwd: '/Users/ada/app' };
const LINUX: Place = { platform: 'linux', env: { HOME: '/home/ada' }, cwd: '/home/ada/app' };
const WINDOWS: Place = { platform: 'win32', env: { USERPROFILE: 'C:\\Users\\ada', APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, cwd: 'C:\\work\\app' };

describe('CLIENTS (the client table)', () => {
  describe('the user files, per operating system', () => {
    const cases: [string, Place, string][] = [
      ['claude', MAC, '/Users/ada/Library/Application Support/Claude/claude_desktop_config.json'],
      ['claude', WINDOWS, 'C:\\Users\\ada\\AppData\\Roaming\\Claude\\claude_desktop_config.json'],
      ['claude', LINUX, 'refused: Claude Desktop has no linux build, so it has no configuration file here: give one with --file'],
      ['claude-code', MAC, '/Users/ada/.claude.json'],
      ['claude-code', WINDOWS, 'C:\\Users\\ada\\.claude.json'],
      ['cursor', LINUX, '/home/ada/.cursor/mcp.json'],
      ['cursor', WINDOWS, 'C:\\Users\\ada\\.cursor\\mcp.json'],
      ['vscode', MAC, '/Users/ada/Library/Application Support/Code/User/mcp.json'],
      ['vscode', WINDOWS, 'C:\\Users\\ada\\AppData\\Roaming\\Code\\User\\mcp.json'],
      ['vscode', LINUX, '/home/ada/.config/Code/User/mcp.json'],
      ['vscode', { ...LINUX, env: { HOME: '/home/ada', XDG_CONFIG_HOME: '/home/ada/.xdg' } }, '/home/ada/.xdg/Code/User/mcp.json'],
      ['windsurf', MAC, '/Users/ada/.codeium/windsurf/mcp_config.json'],
      ['windsurf', WINDOWS, 'C:\\Users\\ada\\.codeium\\windsurf\\mcp_config.json'],
      ['codex', LINUX, '/home/ada/.codex/config.toml'],
      ['codex', { ...LINUX, env: { HOME: '/home/ada', CODEX_HOME: '/srv/codex' } }, '/srv/codex/config.toml'],
      ['codex', WINDOWS, 'C:\\Users\\ada\\.codex\\config.toml'],
    ];
    for (const [client, place, expected] of cases) {
      it(`${client} on ${place.platform}${place.env.XDG_CONFIG_HOME || place.env.CODEX_HOME ? ' (moved by the environment)' : ''}: ${expected}`, () => {
        expect(fileOf(client, 'user', place)).to.equal(expected);
      });
    }

    it('refuses, naming the variable, when the home folder or APPDATA is not set', () => {
      expect(fileOf('cursor', 'user', { ...LINUX, env: {} })).to.equal('refused: HOME is not set, so the user\'s configuration cannot be found: give the file with --file');
      expect(fileOf('cursor', 'user', { ...WINDOWS, env: {} })).to.match(/^refused: USERPROFILE is not set/);
      expect(fileOf('vscode', 'user', { ...WINDOWS, env: { USERPROFILE: 'C:\\Users\\ada' } })).to.match(/^refused: APPDATA is not set, so VS Code's configuration/);
    });
  });

  describe('the project files', () => {
    it('are in the working directory, for the clients that have one', () => {
      expect(fileOf('claude-code', 'project', LINUX)).to.equal('/home/ada/app/.mcp.json');
      expect(fileOf('cursor', 'project', LINUX)).to.equal('/home/ada/app/.cursor/mcp.json');
      expect(fileOf('vscode', 'project', WINDOWS)).to.equal('C:\\work\\app\\.vscode\\mcp.json');
      expect(fileOf('codex', 'project', MAC)).to.equal('/Users/ada/app/.codex/config.toml');
      expect(fileOf('claude', 'project', MAC)).to.equal('none');
      expect(fileOf('windsurf', 'project', MAC)).to.equal('none');
    });
  });
});
