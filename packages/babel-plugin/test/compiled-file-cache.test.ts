import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheDirectory, CompiledFileCache } from '../src/compiled-file-cache';

let mockBuild = 'build-1';
jest.mock('../src/build-id', () => ({ rememberedBuildId: () => mockBuild, builtDirectories: () => [] }));

let project: string;
let cacheDir: string;
const environment = { ...process.env };

beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'pathprof-compiled-files-'));
  cacheDir = join(project, 'node_modules', '.cache', 'pathprof');
  mkdirSync(join(project, 'src'), { recursive: true });
  writeFileSync(join(project, 'babel.config.json'), '{}\n');
  mockBuild = 'build-1';
});
afterEach(() => {
  rmSync(project, { recursive: true, force: true });
  process.env = { ...environment };
});

/** The key of src/a.js in a process of its own (each process reads the configs once). */
const keyOf = (source = 'f()', settings = '{"hook":"module"}') =>
  new CompiledFileCache(cacheDir, project).key(join(project, 'src', 'a.js'), source, settings);

describe('the compiled-file cache key (no Babel needed)', () => {
  test('holds the source, the file, the settings and the plugin build', () => {
    const key = keyOf();
    expect(keyOf()).toBe(key);
    expect(keyOf('g()')).not.toBe(key);
    expect(keyOf('f()', '{"hook":"commonjs"}')).not.toBe(key);
    expect(
      new CompiledFileCache(cacheDir, project).key(join(project, 'src', 'b.js'), 'f()', '{"hook":"module"}'),
    ).not.toBe(key);
    mockBuild = 'build-2';
    expect(keyOf()).not.toBe(key);
  });

  test('holds every config Babel could read: changed, added in the directory or a parent, an install', () => {
    const key = keyOf();
    writeFileSync(join(project, 'src', 'notes.txt'), 'not a config\n');
    expect(keyOf()).toBe(key);
    writeFileSync(join(project, 'babel.config.json'), '{ "presets": [] }\n');
    const changed = keyOf();
    expect(changed).not.toBe(key);
    writeFileSync(join(project, 'src', '.babelrc.js'), 'module.exports = {};\n');
    const added = keyOf();
    expect(added).not.toBe(changed);
    writeFileSync(join(project, 'package.json'), '{ "babel": { "plugins": [] } }\n');
    expect(keyOf()).not.toBe(added);
    const beforeInstall = keyOf();
    mkdirSync(join(project, 'node_modules'), { recursive: true });
    writeFileSync(join(project, 'node_modules', '.package-lock.json'), '{}\n');
    expect(keyOf()).not.toBe(beforeInstall);
  });

  test("holds Babel's and browserslist's environment variables, not the others", () => {
    const key = keyOf();
    process.env.SOMETHING_ELSE = '1';
    expect(keyOf()).toBe(key);
    process.env.NODE_ENV = 'test-pathprof';
    const node = keyOf();
    expect(node).not.toBe(key);
    process.env.BABEL_ENV = 'other';
    const babel = keyOf();
    expect(babel).not.toBe(node);
    process.env.BROWSERSLIST = 'last 1 chrome version';
    expect(keyOf()).not.toBe(babel);
  });

  test("goes into the nearest node_modules from the working directory up (a workspace's root)", () => {
    const workspace = join(project, 'packages', 'a');
    mkdirSync(workspace, { recursive: true });
    expect(cacheDirectory(workspace)).not.toBe(cacheDir);
    mkdirSync(join(project, 'node_modules'));
    expect(cacheDirectory(workspace)).toBe(cacheDir);
    mkdirSync(join(workspace, 'node_modules'));
    expect(cacheDirectory(workspace)).toBe(join(workspace, 'node_modules', '.cache', 'pathprof'));
    process.env.BABEL_DISABLE_CACHE = '1';
    expect(cacheDirectory(workspace)).toBeNull();
  });

  test('is null when the cache is off', () => {
    expect(new CompiledFileCache(null, project).key(join(project, 'a.js'), 'f()', '')).toBeNull();
  });
});

describe('a cached file', () => {
  const output = (files: string[], interesting?: string) => ({
    code: 'compiled()',
    map: { version: 3 },
    files: new Set(files),
    options: { cwd: project, plugins: [{ options: interesting ? { interesting } : {} }] },
  });

  test('is read back whole, written atomically (no temporary file left)', () => {
    const cache = new CompiledFileCache(cacheDir, project);
    const key = keyOf();
    expect(cache.read(key)).toBeUndefined();
    const entry = cache.entryOf(output([join(project, 'babel.config.json')]));
    cache.store(key, entry, 'src/a.js');
    expect(cache.read(key)).toEqual(entry);
    expect(readdirSync(cacheDir)).toEqual([`${key}.json`]);
  });

  test('is stale once a file it depends on changes: a config it extends, the interesting set', () => {
    const cache = new CompiledFileCache(cacheDir, project);
    const base = join(project, 'base.json');
    writeFileSync(base, '{}\n');
    writeFileSync(join(project, 'set.json'), '{"functions":[]}\n');
    const key = keyOf();
    cache.store(key, cache.entryOf(output([base], 'set.json')), 'src/a.js');
    expect(cache.read(key)?.code).toBe('compiled()');
    writeFileSync(join(project, 'set.json'), '{"functions":[1]}\n');
    expect(cache.read(key)).toBeUndefined();
    cache.store(key, cache.entryOf(output([base], 'set.json')), 'src/a.js');
    expect(cache.read(key)?.code).toBe('compiled()');
    rmSync(base);
    expect(cache.read(key)).toBeUndefined();
  });

  test('made under a programmable config is stale in another environment; one under JSON is not', () => {
    const cache = new CompiledFileCache(cacheDir, project);
    const programmable = join(project, 'babel.config.js');
    writeFileSync(programmable, 'module.exports = {};\n');
    const key = keyOf();
    cache.store(key, cache.entryOf(output([programmable])), 'src/a.js');
    const json = keyOf('g()');
    cache.store(json, cache.entryOf(output([join(project, 'babel.config.json')])), 'src/a.js');
    const untouched = keyOf('h()');
    cache.store(untouched, cache.untouchedEntry(), 'src/a.js');
    expect(cache.read(key)?.code).toBe('compiled()');
    expect(cache.read(untouched)?.code).toBeNull();
    process.env.READ_BY_THE_CONFIG = 'yes';
    expect(cache.read(key)).toBeUndefined();
    expect(cache.read(untouched)).toBeUndefined();
    expect(cache.read(json)?.code).toBe('compiled()');
  });
});
