import { inAppData, inProject, underEnvironmentHome, underHome, type Locate, type Scope } from './config-locations';

/**
 * How a client supplies, at start-up, a variable the file holds no value for:
 * - `prompt`: it asks the user (VS Code `inputs`, masked for a secret), the file says `${input:id}`;
 * - `shell`: it expands `${NAME}` from the environment it was started in (Claude Code);
 * - `env`: it expands `${env:NAME}` from its environment (Cursor, Windsurf);
 * - `forward`: it passes `NAME` on from its environment when listed in `env_vars` (Codex);
 * - `none`: it has no way (Claude Desktop): the user adds the value by hand.
 */
export type AskStyle = 'prompt' | 'shell' | 'env' | 'forward' | 'none';

/** One client: where its file is, how the file is written, and what a server entry looks like in it. */
export interface ClientSpec {
  /** What `--client` takes. */
  readonly name: string;
  /** The client's name for people. */
  readonly label: string;
  readonly format: 'json' | 'toml';
  /** The key (JSON) or table (TOML) holding the servers by name. */
  readonly key: string;
  /** The file of each scope the client has. */
  readonly files: Readonly<Partial<Record<Scope, Locate>>>;
  /** Whether a stdio entry says `"type": "stdio"`. */
  readonly stdioType: boolean;
  readonly ask: AskStyle;
  /** A Streamable HTTP entry for a URL; absent when the client's file cannot hold one. */
  readonly http?: (url: string) => Readonly<Record<string, unknown>>;
  /** Why there is no HTTP entry, and what to do instead. */
  readonly noHttp?: string;
  /** What the user does once the file is written. */
  readonly afterwards: string;
  /** What to know about the project scope's file, when there is one. */
  readonly projectNote?: string;
}

/** Every client `config` and `install` know, by `--client` name. */
export const CLIENTS: ReadonlyMap<string, ClientSpec> = new Map(([
  {
    name: 'claude',
    label: 'Claude Desktop',
    format: 'json',
    key: 'mcpServers',
    files: { user: inAppData('Claude', ['claude_desktop_config.json'], { linux: false, label: 'Claude Desktop' }) },
    stdioType: false,
    ask: 'none',
    noHttp: 'Claude Desktop\'s file holds no HTTP servers: add the URL in the app as a custom connector (Settings > Connectors)',
    afterwards: 'restart Claude Desktop',
  },
  {
    name: 'claude-code',
    label: 'Claude Code',
    format: 'json',
    key: 'mcpServers',
    files: { user: underHome('.claude.json'), project: inProject('.mcp.json') },
    stdioType: true,
    ask: 'shell',
    http: (url) => ({ type: 'http', url }),
    afterwards: 'start a new Claude Code session (/mcp lists the servers)',
    projectNote: 'Claude Code asks each user to approve a project\'s servers before their first use',
  },
  {
    name: 'cursor',
    label: 'Cursor',
    format: 'json',
    key: 'mcpServers',
    files: { user: underHome('.cursor', 'mcp.json'), project: inProject('.cursor', 'mcp.json') },
    stdioType: false,
    ask: 'env',
    http: (url) => ({ url }),
    afterwards: 'Cursor picks the change up (Settings > MCP shows the server)',
  },
  {
    name: 'vscode',
    label: 'VS Code',
    format: 'json',
    key: 'servers',
    files: { user: inAppData('Code', ['User', 'mcp.json'], { label: 'VS Code' }), project: inProject('.vscode', 'mcp.json') },
    stdioType: true,
    ask: 'prompt',
    http: (url) => ({ type: 'http', url }),
    afterwards: 'VS Code picks the change up (MCP: List Servers shows the server)',
  },
  {
    name: 'windsurf',
    label: 'Windsurf',
    format: 'json',
    key: 'mcpServers',
    files: { user: underHome('.codeium', 'windsurf', 'mcp_config.json') },
    stdioType: false,
    ask: 'env',
    http: (url) => ({ serverUrl: url }),
    afterwards: 'refresh the servers in Windsurf\'s MCP settings (or restart it)',
  },
  {
    name: 'codex',
    label: 'Codex',
    format: 'toml',
    key: 'mcp_servers',
    files: { user: underEnvironmentHome('CODEX_HOME', ['.codex'], ['config.toml']), project: inProject('.codex', 'config.toml') },
    stdioType: false,
    ask: 'forward',
    http: (url) => ({ url }),
    afterwards: 'start a new Codex session (/mcp lists the servers)',
    projectNote: 'Codex reads a project\'s .codex/config.toml only when the project is trusted',
  },
] satisfies ClientSpec[]).map((client) => [client.name, client]));

/** The `--client` names, as usage and messages list them: `claude|claude-code|...`. */
export const CLIENT_NAMES = [...CLIENTS.keys()];
