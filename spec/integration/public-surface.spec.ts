import { expect } from 'chai';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import * as ts from 'typescript';
import { packedPackage, REPOSITORY, runIn } from '../support/packed-package';

/**
 * The public surface, pinned: each entry of package.json "exports" and the names it exports, a type-only name
 * written `type Name`. A change to the surface is a deliberate diff of this file (UPDATE_SURFACE=1 rewrites it).
 */
const PINNED = join(REPOSITORY, 'spec', 'integration', 'public-surface.json');
const UPDATE_HINT = 'If the change is deliberate, rewrite the pinned surface with `UPDATE_SURFACE=1 npx mocha dist/spec/integration/public-surface.spec.js` and commit spec/integration/public-surface.json.';

type Surface = Record<string, string[]>;

/** Every file under `root`, as posix paths relative to it. */
function filesUnder(root: string): string[] {
  return readdirSync(root).flatMap((entry) => {
    const path = join(root, entry);
    return statSync(path).isDirectory() ? filesUnder(path).map((file) => `${entry}/${file}`) : [relative(root, path).split(sep).join('/')];
  });
}

/** `phantom-mcp` for ".", `phantom-mcp/http` for "./http". */
const specifier = (entry: string) => (entry === '.' ? 'phantom-mcp' : `phantom-mcp${entry.slice(1)}`);

/** What changed from `pinned` to `now`, one `entry: +name` or `entry: -name` a line; empty when nothing did. */
function differences(pinned: Surface, now: Surface): string[] {
  const lines: string[] = [];
  for (const entry of [...new Set([...Object.keys(pinned), ...Object.keys(now)])].sort()) {
    if (!(entry in now)) lines.push(`${entry}: - (the whole entry)`);
    else if (!(entry in pinned)) lines.push(`${entry}: + (a new entry)`);
    const before = new Set(pinned[entry] ?? []);
    const after = new Set(now[entry] ?? []);
    for (const name of after) if (!before.has(name)) lines.push(`${entry}: +${name}`);
    for (const name of before) if (!after.has(name)) lines.push(`${entry}: -${name}`);
  }
  return lines;
}

/** What the published types of one entry say: the names it exports, and for each class the most parameters its public constructor takes (infinite when it has none a user may call). */
interface Typed {
  readonly names: string[];
  readonly constructorParameters: Record<string, number>;
}

/** The declarations of one file, each as its dotted path (`Context.hasElicitationFallback`), with whether its doc comment says `@internal`. */
function declarationsOf(file: string, text: string): Array<{ path: string; internal: boolean }> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found: Array<{ path: string; internal: boolean }> = [];
  const visit = (node: ts.Node, outer: string) => {
    let path = outer;
    if (ts.isConstructorDeclaration(node) || ts.isConstructSignatureDeclaration(node)) path = `${outer}.constructor`;
    else if (ts.isDeclarationStatement(node) || ts.isClassElement(node) || ts.isTypeElement(node) || ts.isVariableDeclaration(node) || ts.isEnumMember(node)) {
      const name = (node as ts.NamedDeclaration).name;
      if (name && (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isPrivateIdentifier(name))) path = outer ? `${outer}.${name.text}` : name.text;
    }
    // As stripInternal reads it: `@internal` anywhere in the declaration's doc comment.
    if (path !== outer) found.push({ path, internal: ts.getJSDocCommentsAndTags(node).some((doc) => doc.getText().includes('@internal')) });
    ts.forEachChild(node, (child) => visit(child, path));
  };
  visit(source, '');
  return found;
}

/** What each entry's published types export, read with the TypeScript compiler from the installed package. */
function typedNames(project: string, entries: readonly string[]): Record<string, Typed> {
  const consumer = join(project, 'surface-names.ts');
  writeFileSync(consumer, entries.map((entry, i) => `import * as entry${i} from '${specifier(entry)}';\nexport { entry${i} };\n`).join(''));
  const program = ts.createProgram([consumer], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, noEmit: true, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(consumer)!;
  const typed: Record<string, Typed> = {};
  entries.forEach((entry, i) => {
    const local = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!).find((symbol) => symbol.name === `entry${i}`)!;
    const module = checker.getAliasedSymbol(local);
    expect(module.flags & ts.SymbolFlags.ValueModule, `the types of ${specifier(entry)} resolve`).to.not.equal(0);
    const exported = checker.getExportsOfModule(module);
    const constructorParameters: Record<string, number> = {};
    for (const symbol of exported) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      if (!(target.flags & ts.SymbolFlags.Class)) continue;
      // A private or protected constructor: nothing outside constructs the class, whatever it takes.
      const declared = target.declarations?.find(ts.isClassDeclaration)?.members.find(ts.isConstructorDeclaration);
      if (declared && ts.getCombinedModifierFlags(declared) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) {
        constructorParameters[symbol.name] = Number.POSITIVE_INFINITY;
        continue;
      }
      const signatures = checker.getSignaturesOfType(checker.getTypeOfSymbol(target), ts.SignatureKind.Construct);
      constructorParameters[symbol.name] = Math.max(0, ...signatures.map((signature) => signature.parameters.length));
    }
    typed[entry] = { names: exported.map((symbol) => symbol.name).sort(), constructorParameters };
  });
  return typed;
}

/** What a fresh node process sees of one entry: its names from require() and from import, and the declared parameters (`length`) of each class. */
interface Loaded {
  readonly required: string[];
  readonly imported: string[];
  readonly classLengths: Record<string, number>;
}

/** The names a fresh node process sees on `entry`, loaded with require() from `project`, and with import from an ES module. */
/** Names an ES module sees on a CommonJS module that the module did not export (Node adds them). */
const INTEROP_KEYS: ReadonlySet<string> = new Set(['default', '__esModule', 'module.exports']);

async function loadedNames(project: string, entry: string): Promise<Loaded> {
  const name = specifier(entry);
  const classes = `Object.fromEntries(Object.entries(loaded).filter(([, v]) => typeof v === 'function' && /^class\\b/.test(Function.prototype.toString.call(v))).map(([k, v]) => [k, v.length]))`;
  const required = await runIn(project, process.execPath, ['-e', `const loaded = require('${name}'); console.log(JSON.stringify({ names: Object.keys(loaded), classes: ${classes} }))`]);
  expect(required.code, `require('${name}'): ${required.stderr}`).to.equal(0);
  const imported = await runIn(project, process.execPath, ['--input-type=module', '-e', `import * as loaded from '${name}'; console.log(JSON.stringify(Object.keys(loaded)))`]);
  expect(imported.code, `import from '${name}': ${imported.stderr}`).to.equal(0);
  const seen = JSON.parse(required.stdout) as { names: string[]; classes: Record<string, number> };
  return {
    required: seen.names.sort(),
    // What Node's CommonJS interop adds itself: `default`, `__esModule`, and since Node 23 `module.exports`.
    imported: (JSON.parse(imported.stdout) as string[]).filter((key) => !INTEROP_KEYS.has(key)).sort(),
    classLengths: seen.classes,
  };
}

describe('the public surface of the packed package', function () {
  this.timeout(300_000);
  const manifest = JSON.parse(readFileSync(join(REPOSITORY, 'package.json'), 'utf8'));
  const entries = Object.keys(manifest.exports as Record<string, unknown>).sort();
  let project: string;
  const surface: Surface = {};
  const runtime: Record<string, Loaded> = {};
  let typed: Record<string, Typed>;
  let installed: string;

  before(async function () {
    this.timeout(300_000);
    const tarball = await packedPackage();
    project = realpathSync(mkdtempSync(join(tmpdir(), 'phantom-surface-')));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'public-surface-spec', version: '1.0.0', private: true }));
    // The optional peers each subpath needs (the SDK for /testing, ioredis for /redis, the OpenTelemetry API for /otel), and Node's types.
    const peers = ['@modelcontextprotocol/sdk', 'ioredis', '@opentelemetry/api', '@types/node'].map((name) => `${name}@${manifest.devDependencies[name]}`);
    const install = await runIn(project, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, ...peers], 240_000);
    expect(install.code, install.stderr).to.equal(0);
    installed = join(project, 'node_modules', 'phantom-mcp');
    for (const entry of entries) runtime[entry] = await loadedNames(project, entry);
    typed = typedNames(project, entries);
    for (const entry of entries) {
      const values = new Set(runtime[entry]!.required);
      surface[entry] = typed[entry]!.names.map((name) => (values.has(name) ? name : `type ${name}`));
    }
  });

  it('has each subpath the brief of issue 25 names, and /protocol, each with types, require, import and default conditions', () => {
    expect(entries).to.deep.equal(['.', './extensions', './http', './oauth', './otel', './protocol', './redis', './seams', './testing']);
    for (const entry of entries) expect(Object.keys(manifest.exports[entry]), entry).to.deep.equal(['types', 'require', 'import', 'default']);
  });

  it('loads every entry from CommonJS and from an ES module, each alone in a fresh process, with the same names both ways', () => {
    for (const entry of entries) {
      expect(runtime[entry]!.required, entry).not.to.be.empty;
      expect(runtime[entry]!.imported, `named imports of ${specifier(entry)} from an ES module`).to.deep.equal(runtime[entry]!.required);
    }
  });

  it('declares in its types every name each entry exports at run time', () => {
    for (const entry of entries) {
      const declared = new Set(typed[entry]!.names);
      expect(runtime[entry]!.required.filter((name) => !declared.has(name)), `${specifier(entry)}: exported at run time, absent from its types`).to.deep.equal([]);
    }
  });

  it('exports exactly the pinned names from each entry (spec/integration/public-surface.json)', () => {
    if (process.env['UPDATE_SURFACE'] === '1') writeFileSync(PINNED, `${JSON.stringify(surface, null, 2)}\n`);
    const pinned = existsSync(PINNED) ? (JSON.parse(readFileSync(PINNED, 'utf8')) as Surface) : {};
    const changed = differences(pinned, surface);
    if (changed.length > 0) expect.fail(`The public surface changed (+ exported now but not pinned, - pinned but no longer exported):\n  ${changed.join('\n  ')}\n${UPDATE_HINT}`);
  });

  it('exports each name from one entry only (the root holds what a server author writes, each feature its subpath)', () => {
    const homes = new Map<string, string[]>();
    for (const entry of entries) for (const name of surface[entry]!) homes.set(name.replace(/^type /, ''), [...(homes.get(name.replace(/^type /, '')) ?? []), specifier(entry)]);
    const twice = [...homes].filter(([, found]) => found.length > 1).map(([name, found]) => `${name}: ${found.join(', ')}`);
    expect(twice, 'names exported by more than one entry').to.deep.equal([]);
  });

  it('keeps `@internal` out of the published types (tsconfig stripInternal): no shipped .d.ts mentions it', () => {
    const leaking = filesUnder(join(installed, 'dist')).filter((file) => file.endsWith('.d.ts') && readFileSync(join(installed, 'dist', file), 'utf8').includes('@internal'));
    expect(leaking, 'declaration files still carrying @internal members').to.deep.equal([]);
  });

  it('publishes no declaration marked `@internal` in lib/ (a member or a function stripInternal drops, even if its comment were dropped too)', () => {
    const leaking: string[] = [];
    let marked = 0;
    for (const file of filesUnder(join(REPOSITORY, 'lib')).filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))) {
      const declared = declarationsOf(file, readFileSync(join(REPOSITORY, 'lib', file), 'utf8'));
      const paths = (internal: boolean) => new Set(declared.filter((declaration) => declaration.internal === internal).map((declaration) => declaration.path));
      const publicPaths = paths(false);
      // An overload or a merged declaration that is internal only in part stays published under its name.
      const internalOnly = [...paths(true)].filter((path) => !publicPaths.has(path));
      if (internalOnly.length === 0) continue;
      marked += internalOnly.length;
      const typesFile = join(installed, 'dist', 'lib', file.replace(/\.ts$/, '.d.ts'));
      const published = new Set(declarationsOf(typesFile, readFileSync(typesFile, 'utf8')).map((declaration) => declaration.path));
      leaking.push(...internalOnly.filter((path) => published.has(path)).map((path) => `${file}: ${path}`));
    }
    expect(marked, 'declarations marked @internal in lib/ (none found: the check would check nothing)').to.be.greaterThan(0);
    expect(leaking, '@internal declarations present in the published .d.ts').to.deep.equal([]);
  });

  it('keeps, in the published types, the constructor of every class an entry exports (stripInternal would leave `new X()` type-checking; mark such a constructor @hidden)', () => {
    for (const entry of entries) {
      for (const [name, length] of Object.entries(runtime[entry]!.classLengths)) {
        expect(typed[entry]!.constructorParameters[name], `${specifier(entry)}: ${name}'s constructor in the types takes fewer parameters than at run time`).to.be.at.least(length);
      }
    }
  });

  it('gives an ES module the very values require() gives, in one process (one copy of each class, so instanceof holds in an app that mixes both)', async () => {
    const names = entries.map(specifier);
    const script = `import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nconst differ = [];\nfor (const name of ${JSON.stringify(names)}) {\n  const imported = await import(name);\n  for (const [key, value] of Object.entries(require(name))) if (imported[key] !== value) differ.push(name + ': ' + key);\n}\nconsole.log(JSON.stringify(differ));`;
    const ran = await runIn(project, process.execPath, ['--input-type=module', '-e', script]);
    expect(ran.code, ran.stderr).to.equal(0);
    expect(JSON.parse(ran.stdout)).to.deep.equal([]);
  });

  it('compiles a consumer importing every entry, from CommonJS and ESM, against the published types with skipLibCheck off', async () => {
    const imports = entries.map((entry, i) => `import * as entry${i} from '${specifier(entry)}';`).join('\n');
    const uses = `export const entries = [${entries.map((_, i) => `entry${i}`).join(', ')}];\n`;
    writeFileSync(join(project, 'consumer.cts'), `${imports}\n${uses}`);
    writeFileSync(join(project, 'consumer.mts'), `${imports}\n${uses}`);
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'ES2022', strict: true, skipLibCheck: false, noEmit: true, types: ['node'] },
      files: ['consumer.cts', 'consumer.mts'],
    }));
    const tsc = join(REPOSITORY, 'node_modules', 'typescript', 'bin', 'tsc');
    const compiled = await runIn(project, process.execPath, [tsc, '-p', 'tsconfig.json']);
    expect(compiled.code, compiled.stdout + compiled.stderr).to.equal(0);
  });
});
