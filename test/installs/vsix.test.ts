/**
 * The extension package as Open VSX and the VS Code Marketplace take it (the `.vsix` that
 * Cursor, Kiro, Windsurf, Antigravity and VSCodium users install from Open VSX): `vsce ls`
 * lists exactly what the extension loads — the bundles and every `./…` file they require, the
 * tokenizers' rank tables, the webview's files, the media the manifest and the sources name —
 * plus the README, changelog, licence and manifest; the packaged `.vsix` holds those files and
 * nothing else; and the manifest has what a registry shows and requires: publisher (Open VSX's
 * namespace), name, version, display name, description, an OSI licence with its file, the
 * repository, a 128×128 PNG icon, categories of the Marketplace's list and keywords.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../helpers/clients';
import { cleanupTempDirs, tempDir } from '../helpers/repo';

/** The categories the VS Code Marketplace offers (Extension Manifest reference, `categories`). */
const MARKETPLACE_CATEGORIES = [
  'AI',
  'Azure',
  'Chat',
  'Data Science',
  'Debuggers',
  'Education',
  'Extension Packs',
  'Formatters',
  'Keymaps',
  'Language Packs',
  'Linters',
  'Machine Learning',
  'Notebooks',
  'Programming Languages',
  'SCM Providers',
  'Snippets',
  'Testing',
  'Themes',
  'Visualization',
  'Other',
];

interface Manifest {
  publisher: string;
  name: string;
  version: string;
  displayName: string;
  description: string;
  license: string;
  icon: string;
  repository: { type: string; url: string };
  categories: string[];
  keywords: string[];
  main: string;
  bin: Record<string, string>;
}

/** A file of `vsce ls` as the .vsix names it: vsce stores the README and changelog in lower case and the licence as LICENSE.txt. */
function vsixName(file: string): string {
  return ({ 'README.md': 'readme.md', 'CHANGELOG.md': 'changelog.md', LICENSE: 'LICENSE.txt' } as Record<string, string>)[file] ?? file;
}

/** The files of dist/ a bundle loads: the bundle and every `require("./…")` it reaches, each tokenizer's rank table and SQLite's WebAssembly. */
function loadedFrom(entries: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (rel: string) => {
    if (seen.has(rel)) return;
    seen.add(rel);
    const text = readFileSync(path.join(ROOT, rel), 'utf8');
    for (const m of text.matchAll(/require\("(\.\.?\/[^"]+)"\)/g)) visit(path.posix.normalize(path.posix.join(path.posix.dirname(rel), m[1])));
    if (/^dist\/tokenizers\/[a-z0-9_]+\.js$/.test(rel)) seen.add(rel.replace(/\.js$/, '.ranks.json'));
    // node-sqlite3-wasm's script loads its WebAssembly file from beside itself.
    if (rel === 'dist/vendor/node-sqlite3-wasm.js') seen.add('dist/vendor/node-sqlite3-wasm.wasm');
  };
  entries.forEach((e) => visit(path.posix.normalize(e)));
  return seen;
}

/** The media files the manifest and the sources name (`media/<file>`). */
function mediaNamed(): Set<string> {
  const texts = [readFileSync(path.join(ROOT, 'package.json'), 'utf8')];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|html|css)$/.test(e.name)) texts.push(readFileSync(p, 'utf8'));
    }
  };
  walk(path.join(ROOT, 'src'));
  walk(path.join(ROOT, 'webview'));
  const named = new Set<string>();
  for (const t of texts) for (const m of t.matchAll(/media\/([A-Za-z0-9_.-]+\.(?:svg|png|css))/g)) named.add(`media/${m[1]}`);
  // A file named by itself, e.g. a page's stylesheet (`css: 'panel.css'`, loaded from media/).
  for (const f of readdirSync(path.join(ROOT, 'media'), { withFileTypes: true }))
    if (f.isFile() && texts.some((t) => t.includes(`'${f.name}'`) || t.includes(`"${f.name}"`))) named.add(`media/${f.name}`);
  // A name built at run time: the chat avatar of each theme kind (src/vscode/constants.ts).
  for (const f of readdirSync(path.join(ROOT, 'media'))) if (/^handoff-avatar-(light|dark)\.svg$/.test(f)) named.add(`media/${f}`);
  return named;
}

describe('the .vsix: what vsce ships, and a manifest ready for Open VSX', function () {
  this.timeout(600_000);
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Manifest;
  const vsce = path.join(ROOT, 'node_modules', '.bin', 'vsce');
  let listed: string[];

  before(() => {
    // dist/ as it ships (the package script builds it the same way).
    execFileSync(process.execPath, ['esbuild.mjs', '--quiet'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    listed = execFileSync(vsce, ['ls', '--no-dependencies'], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').sort();
  });
  after(cleanupTempDirs);

  it('vsce ls lists what the extension and its CLI load, the webview, the media named, and the four documents', () => {
    const loaded = loadedFrom([manifest.main, manifest.bin['specialist-handoff']]);
    const webview = readdirSync(path.join(ROOT, 'dist', 'webview')).map((f) => `dist/webview/${f}`);
    const expected = [...new Set(['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', ...loaded, ...webview, ...mediaNamed()])].sort();
    assert.deepEqual(listed, expected);
    for (const f of expected) assert.ok(existsSync(path.join(ROOT, f)), f);
  });

  it('the packaged .vsix holds those files under extension/, and nothing else but its own manifest', () => {
    const out = path.join(tempDir('handoff-vsix-'), 'specialist-handoff.vsix');
    execFileSync(vsce, ['package', '--no-dependencies', '-o', out], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    const entries = execFileSync('zipinfo', ['-1', out], { encoding: 'utf8' }).trim().split('\n').sort();
    const own = entries.filter((e) => !e.startsWith('extension/'));
    assert.deepEqual(own, ['[Content_Types].xml', 'extension.vsixmanifest']);
    assert.deepEqual(
      entries
        .filter((e) => e.startsWith('extension/'))
        .map((e) => e.slice('extension/'.length))
        .sort(),
      listed.map(vsixName).sort(),
    );
    const vsixManifest = execFileSync('unzip', ['-p', out, 'extension.vsixmanifest'], { encoding: 'utf8' });
    assert.match(
      vsixManifest,
      new RegExp(`<Identity Language="en-US" Id="${manifest.name}" Version="${manifest.version.replace(/\./g, '\\.')}" Publisher="${manifest.publisher}"`),
    );
    assert.match(vsixManifest, /<License>extension\/LICENSE\.txt<\/License>/);
  });

  it('the manifest: publisher (the Open VSX namespace), name, version, names, an OSI licence with its file, the repository, the icon, categories and keywords', () => {
    assert.match(manifest.publisher, /^[a-z0-9][a-z0-9-]*$/);
    assert.match(manifest.name, /^[a-z0-9][a-z0-9-]*$/);
    assert.match(manifest.version, /^\d+\.\d+\.\d+$/);
    assert.ok(manifest.displayName.trim() && manifest.description.trim());
    assert.equal(manifest.license, 'MIT');
    assert.match(readFileSync(path.join(ROOT, 'LICENSE'), 'utf8'), /^MIT License/);
    assert.equal(manifest.repository.type, 'git');
    assert.match(manifest.repository.url, /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/);
    // A PNG of 128×128 (its IHDR: width and height, big-endian, at bytes 16–23).
    const png = readFileSync(path.join(ROOT, manifest.icon));
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
    assert.ok(listed.includes(manifest.icon), 'the icon ships');
    assert.ok(manifest.categories.length > 0 && manifest.categories.every((c) => MARKETPLACE_CATEGORIES.includes(c)), manifest.categories.join(', '));
    assert.ok(manifest.keywords.length > 0 && new Set(manifest.keywords).size === manifest.keywords.length);
  });
});
