/**
 * Issue 19: the shell parser (mvdan-sh, 1.3 MB of GopherJS output) ships as its own file,
 * dist/vendor/mvdan-sh.js, required on first use by src/core/session/shellWords.ts, so the
 * extension and the CLI do not carry and parse it as they load. This builds the CLI, the
 * vendor file and the tokenizers with the options of esbuild.mjs into a temporary folder laid
 * out as dist/ is, and runs the bundled CLI on a real Claude Code transcript whose commands
 * go through the parser: the draft's commands come out as from source. The other libraries
 * loaded on first use (esbuild.mjs VENDOR: secretlint, simple-git, proper-lockfile, yaml,
 * stream-json and stream-chain) are in dist/vendor/ too, not in the extension's bundle; the
 * bundled CLI writes a handoff through them (git evidence, the briefing's lock, secrets
 * redacted by secretlint's rules, the frontmatter) and reads a Cline task (stream-json). The
 * MCP SDK (with ajv, only it uses) is in dist/vendor/mcp-sdk.js: the bundled `mcp` command
 * serves from it. And zod's locales are
 * answered with English alone: a bundled zod still words its messages in English.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import type * as Yaml from 'yaml';
import { writeClaudeSession } from '../../helpers/claudeSession';
import { fakeSecrets } from '../../helpers/fakeSecrets';
import { writeGooseDb } from '../../helpers/gooseDb';
import { ROOT, buildDist } from '../../helpers/dist';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../../helpers/repo';

describe('build: the shell parser in its own file', function () {
  this.timeout(180_000);
  after(cleanupTempDirs);

  it("dist/cli-main.js does not carry mvdan-sh, and the bundled CLI parses the transcript's commands through dist/vendor/mvdan-sh.js", async () => {
    const { dist } = await buildDist();
    const cliJs = readFileSync(path.join(dist, 'cli-main.js'), 'utf8');
    assert.ok(cliJs.includes('./vendor/mvdan-sh.js'), 'the CLI requires the vendor file');
    assert.ok(!cliJs.includes('$packages["mvdan.cc/sh'), 'the GopherJS packages are not in the CLI bundle');
    assert.ok(statSync(path.join(dist, 'vendor', 'mvdan-sh.js')).size > 500_000, 'the parser is in the vendor file');

    const ws = initRepo(tempDir('handoff-vendor-ws-'));
    write(ws, 'a.txt', 'a\n');
    commitAll(ws, 'c1');
    const transcript = writeClaudeSession(tempDir('handoff-vendor-transcripts-'), ws);
    const out = execFileSync(process.execPath, [path.join(dist, 'cli.js'), 'draft', '--json', '--session-log', transcript], {
      cwd: ws,
      encoding: 'utf8',
      env: { ...process.env, XDG_STATE_HOME: tempDir('handoff-vendor-xdg-') },
    });
    const draft = (JSON.parse(out) as { draft: { commands_run: Array<{ command: string; kind: string; exit_code: number | null }> } }).draft;
    assert.deepEqual(
      draft.commands_run.map((c) => [c.command, c.kind, c.exit_code]),
      [['npm run build', 'build', 2]],
    );
  });

  it('the bundled CLI writes a handoff with the libraries it carries (simple-git, proper-lockfile, secretlint) and reads a Cline task through a vendor file (stream-json)', async () => {
    const { dist, builds } = await buildDist();
    const cliJs = readFileSync(path.join(dist, 'cli-main.js'), 'utf8');
    const bundledFiles = new Set([...builds.CLI_BUNDLED].map((spec) => builds.VENDOR[spec]));
    assert.deepEqual([...bundledFiles].sort(), [
      'proper-lockfile',
      'secretlint-core',
      'secretlint-preset-recommend',
      'secretlint-profiler',
      'simple-git',
      'yaml',
    ]);
    for (const file of new Set(Object.values(builds.VENDOR))) {
      assert.ok(statSync(path.join(dist, 'vendor', `${file}.js`)).size > 1000, `dist/vendor/${file}.js (the extension's)`);
      // The CLI carries what every handover and hook loads (compiled through its code cache), and requires the rest.
      assert.equal(
        cliJs.includes(`require("./vendor/${file}.js")`),
        !bundledFiles.has(file),
        `the CLI ${bundledFiles.has(file) ? 'carries' : 'requires'} dist/vendor/${file}.js`,
      );
    }
    assert.ok(!cliJs.includes('mvdan-sh') || cliJs.includes('require("./vendor/mvdan-sh.js")'), 'the shell parser stays in its own file');

    const ws = initRepo(tempDir('handoff-vendor-ws-'));
    write(ws, 'a.txt', 'a\n');
    commitAll(ws, 'c1');
    write(ws, 'a.txt', 'a\nb\n');
    const secrets = fakeSecrets()
      .filter((f) => /GitHub|Slack|npm/i.test(f.format))
      .slice(0, 3);
    assert.ok(secrets.length >= 2);
    const env = { ...process.env, XDG_STATE_HOME: tempDir('handoff-vendor-xdg-'), HOME: tempDir('handoff-vendor-home-') };
    const run = spawnSync(
      process.execPath,
      [
        path.join(dist, 'cli.js'),
        'handover',
        '--json',
        '--specialist',
        'quality_reviewer',
        '--topic',
        'vendor',
        '--summary',
        secrets.map((f) => f.line).join('; '),
      ],
      { cwd: ws, encoding: 'utf8', env },
    );
    assert.equal(run.status, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /secretlint scan failed/, 'secretlint ran from dist/vendor/secretlint-*.js');
    const result = JSON.parse(run.stdout) as { status: string; handoff_file: string; package: { touched_files: Array<{ path: string }> } };
    assert.equal(result.status, 'ok');
    assert.deepEqual(
      result.package.touched_files.map((f) => f.path),
      ['a.txt'],
      'git evidence through dist/vendor/simple-git.js',
    );
    const handoff = readFileSync(result.handoff_file, 'utf8');
    for (const f of secrets) assert.ok(!handoff.includes(f.value), `${f.format} redacted`);
    assert.match(handoff, /\[REDACTED:/);
    const briefings = path.join(ws, '.handoff', 'briefings');
    assert.equal(readdirSync(briefings).length, 1, 'the briefing was written under its lock (dist/vendor/proper-lockfile.js)');

    const task = path.join(tempDir('handoff-vendor-cline-'), 'tasks', '1764590000000');
    mkdirSync(task, { recursive: true });
    const messages = [
      { ts: 1764590000000, type: 'say', say: 'text', text: 'Add a cart total to the checkout page.' },
      { ts: 1764590001000, type: 'say', say: 'text', text: 'The page renders the line items; I will add the total next.' },
    ];
    writeFileSync(path.join(task, 'ui_messages.json'), JSON.stringify(messages));
    const draft = execFileSync(process.execPath, [path.join(dist, 'cli.js'), 'draft', '--json', '--session-log', path.join(task, 'ui_messages.json')], {
      cwd: ws,
      encoding: 'utf8',
      env,
    });
    assert.ok(draft.includes('Add a cart total to the checkout page.'), `the Cline task was read through dist/vendor/stream-json.js: ${draft.slice(0, 400)}`);
  });

  it('dist/cli-main.js does not carry the MCP SDK (nor ajv), and the bundled `mcp` serves through dist/vendor/mcp-sdk.js', async () => {
    const { dist } = await buildDist();
    const cliJs = readFileSync(path.join(dist, 'cli-main.js'), 'utf8');
    assert.ok(cliJs.includes('require("./vendor/mcp-sdk.js")'), "the CLI requires the SDK's vendor file");
    for (const marker of ['Server does not support', 'notifications/initialized', 'tools/list', 'ajv'])
      assert.ok(!cliJs.includes(marker), `the SDK's or ajv's "${marker}" is not in the CLI bundle`);
    const sdk = readFileSync(path.join(dist, 'vendor', 'mcp-sdk.js'), 'utf8');
    assert.ok(!sdk.includes('require("./mcp-sdk.js")'), "the SDK's modules are bundled together, not required from themselves");

    const ws = initRepo(tempDir('handoff-vendor-ws-'));
    write(ws, 'a.txt', 'a\n');
    commitAll(ws, 'c1');
    const requests = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'vendor-test', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      // The call handler's schema is ours (src/mcp/server.ts), run by the SDK's copy of zod.
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_specialists', arguments: 'not an object' } },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'list_specialists', arguments: {} } },
    ];
    const run = spawnSync(process.execPath, [path.join(dist, 'cli.js'), 'mcp', '--cwd', ws], {
      input: requests.map((r) => JSON.stringify(r)).join('\n') + '\n',
      encoding: 'utf8',
      env: { ...process.env, XDG_STATE_HOME: tempDir('handoff-vendor-xdg-'), HOME: tempDir('handoff-vendor-home-') },
      timeout: 60_000,
    });
    assert.equal(run.status, 0, run.stderr);
    const answers = new Map(
      run.stdout
        .trim()
        .split('\n')
        .map(
          (l) =>
            JSON.parse(l) as {
              id: number;
              result: { serverInfo?: { name: string }; tools?: Array<{ name: string }>; isError?: boolean; content?: Array<{ text: string }> };
            },
        )
        .map((a) => [a.id, a.result]),
    );
    assert.equal(answers.get(1)?.serverInfo?.name, 'specialist-handoff');
    assert.ok(
      answers.get(2)?.tools?.some((t) => t.name === 'handover_to_specialist'),
      'tools/list names the handover tool',
    );
    assert.equal(answers.get(3)?.isError, true);
    assert.match(answers.get(3)?.content?.[0].text ?? '', /^ERROR: arguments must be an object of the tool's fields \(got a string\)/);
    assert.ok(answers.get(4)?.content?.[0].text.includes('"quality_reviewer"'), 'list_specialists answered');
  });

  it('dist/extension.js does not carry yaml: it requires dist/vendor/yaml.js, which reads and writes frontmatter as the library does', async () => {
    const { extensionBuild } = (await import(pathToFileURL(path.join(ROOT, 'esbuild.mjs')).href)) as { extensionBuild: esbuild.BuildOptions };
    const outfile = path.join(tempDir('handoff-ext-'), 'extension.js');
    await esbuild.build({ ...extensionBuild, absWorkingDir: ROOT, outfile, logLevel: 'error' });
    const extJs = readFileSync(outfile, 'utf8');
    assert.ok(extJs.includes('require("./vendor/yaml.js")'), 'the extension requires the vendor file');
    assert.ok(!extJs.includes('Implicit keys need to be on a single line'), "yaml's parser is not in the extension bundle");
    const { dist } = await buildDist();
    const yaml = (await import(pathToFileURL(path.join(dist, 'vendor', 'yaml.js')).href)) as typeof Yaml;
    assert.equal(yaml.stringify({ status: 'pending', id: '2026-05-26' }, { lineWidth: 0, defaultStringType: 'PLAIN' }), 'status: pending\nid: 2026-05-26\n');
    assert.deepEqual(yaml.parseDocument('a: [1, "x"]\n').toJS(), { a: [1, 'x'] });
  });

  it('the bundled CLI reads a Goose sessions.db on this Node: node:sqlite where it has it, else dist/vendor/node-sqlite3-wasm.js with its WebAssembly beside it', async () => {
    const { dist } = await buildDist();
    const cliJs = readFileSync(path.join(dist, 'cli-main.js'), 'utf8');
    assert.ok(cliJs.includes('./vendor/node-sqlite3-wasm.js'), 'the CLI requires the vendor file');
    assert.ok(statSync(path.join(dist, 'vendor', 'node-sqlite3-wasm.wasm')).size > 500_000, 'the WebAssembly is beside it');
    const ws = initRepo(tempDir('handoff-vendor-sqlite-ws-'));
    write(ws, 'a.txt', 'a\n');
    commitAll(ws, 'c1');
    const db = path.join(tempDir('handoff-vendor-sqlite-'), 'sessions.db');
    const S = 1759320000;
    writeGooseDb(db, [
      {
        id: '20251001_1',
        workingDir: ws,
        updatedAt: '2025-10-01 12:00:00',
        messages: [
          { role: 'user', created: S, content: [{ type: 'text', text: 'make the failing test pass' }] },
          {
            role: 'assistant',
            created: S + 2,
            content: [
              {
                type: 'toolRequest',
                id: 'toolu_1',
                toolCall: { status: 'success', value: { name: 'developer__shell', arguments: { command: 'cargo test' } } },
              },
            ],
          },
          {
            role: 'user',
            created: S + 3,
            content: [
              {
                type: 'toolResponse',
                id: 'toolu_1',
                toolResult: { status: 'success', value: [{ type: 'text', text: 'test result: FAILED. 3 passed; 1 failed\n\nCommand exited with code 101' }] },
              },
            ],
          },
        ],
      },
    ]);
    const out = execFileSync(process.execPath, [path.join(dist, 'cli.js'), 'draft', '--json', '--session-log', db], {
      cwd: ws,
      encoding: 'utf8',
      env: { ...process.env, XDG_STATE_HOME: tempDir('handoff-vendor-xdg-') },
    });
    const got = JSON.parse(out) as {
      draft: { user_requests: Array<{ text: string }> };
      session_sources: Array<{ source: string; test_runs: number; commands: number }>;
    };
    assert.deepEqual(
      got.session_sources.map((s) => [s.source, s.commands, s.test_runs]),
      [['goose', 1, 1]],
    );
    assert.deepEqual(
      got.draft.user_requests.map((q) => q.text),
      ['make the failing test pass'],
    );
  });

  it("a bundle built with the extension's plugins keeps zod's English messages and carries no other locale", async () => {
    const { extensionBuild } = (await import(pathToFileURL(path.join(ROOT, 'esbuild.mjs')).href)) as { extensionBuild: esbuild.BuildOptions };
    const dir = tempDir('handoff-zod-');
    const entry = path.join(dir, 'entry.ts');
    writeFileSync(
      entry,
      `import { z } from 'zod';\nconst r = z.object({ n: z.number().int() }).safeParse({ n: 'x' });\nprocess.stdout.write(JSON.stringify({ message: r.success ? '' : r.error.issues[0].message, locales: Object.keys(z.locales) }));\n`,
    );
    const outfile = path.join(dir, 'out.js');
    await esbuild.build({
      ...extensionBuild,
      entryPoints: [entry],
      absWorkingDir: ROOT,
      nodePaths: [path.join(ROOT, 'node_modules')],
      outfile,
      logLevel: 'error',
    });
    const got = JSON.parse(execFileSync(process.execPath, [outfile], { encoding: 'utf8' })) as { message: string; locales: string[] };
    assert.equal(got.message, 'Invalid input: expected number, received string');
    assert.deepEqual(got.locales, ['en']);
    // zod with every locale bundles to ~450 KB (the webview measured 443 KB before it moved to zod/mini).
    assert.ok(statSync(outfile).size < 250_000, `zod without its other locales: ${statSync(outfile).size} bytes`);
  });
});
