/** The scheme every skill resource is served under. */
export const SKILL_SCHEME = 'skill://';

/** The name of the file every skill has at its root. */
export const SKILL_MD = 'SKILL.md';

/** A skill resource (file or directory) a URI names: the skill and the path within its root (`''` for the root). */
export interface SkillAddress {
  readonly name: string;
  readonly path: string;
}

/** What a URI of the skill namespace names: a skill's file or directory, or a directory of the prefix. */
export type ParsedSkillUri =
  | ({ readonly kind: 'skill' } & SkillAddress)
  /** A directory above the skills: `depth` prefix segments (the namespace's root when 0, served only with a prefix). */
  | { readonly kind: 'prefix'; readonly depth: number };

const PREFIX_SEGMENT = /^[A-Za-z0-9._~-]+$/;

/** What is wrong with a prefix (`acme/billing`), or `undefined`: segments of unreserved characters, none `.` or `..`. */
export function prefixProblem(prefix: string): string | undefined {
  if (prefix === '') return undefined;
  const bad = prefix.split('/').find((segment) => !PREFIX_SEGMENT.test(segment) || segment === '.' || segment === '..');
  return bad === undefined ? undefined : `the skills prefix "${prefix}" must be "/"-separated segments of letters, digits, "-", ".", "_" and "~" (not "${bad}")`;
}

/** One path segment as it appears in a canonical URI. */
function encodeSegment(segment: string): string {
  return encodeURIComponent(segment);
}

/**
 * A path segment of an incoming URI, decoded, when it is canonical and names something a
 * filesystem path segment may: not empty, not `.` or `..` (however encoded), no `/` or `\`
 * (however encoded), and written exactly as this server writes it. `undefined` otherwise.
 */
function decodeSegment(segment: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  if (decoded === '' || decoded === '.' || decoded === '..' || decoded.includes('/') || decoded.includes('\\') || decoded.includes('\u0000')) return undefined;
  return encodeSegment(decoded) === segment ? decoded : undefined;
}

/**
 * The URIs of one skill namespace (`skill://[prefix/]<name>/<path>`): built canonically, and
 * parsed strictly, so that a URI this server did not write (`..` or `.` segments, encoded slashes
 * or backslashes, a trailing slash, another spelling of the same path) names nothing.
 */
export class SkillUris {
  /** The namespace's root: `skill://` and the prefix, with no trailing slash when there is a prefix. */
  readonly root: string;
  private readonly prefixSegments: readonly string[];

  constructor(prefix = '') {
    this.prefixSegments = prefix === '' ? [] : prefix.split('/');
    this.root = SKILL_SCHEME + prefix;
  }

  /** The RFC 6570 template every skill resource matches. */
  get template(): string {
    return `${this.base}{+path}`;
  }

  /** `skill://[prefix/]<name>`: the skill's root directory. */
  directory(name: string, path = ''): string {
    return path === '' ? `${this.base}${name}` : `${this.base}${name}/${this.encodePath(path)}`;
  }

  /** `skill://[prefix/]<name>/<path>`: a file of the skill. */
  file(name: string, path: string): string {
    return `${this.base}${name}/${this.encodePath(path)}`;
  }

  /** `skill://[prefix/]<name>/SKILL.md`. */
  skillMd(name: string): string {
    return this.file(name, SKILL_MD);
  }

  /** The URI of a directory of the prefix, `depth` segments deep. */
  prefixDirectory(depth: number): string {
    return SKILL_SCHEME + this.prefixSegments.slice(0, depth).join('/');
  }

  /** How many segments the prefix has. */
  get prefixDepth(): number {
    return this.prefixSegments.length;
  }

  /** What `uri` names in this namespace, or `undefined` when it is not a canonical URI of it. */
  parse(uri: string): ParsedSkillUri | undefined {
    if (!uri.startsWith(SKILL_SCHEME)) return undefined;
    const rest = uri.slice(SKILL_SCHEME.length);
    if (rest === '' || rest.includes('?') || rest.includes('#')) return undefined;
    const segments = rest.split('/');
    let depth = 0;
    while (depth < this.prefixSegments.length && depth < segments.length) {
      if (segments[depth] !== this.prefixSegments[depth]) return undefined;
      depth += 1;
    }
    if (depth === segments.length) return { kind: 'prefix', depth };
    const decoded: string[] = [];
    for (const segment of segments.slice(depth)) {
      const plain = decodeSegment(segment);
      if (plain === undefined) return undefined;
      decoded.push(plain);
    }
    return { kind: 'skill', name: decoded[0], path: decoded.slice(1).join('/') };
  }

  private get base(): string {
    return this.prefixSegments.length === 0 ? SKILL_SCHEME : `${SKILL_SCHEME}${this.prefixSegments.join('/')}/`;
  }

  private encodePath(path: string): string {
    return path.split('/').map(encodeSegment).join('/');
  }
}

/**
 * What is wrong with a file path relative to a skill's root (as a provider or `add()` gives it),
 * or `undefined`: `/`-separated, relative, no empty, `.` or `..` segment, no backslash, no
 * dot-file (dot-files are never served), not `SKILL.md` itself.
 */
export function relativePathProblem(path: string): string | undefined {
  if (path === SKILL_MD) return `"${path}": SKILL.md is the body, not one of the files`;
  if (path.includes('\\') || path.includes('\u0000')) return `"${path}": a path may hold neither "\\" nor NUL`;
  const segments = path.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    return `"${path}": a path must be relative, with no empty, "." or ".." segment`;
  }
  if (segments.some((segment) => segment.startsWith('.'))) return `"${path}": dot-files are not served`;
  return undefined;
}
