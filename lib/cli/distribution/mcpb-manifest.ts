import type { EnvironmentVariable } from '../../index';
import type { WirePrompt } from '../../entries/protocol';
import { BundleRefusal } from './bundle-refusal';
import type { BundleLayout } from './bundle-layout';
import type { PackageFacts, ServerFacts } from './server-facts';

/** The MCPB manifest version written: the one MANIFEST.md documents as current (0.4 only adds `uv` servers). */
export const MANIFEST_VERSION = '0.3';

/** One setting a host asks its user for (`user_config` in the manifest). */
export interface McpbUserConfigOption {
  readonly type: 'string' | 'number' | 'boolean' | 'directory' | 'file';
  readonly title: string;
  readonly description: string;
  readonly required?: boolean;
  readonly default?: string | number | boolean;
  readonly sensitive?: boolean;
}

/** A prompt as a manifest lists it: its text names the arguments as `${arguments.x}`. */
export interface McpbPrompt {
  readonly name: string;
  readonly description?: string;
  readonly arguments?: readonly string[];
  readonly text: string;
}

/** The parts of an MCPB `manifest.json` (version 0.3) that `phantom-mcp bundle` writes. */
export interface McpbManifest {
  readonly manifest_version: typeof MANIFEST_VERSION;
  readonly name: string;
  readonly display_name?: string;
  readonly version: string;
  readonly description: string;
  readonly author: { readonly name: string; readonly email?: string; readonly url?: string };
  readonly repository?: { readonly type: string; readonly url: string };
  readonly homepage?: string;
  readonly icon?: string;
  readonly server: {
    readonly type: 'node';
    readonly entry_point: string;
    readonly mcp_config: { readonly command: string; readonly args: readonly string[]; readonly env?: Readonly<Record<string, string>> };
  };
  readonly tools: readonly { readonly name: string; readonly description?: string }[];
  readonly prompts: readonly McpbPrompt[];
  readonly prompts_generated?: boolean;
  readonly keywords?: readonly string[];
  readonly license?: string;
  readonly compatibility?: { readonly runtimes: { readonly node: string } };
  readonly user_config?: Readonly<Record<string, McpbUserConfigOption>>;
}

/** A declared format as the kind of setting a host asks for. */
const SETTING_TYPES: Readonly<Record<NonNullable<EnvironmentVariable['format']>, McpbUserConfigOption['type']>> = {
  string: 'string', number: 'number', boolean: 'boolean', filepath: 'file',
};

/**
 * The manifest for the module's server, from what it declares now: the package's name (without
 * its scope), version, author and links; the server's title and description; its tools and
 * prompts as it lists them over stdio (to a caller without credentials, as a desktop host is);
 * a setting per declared environment variable, handed to the server in `env`; and the command
 * that runs it: node, the preload when there are settings, the package's own phantom-mcp
 * binary, `serve`, the module. Refuses what MCPB requires and the package lacks.
 */
export function mcpbManifest(facts: ServerFacts, layout: BundleLayout): McpbManifest {
  const pkg = facts.package!;
  const name = required(pkg, 'name', pkg.name).replace(/^@[^/]+\//, '');
  const version = required(pkg, 'version', pkg.version);
  const description = facts.info.description ?? pkg.description;
  if (description === undefined || description.trim() === '') {
    throw new BundleRefusal(`a bundle needs a description: give the server one (PhantomServer option description) or add "description" to ${pkg.file}`);
  }
  const author = authorOf(pkg);
  const here = (path: string) => `\${__dirname}/${path}`;
  const env = Object.fromEntries(facts.environment.map((variable) => [variable.name, `\${user_config.${settingKey(variable)}}`]));
  const args = [...(layout.preload ? ['--require', here(layout.preload)] : []), here(layout.cli), 'serve', here(layout.module), ...(facts.exportName ? ['--export', facts.exportName] : [])];
  const repository = repositoryOf(pkg);
  const homepage = pkg.homepage !== undefined && URL.canParse(pkg.homepage) ? pkg.homepage : undefined;
  const keywords = Array.isArray(pkg.json.keywords) ? pkg.json.keywords.filter((word): word is string => typeof word === 'string') : [];
  const prompts = facts.lists.prompts.map(promptOf);
  return definedOnly({
    manifest_version: MANIFEST_VERSION,
    name,
    display_name: facts.info.title,
    version,
    description,
    author,
    repository,
    homepage,
    icon: layout.icon,
    server: { type: 'node', entry_point: layout.module, mcp_config: definedOnly({ command: 'node', args, env: facts.environment.length ? env : undefined }) },
    tools: facts.lists.tools.map((tool) => definedOnly({ name: tool.name, description: tool.description ?? tool.title })),
    prompts,
    // A phantom prompt is code: the text above only names its arguments; prompts/get makes the messages.
    prompts_generated: prompts.length ? true : undefined,
    keywords: keywords.length ? keywords : undefined,
    license: pkg.license,
    compatibility: pkg.nodeEngines ? { runtimes: { node: pkg.nodeEngines } } : undefined,
    user_config: facts.environment.length ? Object.fromEntries(facts.environment.map((variable) => [settingKey(variable), settingOf(variable)])) : undefined,
  }) as McpbManifest;
}

/** A variable's key among the settings: its name in lower case (`WEATHER_API_KEY` -> `weather_api_key`). */
export function settingKey(variable: EnvironmentVariable): string {
  return variable.name.toLowerCase();
}

function settingOf(variable: EnvironmentVariable): McpbUserConfigOption {
  const type = SETTING_TYPES[variable.format ?? 'string'];
  const choices = variable.choices?.length ? ` (one of: ${variable.choices.join(', ')})` : '';
  return definedOnly({
    type,
    title: variable.name,
    description: `${variable.description}${choices}`,
    required: variable.required ? true : undefined,
    default: variable.default === undefined ? undefined : typedDefault(variable.default, type),
    sensitive: variable.secret ? true : undefined,
  });
}

/** A default as the setting's type: a number for a number, true or false for a boolean. */
function typedDefault(value: string, type: McpbUserConfigOption['type']): string | number | boolean {
  if (type === 'number' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/** The prompt's text names each argument where a host puts its value. */
function promptOf(prompt: WirePrompt): McpbPrompt {
  const names = (prompt.arguments ?? []).map((argument) => argument.name);
  const lead = prompt.description ?? prompt.title ?? prompt.name;
  const text = [lead, ...names.map((argument) => `${argument}: \${arguments.${argument}}`)].join('\n');
  return definedOnly({ name: prompt.name, description: prompt.description, arguments: names.length ? names : undefined, text });
}

function required(pkg: PackageFacts, field: string, value: string | undefined): string {
  if (value === undefined || value.trim() === '') throw new BundleRefusal(`a bundle needs the package's ${field}: add "${field}" to ${pkg.file}`);
  return value;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function authorOf(pkg: PackageFacts): McpbManifest['author'] {
  const author = pkg.author;
  if (author === undefined) throw new BundleRefusal(`a bundle needs an author (MCPB requires one): add "author": "Name <email> (url)" to ${pkg.file}`);
  if (author.email !== undefined && !EMAIL.test(author.email)) throw new BundleRefusal(`the author's email in ${pkg.file} is not an email address: ${JSON.stringify(author.email)}`);
  if (author.url !== undefined && !URL.canParse(author.url)) throw new BundleRefusal(`the author's url in ${pkg.file} is not a URL: ${JSON.stringify(author.url)}`);
  return definedOnly({ name: author.name, email: author.email, url: author.url });
}

/** npm's shorthands (`user/repo`, `github:user/repo`, `gitlab:`, `bitbucket:`) as URLs; anything else that is no URL is left out. */
function repositoryOf(pkg: PackageFacts): McpbManifest['repository'] {
  const given = pkg.repository;
  if (given === undefined) return undefined;
  const short = /^(?:(github|gitlab|bitbucket):)?([\w.-]+\/[\w.-]+)$/.exec(given.url);
  const url = short ? `https://${short[1] === 'gitlab' ? 'gitlab.com' : short[1] === 'bitbucket' ? 'bitbucket.org' : 'github.com'}/${short[2]}` : given.url;
  return URL.canParse(url) ? { type: given.type ?? 'git', url } : undefined;
}

function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
