import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ExtensionHost, ExtensionResource, ExtensionTool } from '../../lib/router/extensions/extension';
import type { VisibleItem } from '../../lib/router/visibility';

/** Files by path relative to the folder (`pdf-processing/SKILL.md`); a string or bytes each. */
export type FolderFiles = Readonly<Record<string, string | Uint8Array>>;

/** A skills folder in a fresh temporary directory; `cleanup` removes it. */
export function skillsFolder(files: FolderFiles): { readonly path: string; write(files: FolderFiles): void; cleanup(): void } {
  const path = mkdtempSync(join(tmpdir(), 'phantom-skills-'));
  const write = (more: FolderFiles): void => {
    for (const [relative, content] of Object.entries(more)) {
      const absolute = join(path, relative);
      mkdirSync(dirname(absolute), { recursive: true });
      writeFileSync(absolute, content);
    }
  };
  write(files);
  return { path, write, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** A `SKILL.md` with the given front matter lines and body. */
export function skillMd(name: string, description = `What ${name} does`, extra = '', body = `# ${name}\n\nInstructions.\n`): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n${body}`;
}

/** An `ExtensionHost` that records what the extension does with it. */
export interface RecordingHost extends ExtensionHost {
  readonly served: ExtensionResource[];
  readonly warnings: string[];
  changes: number;
}

/** A host whose `visible` rule is `visible` (default: everything), serving `tools`, building classes with `new`. */
export function recordingHost(visible: (item: VisibleItem, principal: unknown) => boolean = () => true, tools: readonly ExtensionTool[] = []): RecordingHost {
  const host: RecordingHost = {
    served: [],
    warnings: [],
    changes: 0,
    diagnostics: { error: () => {}, warn: (message) => host.warnings.push(message), info: () => {} },
    serveResources: (resources) => host.served.push(...resources),
    stopServingResource: () => false,
    resourcesChanged: () => {
      host.changes += 1;
    },
    isVisible: visible,
    isListenedFor: () => false,
    notifyListeners: () => {},
    page: (_list, items) => ({ items }),
    resolve: (cls) => new cls(),
    tools: () => tools,
    serveTools: () => {},
    callTool: async () => ({ error: { code: -32601, message: 'no tools/call in a recording host' } }),
    tokens: () => ({ seal: () => '', open: () => ({ ok: false, reason: 'invalid' }) }),
  };
  return host;
}
