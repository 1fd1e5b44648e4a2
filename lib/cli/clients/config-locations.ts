import { posix, win32 } from 'node:path';
import { CommandError } from '../command';

/** Whose configuration: the user's (every project) or one project's (its folder). */
export type Scope = 'user' | 'project';

/** Where files are looked for: the operating system, the environment and the project folder, all passed in. */
export interface Place {
  readonly platform: NodeJS.Platform;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The project: the working directory. */
  readonly cwd: string;
}

/** Where one client's file is in one scope, on this place; a `CommandError` saying why when it has none. */
export type Locate = (place: Place) => string;

/** The path functions of the place's operating system (a Windows path built on Linux keeps its backslashes). */
export function pathsOf(place: Place): typeof posix {
  return place.platform === 'win32' ? win32 : posix;
}

/** The user's home folder: `USERPROFILE` on Windows (else `HOME`), `HOME` elsewhere. */
export function homeOf(place: Place): string {
  const home = place.platform === 'win32' ? (place.env.USERPROFILE ?? place.env.HOME) : place.env.HOME;
  if (!home) throw new CommandError(`${place.platform === 'win32' ? 'USERPROFILE' : 'HOME'} is not set, so the user's configuration cannot be found: give the file with --file`);
  return home;
}

/** A file under the home folder, e.g. `~/.cursor/mcp.json`. */
export function underHome(...parts: readonly string[]): Locate {
  return (place) => pathsOf(place).join(homeOf(place), ...parts);
}

/** A file in the project, e.g. `.vscode/mcp.json`. */
export function inProject(...parts: readonly string[]): Locate {
  return (place) => pathsOf(place).resolve(place.cwd, ...parts);
}

/**
 * A file in the per-user application data of a desktop app: `~/Library/Application Support` on
 * macOS, `%APPDATA%` on Windows, `$XDG_CONFIG_HOME` (default `~/.config`) on Linux, or nowhere
 * when the app has no build for the system (`linux: false`).
 */
export function inAppData(app: string, file: readonly string[], options: { readonly linux?: boolean; readonly label: string }): Locate {
  return (place) => {
    const paths = pathsOf(place);
    if (place.platform === 'darwin') return paths.join(homeOf(place), 'Library', 'Application Support', app, ...file);
    if (place.platform === 'win32') {
      if (!place.env.APPDATA) throw new CommandError(`APPDATA is not set, so ${options.label}'s configuration cannot be found: give the file with --file`);
      return paths.join(place.env.APPDATA, app, ...file);
    }
    if (options.linux === false) throw new CommandError(`${options.label} has no ${place.platform} build, so it has no configuration file here: give one with --file`);
    return paths.join(place.env.XDG_CONFIG_HOME || paths.join(homeOf(place), '.config'), app, ...file);
  };
}

/** A file under a folder an environment variable may move (`CODEX_HOME`), else under the home folder. */
export function underEnvironmentHome(variable: string, fallback: readonly string[], file: readonly string[]): Locate {
  return (place) => {
    const paths = pathsOf(place);
    const base = place.env[variable] || paths.join(homeOf(place), ...fallback);
    return paths.join(base, ...file);
  };
}
