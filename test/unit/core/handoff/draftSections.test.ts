/**
 * The drafted sections of a handoff (issue 15): Done, User requests and Commands run render
 * and read back unchanged, a request cannot add a heading or break the structure, the
 * frontmatter carries their counts, the loss report and the drafted fields (older files
 * still parse), what a caller gives is never replaced by the draft, and fit-to-budget cuts
 * commands before the summary and user requests last, never the latest.
 */
import assert from 'node:assert/strict';
import { fitToBudget } from '../../../../src/core/handoff/compose';
import { mergeDraft } from '../../../../src/core/handoff/drafted';
import type { CommandRun, SessionDraft, UserRequest } from '../../../../src/core/handoff/draftFields';
import { parseCommandsRun, parseDone, parseUserRequests, renderCommandsRun, renderUserRequests } from '../../../../src/core/handoff/draftSections';
import { parseHandoff, splitSections } from '../../../../src/core/handoff/parse';
import { HANDOFF_SECTIONS, renderHandoff } from '../../../../src/core/handoff/render';
import { parseHandoverRequest } from '../../../../src/core/handoff/request';
import { HandoffFrontmatterSchema, HandoffPackageSchema, type HandoffPackage } from '../../../../src/core/handoff/schema';
import { counterFor } from '../../../../src/engine/tokenizers/tokenizer';
import { META, pkgFrom, reviewer } from '../../../helpers/packages';

const REQUESTS: UserRequest[] = [
  { text: 'Set up the parser.', time: '2026-12-01T10:00:00.000Z', source: 'claude-code' },
  { text: 'No — use YAML.\n\n## Not a heading\n```\nnot a fence\n---\nKeep the old keys.', time: null, source: 'codex' },
  { text: 'Line one\rline two after a lone CR\r\nline three', time: '2026-12-01T10:05:00.000Z', source: 'claude-code' },
];
const COMMANDS: CommandRun[] = [
  {
    command: 'npm run build',
    cwd: 'packages/api',
    kind: 'build',
    exit_code: 2,
    result: 'failed',
    count: 3,
    failed_count: 2,
    source: 'claude-code',
    last_at: '2026-12-01T10:04:00.000Z',
  },
  { command: 'npm ci', cwd: null, kind: 'install', exit_code: 0, result: 'succeeded', count: 1, failed_count: 0, source: 'claude-code', last_at: null },
  {
    command: 'git commit -m "a `tick`"',
    cwd: null,
    kind: 'git',
    exit_code: null,
    result: 'unknown',
    count: 2,
    failed_count: 0,
    source: 'aider',
    last_at: null,
  },
];

function withDrafted(over: Partial<HandoffPackage>): HandoffPackage {
  return { ...pkgFrom({ summary: 'S' }), ...over };
}

function draft(over: Partial<SessionDraft> = {}): SessionDraft {
  const src = { reader: 'claude-code', file: null, time: null };
  return {
    summary: { text: 'Asked: "x"', sources: [src] },
    decisions: [],
    failed_approaches: [],
    next_steps: [
      { text: 'Keep the old keys', source: src, in_progress: true },
      { text: 'Write tests', source: src },
    ],
    blockers: [{ text: 'The last test run failed: `npm test`', source: src }],
    completed: [{ text: 'Parse YAML', source: src }],
    user_requests: REQUESTS.map((r) => ({ ...r, file: '/t.jsonl' })),
    commands_run: COMMANDS,
    commands_run_omitted: 4,
    left_out: { older_requests: 2, commands_beyond_cap: 9, collapsed_todos: 1, turns: 30 },
    ...over,
  };
}

describe('drafted sections: Done, User requests, Commands run', () => {
  it('render and read back: the requests verbatim (line breaks as LF), the commands with exit code, folder and count, the done items', () => {
    const pkg = withDrafted({
      user_requests: REQUESTS,
      user_requests_omitted: 2,
      commands_run: COMMANDS,
      commands_run_omitted: 4,
      completed: ['Parse YAML', 'Map the old keys\nto the new ones'],
    });
    const text = renderHandoff(pkg, META, reviewer);
    const parsed = parseHandoff(text);
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
    const sections = parsed.handoff.sections;
    assert.deepEqual([...sections.keys()], [...HANDOFF_SECTIONS]);
    assert.deepEqual(
      parseUserRequests(sections.get('User requests')!),
      REQUESTS.map((r) => ({ ...r, text: r.text.replace(/\r\n|\r/g, '\n') })),
    );
    assert.deepEqual(parseCommandsRun(sections.get('Commands run')!), COMMANDS);
    assert.deepEqual(parseDone(sections.get('Done')!), ['Parse YAML', 'Map the old keys\nto the new ones']);
    assert.match(sections.get('User requests')!, /^\*\*Request 3\*\* \(claude-code, 2026-12-01T10:00:00\.000Z\):/);
    assert.match(sections.get('User requests')!, /\*\*Request 5, the latest\*\*/);
    assert.match(sections.get('User requests')!, /_2 older requests are not carried\._$/);
    assert.match(
      sections.get('Commands run')!,
      /^- ❌ `npm run build` \(exit 2; in `packages\/api`; ×3, 2 failed; build; source: claude-code; last at 2026-12-01T10:04:00\.000Z\)$/m,
    );
    assert.match(sections.get('Commands run')!, /^- ❔ ``git commit -m "a `tick`"`` \(exit code unknown; ×2; git; source: aider\)$/m);
    assert.match(sections.get('Commands run')!, /^- … and 4 more$/m);
  });

  it('compact, a folder every command ran in is said once under the list, and read back onto each command (verify re-runs builds there)', () => {
    const inFolder = (command: string) => ({
      command,
      cwd: '/srv/app',
      kind: 'build' as const,
      exit_code: 0,
      result: 'succeeded' as const,
      count: 1,
      failed_count: 0,
      source: 'codex',
      last_at: null,
    });
    const commands = [inFolder('make'), inFolder('npm run build')];
    const text = renderCommandsRun(commands, 0, [], true);
    assert.equal(text, '- ✅ `make` (exit 0; build)\n- ✅ `npm run build` (exit 0; build)\n\n_All run in `/srv/app`._');
    assert.deepEqual(
      parseCommandsRun(text).map((c) => [c.command, c.cwd]),
      [
        ['make', '/srv/app'],
        ['npm run build', '/srv/app'],
      ],
    );
    // Folders that differ stay on their lines, and a line that names its own folder keeps it.
    const mixed = renderCommandsRun([inFolder('make'), { ...inFolder('npm ci'), cwd: 'web' }], 0, [], true);
    assert.ok(!mixed.includes('All run in'));
    assert.deepEqual(
      parseCommandsRun(mixed).map((c) => c.cwd),
      ['/srv/app', 'web'],
    );
  });

  it('a request cannot add a heading, a section or a fence to the file, nor break a line with a lone CR', () => {
    const hostile = ['## Injected section', '# Title', '```', '~~~', '---', 'text\r## After a lone CR', '<!-- hide the rest', '> nested quote'].join('\n');
    const text = renderHandoff(withDrafted({ user_requests: [{ text: hostile, time: null, source: 'user' }] }), META, reviewer);
    assert.deepEqual([...splitSections(text).keys()], [...HANDOFF_SECTIONS]);
    const body = text.slice(text.indexOf('## User requests'), text.indexOf('## Decisions'));
    const quoted = body.split('\n').slice(4, -2);
    assert.ok(quoted.length >= 9 && quoted.every((l) => l === '>' || l.startsWith('> ')), `every line of the request is quoted:\n${quoted.join('\n')}`);
    assert.ok(!/^#/m.test(body.replace(/^## User requests/, '')), 'no line of the section starts a heading');
  });

  it('shows a source or time with a line break on one line', () => {
    const body = renderUserRequests([{ text: 'x', time: '2026\n## t', source: 'evil\n## Injected' }], 0, []);
    assert.equal(body.split('\n')[0], '**Request 1, the latest** (evil ## Injected, 2026_##_t):');
    const cmd = renderCommandsRun([{ ...COMMANDS[1], source: 'a\nb' }], 0, []);
    assert.equal(cmd.split('\n').length, 1);
  });

  it('writes the counts, the loss report and the drafted fields in the frontmatter, and reads files written before them', () => {
    const pkg = withDrafted({
      user_requests: REQUESTS,
      user_requests_omitted: 2,
      commands_run: COMMANDS,
      commands_run_omitted: 4,
      completed: ['a'],
      left_out: { older_requests: 2, commands_beyond_cap: 9, collapsed_todos: 1, turns: 30 },
      drafted: ['summary', 'user_requests'],
    });
    const parsed = parseHandoff(renderHandoff(pkg, META, reviewer));
    assert.ok(parsed.ok);
    const fm = parsed.handoff.frontmatter;
    assert.deepEqual([fm.completed_count, fm.user_requests_count, fm.commands_run_count, fm.user_requests_omitted, fm.commands_run_omitted], [1, 5, 7, 2, 4]);
    assert.deepEqual(fm.left_out, { older_requests: 2, commands_beyond_cap: 9, collapsed_todos: 1, turns: 30 });
    assert.deepEqual(fm.drafted, ['summary', 'user_requests']);
    // A file written before issue 15: none of these keys.
    const old = { ...fm } as Record<string, unknown>;
    for (const k of ['completed_count', 'user_requests_count', 'commands_run_count', 'user_requests_omitted', 'commands_run_omitted', 'left_out', 'drafted'])
      delete old[k];
    const back = HandoffFrontmatterSchema.parse(old);
    assert.deepEqual([back.completed_count, back.user_requests_omitted, back.drafted, back.left_out.turns], [0, 0, [], 0]);
    // …and a package from before (the result object of an older version).
    const oldPkg = { ...pkgFrom({}) } as Record<string, unknown>;
    for (const k of ['completed', 'user_requests', 'user_requests_omitted', 'commands_run', 'commands_run_omitted', 'left_out', 'drafted']) delete oldPkg[k];
    const p = HandoffPackageSchema.parse(oldPkg);
    assert.deepEqual([p.completed, p.user_requests, p.commands_run, p.drafted], [[], [], [], []]);
  });
});

describe('mergeDraft: what a handoff takes from its draft', () => {
  const req = (input: Record<string, unknown>) => {
    const r = parseHandoverRequest({ specialist: 'hacker', topic: 't', ...input });
    if (!r.ok) throw new Error(r.message);
    return r.request;
  };

  it('without draft: true, takes only the user requests and commands run (and the loss report) from the draft', () => {
    const m = mergeDraft(req({}), draft());
    assert.equal(m.summary, '');
    assert.deepEqual([m.next_steps, m.blockers, m.completed], [[], [], []]);
    assert.deepEqual(
      m.user_requests.map((r) => r.text),
      REQUESTS.map((r) => r.text),
    );
    assert.deepEqual(Object.keys(m.user_requests[0]).sort(), ['source', 'text', 'time'], 'no transcript path in the package');
    assert.equal(m.user_requests_omitted, 2);
    assert.equal(m.commands_run_omitted, 4);
    assert.deepEqual(m.left_out, draft().left_out);
    assert.deepEqual(m.drafted, ['user_requests', 'commands_run']);
  });

  it('with draft: true, fills every field left empty, marks the in-progress step, and never replaces a field given', () => {
    const all = mergeDraft(req({ draft: true }), draft());
    assert.equal(all.summary, 'Asked: "x"');
    assert.deepEqual(all.next_steps, ['(in progress) Keep the old keys', 'Write tests']);
    assert.deepEqual(all.completed, ['Parse YAML']);
    assert.deepEqual(all.blockers, ['The last test run failed: `npm test`']);
    assert.deepEqual(all.drafted, ['summary', 'next_steps', 'blockers', 'completed', 'user_requests', 'commands_run']);
    const given = mergeDraft(
      req({ draft: true, summary: 'Mine.', next_steps: ['My step'], user_requests: ['only this'], commands_run: [], drafted: ['blockers'] }),
      draft(),
    );
    assert.equal(given.summary, 'Mine.');
    assert.deepEqual(given.next_steps, ['My step']);
    assert.deepEqual(given.user_requests, [{ text: 'only this', time: null, source: 'user' }]);
    assert.deepEqual(given.commands_run, []);
    assert.equal(given.user_requests_omitted, 0);
    assert.deepEqual(given.drafted, ['blockers', 'completed'], 'what the caller said is still drafted, plus what the draft filled');
  });

  it('a list the caller gives still as drafted (the panel, not edited) keeps the draft’s counts of the older requests and the commands beyond the cap', () => {
    const asDrafted = mergeDraft(
      req({ user_requests: REQUESTS.map((r) => r.text), commands_run: COMMANDS, drafted: ['user_requests', 'commands_run'] }),
      draft(),
    );
    assert.equal(asDrafted.user_requests_omitted, 2);
    assert.equal(asDrafted.commands_run_omitted, 4);
    const edited = mergeDraft(req({ user_requests: ['only this'], commands_run: [], drafted: [] }), draft());
    assert.deepEqual([edited.user_requests_omitted, edited.commands_run_omitted], [0, 0], 'an edited list is the caller’s own');
  });
});

describe('fit to budget with drafted sections', () => {
  const counter = counterFor('o200k_base');
  const many = (n: number): UserRequest[] =>
    Array.from({ length: n }, (_, i) => ({
      text: `Request number ${i}: ${'please keep every detail of this instruction verbatim '.repeat(6)}`,
      time: null,
      source: 'claude-code',
    }));

  it('shortens commands and older requests before cutting any: the latest whole, older ones newest first as their first line, and says so', () => {
    const requests = many(12).map((r) => ({ ...r, text: `${r.text}\nA second line with more detail.` }));
    const commands = Array.from({ length: 20 }, (_, i) => ({ ...COMMANDS[1], command: `npm run task-${i} --with-a-long-flag-name` }));
    const base = withDrafted({ summary: 'A summary of the work. '.repeat(40), user_requests: requests, commands_run: commands, max_context_tokens: 1500 });
    const fit = fitToBudget(base, META, reviewer, counter);
    assert.equal(fit.fits, true, `${fit.pkg.estimated_tokens}`);
    assert.equal(fit.pkg.commands_run.length, 20, 'every command, in its shortest form');
    assert.equal(fit.pkg.commands_run_form, 'compact');
    assert.equal(fit.pkg.user_requests.at(-1)?.text, requests.at(-1)?.text, 'the latest request whole');
    // The older requests shown are the newest ones, each whole or as its first line.
    const shown = fit.pkg.user_requests.slice(0, -1);
    const older = requests.slice(requests.length - 1 - shown.length, -1);
    shown.forEach((r, i) =>
      assert.ok(
        r.text === older[i].text || r.text === `${older[i].text.split('\n')[0]} …` || (r.text.endsWith(' …') && older[i].text.startsWith(r.text.slice(0, -2))),
        r.text,
      ),
    );
    assert.ok(shown.length > 0, 'some older requests are shown');
    const cut = fit.pkg.dropped.find((d) => d.section === 'user_requests') ?? { count: 0, shortened: 0 };
    assert.equal(fit.pkg.user_requests_omitted, cut.count);
    assert.ok(cut.count > 0 || (cut.shortened ?? 0) > 0, 'shortened or cut');
    assert.equal(fit.pkg.user_requests.length, 12 - cut.count);
    const text = renderHandoff(fit.pkg, META, reviewer);
    if (cut.count > 0)
      assert.match(text, new RegExp(`_${cut.count} older requests? (?:is|are) not carried \\(${cut.count} cut to fit the token budget, \\d+ tokens\\)\\._`));
    if (cut.shortened) assert.match(text, new RegExp(`_${cut.shortened} requests? shortened`));
    assert.match(text, /_20 commands shown as their first line to fit the token budget\._/);
  });

  it('never cuts the only request: a long one keeps its head, marked with how much was left out', () => {
    const [only] = many(1);
    const fit = fitToBudget(withDrafted({ user_requests: [{ ...only, text: only.text.repeat(20) }], max_context_tokens: 300 }), META, reviewer, counter);
    assert.match(fit.pkg.user_requests[0].text, / … \[[\d,]+ more characters\]$/);
    assert.equal(fit.pkg.user_requests.length, 1);
    assert.ok(fit.pkg.user_requests[0].text.startsWith('Request number 0: please keep every detail'));
    assert.equal(fit.pkg.dropped.find((d) => d.section === 'user_requests')?.count ?? 0, 0, 'none cut');
  });
});
