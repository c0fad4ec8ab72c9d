/**
 * Claude Code's own CLI (the version package.json pins, no sign-in, the network closed) with
 * the commands and settings docs/AGENTS.md gives users, taken from the document itself:
 * - `claude mcp add specialist-handoff -- specialist-handoff mcp`, then `claude mcp list`
 *   reports the server connected (and a server that cannot start as failed, so the check is
 *   real);
 * - the hooks block loads without a settings error (a malformed entry is reported, so the
 *   check is real), and a `claude -p` session runs it: the `SessionStart` answer is in the
 *   session's transcript as added context — the pending handoff's receiving prompt, within
 *   10,000 characters — the handoff is still pending afterwards, and the `SessionEnd` hook
 *   wrote the safety net with Claude Code's session id.
 * `specialist-handoff` is the CLI built from the sources, linked first on PATH as npm links a bin.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SESSION_START_CONTEXT_LIMIT, takeCommand } from '../../src/core/agents/sessionStart';
import { parseHandoff } from '../../src/core/handoff/parse';
import { readHandoffHead } from '../../src/store/handoffs/handoffIndex';
import { binFolder, claudeBinary, clientEnv, pathWith, pinnedVersion, ROOT } from '../helpers/clients';
import { buildDist } from '../helpers/dist';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../helpers/repo';

const AGENTS_MD = readFileSync(path.join(ROOT, 'docs', 'AGENTS.md'), 'utf8');

/** The hooks block of docs/AGENTS.md: its one JSON block with SessionStart, SessionEnd and PreCompact. */
function documentedHooks(): { hooks: Record<string, unknown> } {
  const blocks = [...AGENTS_MD.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]).filter((b) => b.includes('"SessionEnd"'));
  assert.equal(blocks.length, 1, 'one hooks block in docs/AGENTS.md');
  const json = JSON.parse(blocks[0]) as { hooks: Record<string, unknown> };
  assert.deepEqual(Object.keys(json.hooks), ['SessionStart', 'SessionEnd', 'PreCompact']);
  return json;
}

/** The `claude mcp add` command of docs/AGENTS.md (the user's own scope), as its words. */
function documentedMcpAdd(): string[] {
  const line = AGENTS_MD.split('\n').find((l) => l.startsWith('claude mcp add specialist-handoff -- '));
  assert.ok(line, 'docs/AGENTS.md gives the claude mcp add command');
  return line
    .replace(/\s+#.*$/, '')
    .trim()
    .split(/\s+/)
    .slice(1);
}

/** What Claude Code reports when it skips settings entries (seen with a malformed entry below). */
const SETTINGS_ERROR = /settings entries were skipped|Invalid settings|Settings Error/i;

describe('Claude Code CLI with the documented MCP command and hooks', function () {
  this.timeout(300_000);
  let env: NodeJS.ProcessEnv;
  let home: string;
  const claude = claudeBinary();
  const run = (args: string[], cwd: string, extraEnv: NodeJS.ProcessEnv = {}) => {
    const r = spawnSync(claude, args, { cwd, env: { ...env, ...extraEnv }, encoding: 'utf8', timeout: 180_000, input: '' });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };

  before(async () => {
    const { dist } = await buildDist();
    home = tempDir('handoff-claude-home-');
    env = clientEnv(home, { PATH: pathWith(binFolder(dist)) });
  });
  after(cleanupTempDirs);

  /** A repository with work on top of one commit. */
  function repository(): string {
    const repo = initRepo(tempDir('handoff-claude-repo-'));
    write(repo, 'src/login.ts', 'export const ok = false;\n');
    commitAll(repo, 'login');
    write(repo, 'src/login.ts', 'export const ok = true;\n');
    return repo;
  }

  it('is the version package.json pins, and runs without signing in', () => {
    const r = run(['--version'], tempDir());
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out.trim(), `${pinnedVersion('@anthropic-ai/claude-code')} (Claude Code)`);
  });

  it('claude mcp add of our server, then claude mcp list reports it connected (a server that cannot start: failed)', () => {
    const repo = repository();
    const add = run(['mcp', ...documentedMcpAdd().slice(1)], repo);
    assert.equal(add.code, 0, `${add.out}\n${add.err}`);
    assert.match(add.out, /Added stdio MCP server specialist-handoff with command: specialist-handoff mcp/);
    const broken = run(['mcp', 'add', 'broken-handoff', '--', 'specialist-handoff', 'mcp', '--cwd', path.join(repo, 'gone')], repo);
    assert.equal(broken.code, 0, broken.err);
    const list = run(['mcp', 'list'], repo);
    assert.equal(list.code, 0, `${list.out}\n${list.err}`);
    assert.match(list.out, /^specialist-handoff: specialist-handoff mcp - ✔ Connected$/m, list.out);
    assert.match(list.out, /^broken-handoff: specialist-handoff mcp --cwd \S+gone - ✘ Failed to connect\b/m, list.out);
  });

  it('the documented hooks load without a settings error; a malformed entry is reported', () => {
    const bad = repository();
    mkdirSync(path.join(bad, '.claude'));
    const broken = documentedHooks();
    (broken.hooks.SessionEnd as Array<{ hooks: Array<Record<string, unknown>> }>)[0].hooks[0] = { type: 'command', timeout: 'sixty' };
    writeFileSync(path.join(bad, '.claude', 'settings.json'), JSON.stringify(broken, null, 2));
    const refused = run(['-p', 'hello'], bad);
    assert.match(refused.err, SETTINGS_ERROR, refused.err);
    assert.match(refused.err, /\.claude\/settings\.json \(hooks\.SessionEnd\.0\.hooks\.0\): Invalid command hook/);

    const repo = repository();
    mkdirSync(path.join(repo, '.claude'));
    writeFileSync(path.join(repo, '.claude', 'settings.json'), JSON.stringify(documentedHooks(), null, 2));
    const r = run(['-p', 'hello'], repo);
    assert.doesNotMatch(r.err, SETTINGS_ERROR, r.err);
    assert.match(r.out, /Not logged in/, 'no sign-in: the session stops before the model, after the hooks');
  });

  it("a session start gets the pending handoff's prompt as context; the handoff stays pending; the session end writes the safety net", async () => {
    const repo = repository();
    mkdirSync(path.join(repo, '.claude'));
    writeFileSync(path.join(repo, '.claude', 'settings.json'), JSON.stringify(documentedHooks(), null, 2));
    const handed = spawnSync(
      'specialist-handoff',
      ['handover', '--specialist', 'quality_reviewer', '--topic', 'Login fix', '--summary', 'The login check is fixed; review src/login.ts.', '--json'],
      { cwd: repo, env, encoding: 'utf8' },
    );
    assert.equal(handed.status, 0, handed.stderr);
    const file = (JSON.parse(handed.stdout) as { handoff_file: string }).handoff_file;
    const id = path.basename(file, '.md');

    const r = run(['-p', 'hello'], repo);
    assert.match(r.out, /Not logged in/, r.err);
    // The session's transcript, where Claude Code keeps it: what it added to the context.
    const projects = path.join(home, '.claude', 'projects');
    const transcripts = readdirSync(projects, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => path.join(projects, f));
    const records = transcripts.flatMap((f) =>
      readFileSync(f, 'utf8')
        .trim()
        .split('\n')
        .map((l) => ({
          file: f,
          record: JSON.parse(l) as {
            sessionId?: string;
            cwd?: string;
            attachment?: { type: string; hookName?: string; content?: unknown; stdout?: string; exitCode?: number };
          },
        })),
    );
    const mine = records.filter((x) => x.record.cwd === repo);
    const ran = mine.find((x) => x.record.attachment?.type === 'hook_success' && x.record.attachment.hookName === 'SessionStart:startup');
    assert.ok(ran, `Claude Code ran the SessionStart hook: ${mine.map((x) => x.record.attachment?.type).join(', ')}`);
    assert.equal(ran.record.attachment!.exitCode, 0);
    const added = mine.find((x) => x.record.attachment?.type === 'hook_additional_context');
    assert.ok(added, 'Claude Code added the answer to the context');
    const [context] = added.record.attachment!.content as string[];
    assert.ok(context.length <= SESSION_START_CONTEXT_LIMIT, `${context.length}`);
    assert.match(
      context,
      new RegExp(
        `^# Specialist Handoff: a handoff waits to be picked up\\n\\ndeveloper → Quality reviewer \\[quality reviewer\\] · "Login fix" · .* \\(handoff ${id}\\)`,
      ),
    );
    assert.ok(context.includes(takeCommand(id)));
    assert.ok(context.includes('The login check is fixed; review src/login.ts.'), 'the receiving prompt carries the handoff');

    const head = await readHandoffHead(file);
    assert.equal(head?.frontmatter.status, 'pending', 'not marked picked up');
    const nets = readdirSync(path.join(repo, '.handoff', 'handoffs')).filter((n) => n.endsWith('_implementation_engineer.md'));
    assert.equal(nets.length, 1, 'the SessionEnd hook wrote one safety net');
    const net = parseHandoff(readFileSync(path.join(repo, '.handoff', 'handoffs', nets[0]), 'utf8'));
    assert.ok(net.ok);
    assert.equal(net.handoff.frontmatter.from, 'claude-code');
    assert.equal(net.handoff.frontmatter.session_id, ran.record.sessionId, "Claude Code's session id");
    assert.ok(existsSync(path.join(repo, '.handoff', 'briefings')));
  });
});
