// Node 20 lacks fs.globSync, which @modelcontextprotocol/conformance imports by name (it calls it
// only in its tier-check command, with a pattern like '**/checks.json' and { cwd }). Loaded with
// `node --import`, this module adds a small synchronous implementation before the CLI links.
// It reaches fs through process.getBuiltinModule: a require() of 'fs' would freeze the ESM
// facade's export names before globSync exists, and the named import would still fail.
const fs = process.getBuiltinModule('node:fs');
const path = process.getBuiltinModule('node:path');

function patternToRegExp(pattern) {
  const source = pattern
    .split('/')
    .map((part) => (part === '**' ? '(?:[^/]+/)*' : `${part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')}/`))
    .join('')
    .replace(/\/$/, '');
  return new RegExp(`^${source}$`);
}

function globSync(patterns, options = {}) {
  const cwd = String(options.cwd ?? process.cwd());
  const tests = (Array.isArray(patterns) ? patterns : [patterns]).map(patternToRegExp);
  const found = [];
  const walk = (relative) => {
    let entries = [];
    try {
      entries = fs.readdirSync(path.join(cwd, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const candidate = relative ? `${relative}/${entry.name}` : entry.name;
      if (tests.some((test) => test.test(candidate))) found.push(candidate.split('/').join(path.sep));
      if (entry.isDirectory()) walk(candidate);
    }
  };
  walk('');
  return found;
}

if (typeof fs.globSync !== 'function') fs.globSync = globSync;
