import assert from 'node:assert/strict';
import { BUILTIN_SPECIALIST_IDS } from '../../../../src/core/specialists/registry';
import {
  PRIOR_HANDOFFS_BUDGET_BYTES,
  PRIOR_HANDOFFS_HEADING,
  cutUtf8,
  groupChains,
  parseFileTimestamp,
  parseTimelineFileName,
  priorHandoffsBlock,
  utf8Length,
  type ChainInfo,
  type TimelineFile,
  type TimelineNode,
} from '../../../../src/core/timeline/chains';

const KNOWN = [...BUILTIN_SPECIALIST_IDS];

describe('timeline file names', () => {
  it('reads our handoff names with and without milliseconds, and partial ones', () => {
    const f = parseTimelineFileName('handoff', '2026-05-26T14-30-45.123Z_quality_reviewer.md', '/w/.handoff/handoffs/x', KNOWN);
    assert.deepEqual(f, {
      key: 'handoff:2026-05-26T14-30-45.123Z_quality_reviewer.md',
      source: 'handoff',
      name: '2026-05-26T14-30-45.123Z_quality_reviewer.md',
      path: '/w/.handoff/handoffs/x',
      time: Date.parse('2026-05-26T14:30:45.123Z'),
      specialist: 'quality_reviewer',
      topic: null,
      partial: false,
    });
    const p = parseTimelineFileName('handoff', '2026-05-26T14-30-45Z_researcher.partial.md', 'p', KNOWN);
    assert.equal(p?.time, Date.parse('2026-05-26T14:30:45Z'));
    assert.equal(p?.specialist, 'researcher');
    assert.equal(p?.partial, true);
  });

  it('refuses our names whose specialist breaks the id pattern, and other files', () => {
    for (const name of [
      '2026-05-26T14-30-45Z_Researcher.md',
      '2026-05-26T14-30-45Z_.md',
      '2026-05-26T14:30:45Z_researcher.md',
      '2026-05-26T14-30-45_researcher.md',
      '2026-05-26T14-30-45Z_researcher.md.tmp',
      '2026-02-30T14-30-45Z_researcher.md',
      '2026-05-26T24-00-00Z_researcher.md',
      'README.md',
    ]) {
      assert.equal(parseTimelineFileName('handoff', name, name, KNOWN), undefined, name);
    }
  });

  it('reads itervox profile names of [A-Za-z0-9_-], 1–64 characters', () => {
    const f = parseTimelineFileName('itervox', '2026-05-26T15-12-00Z_Implementer-2.partial.md', '.itervox/handoff/x', KNOWN);
    assert.equal(f?.key, 'itervox:2026-05-26T15-12-00Z_Implementer-2.partial.md');
    assert.equal(f?.specialist, 'Implementer-2');
    assert.equal(f?.partial, true);
    assert.equal(f?.time, Date.parse('2026-05-26T15:12:00Z'));
    assert.equal(parseTimelineFileName('itervox', `2026-05-26T15-12-00Z_${'a'.repeat(64)}.md`, 'x', KNOWN)?.specialist.length, 64);
    assert.equal(parseTimelineFileName('itervox', `2026-05-26T15-12-00Z_${'a'.repeat(65)}.md`, 'x', KNOWN), undefined);
    assert.equal(parseTimelineFileName('itervox', '2026-05-26T15-12-00Z_re.viewer.md', 'x', KNOWN), undefined);
    assert.equal(parseTimelineFileName('itervox', '2026-05-26T15-12-00.5Z_r.md', 'x', KNOWN)?.time, Date.parse('2026-05-26T15:12:00.500Z'));
  });

  it('reads Agent Zero briefing names by the longest known specialist prefix', () => {
    const f = parseTimelineFileName('agent-zero', 'test-debug-engineer-flaky-login-2026-06-05.md', '.a0proj/handover/x', KNOWN);
    assert.deepEqual(f, {
      key: 'agent-zero:test-debug-engineer-flaky-login-2026-06-05.md',
      source: 'agent-zero',
      name: 'test-debug-engineer-flaky-login-2026-06-05.md',
      path: '.a0proj/handover/x',
      time: Date.UTC(2026, 5, 5),
      specialist: 'test_debug_engineer',
      topic: 'flaky-login',
      partial: false,
    });
    // "security-data-engineer" is longer than a known "security" id would be.
    const g = parseTimelineFileName('agent-zero', 'security-data-engineer-tokens-2026-06-05.md', 'x', ['security', 'security_data_engineer']);
    assert.equal(g?.specialist, 'security_data_engineer');
    assert.equal(g?.topic, 'tokens');
    // A known id must end at a dash: "hackers-…" is not "hacker".
    const h = parseTimelineFileName('agent-zero', 'hackers-x-2026-06-05.md', 'x', ['hacker']);
    assert.equal(h?.specialist, 'hackers');
    assert.equal(h?.topic, 'x');
  });

  it('falls back to the first dash-separated token for unknown Agent Zero specialists', () => {
    const f = parseTimelineFileName('agent-zero', 'frontend-designer-landing-page-hero-2026-06-05.md', 'x', ['hacker']);
    assert.equal(f?.specialist, 'frontend');
    assert.equal(f?.topic, 'designer-landing-page-hero');
    const bare = parseTimelineFileName('agent-zero', 'hacker-2026-06-05.md', 'x', KNOWN);
    assert.equal(bare?.specialist, 'hacker');
    assert.equal(bare?.topic, null);
  });

  it('refuses Agent Zero names without a real day', () => {
    for (const name of ['hacker-x-2026-02-30.md', 'hacker-x-2026-13-01.md', 'hacker-x.md', '-2026-06-05.md', 'hacker-x-2026-06-05.txt']) {
      assert.equal(parseTimelineFileName('agent-zero', name, name, KNOWN), undefined, name);
    }
  });

  it('parses file timestamps strictly, ignoring digits past milliseconds', () => {
    assert.equal(parseFileTimestamp('2026-05-26T14-30-45.123456789Z'), Date.parse('2026-05-26T14:30:45.123Z'));
    assert.equal(parseFileTimestamp('2028-02-29T00-00-00Z'), Date.UTC(2028, 1, 29));
    assert.equal(parseFileTimestamp('2026-02-29T00-00-00Z'), undefined);
    assert.equal(parseFileTimestamp('2026-05-26T14-60-00Z'), undefined);
  });
});

function file(name: string, time: number): TimelineFile {
  return { key: `handoff:${name}`, source: 'handoff', name, path: name, time, specialist: 's', topic: null, partial: false };
}

function link(id: string, parent: string | null): ChainInfo {
  return { id, root_id: 'r', parent_id: parent, status: 'pending', topic: null, hop: null };
}

/** The tree as nested names, e.g. `a(b,c(d))`; iterative so deep chains do not overflow. */
function shape(nodes: readonly TimelineNode[]): string {
  const out: string[] = [];
  const stack: Array<TimelineNode | string> = [];
  for (let i = nodes.length - 1; i >= 0; i--) {
    stack.push(nodes[i]);
    if (i > 0) stack.push(',');
  }
  while (stack.length) {
    const top = stack.pop() as TimelineNode | string;
    if (typeof top === 'string') {
      out.push(top);
      continue;
    }
    out.push(top.file.name);
    if (top.children.length) {
      stack.push(')');
      for (let i = top.children.length - 1; i >= 0; i--) {
        stack.push(top.children[i]);
        if (i > 0) stack.push(',');
      }
      stack.push('(');
    }
  }
  return out.join('');
}

function countNodes(nodes: readonly TimelineNode[]): { count: number; keys: Set<string> } {
  const keys = new Set<string>();
  let count = 0;
  const stack = [...nodes];
  while (stack.length) {
    const n = stack.pop() as TimelineNode;
    count++;
    keys.add(n.file.key);
    stack.push(...n.children);
  }
  return { count, keys };
}

describe('groupChains', () => {
  const a = file('a', 1);
  const b = file('b', 2);
  const c = file('c', 3);
  const d = file('d', 4);
  const x = file('x', 5);
  const y = file('y', 6);

  it('nests each hop under its parent and orders newest chains first', () => {
    const info = new Map([
      [a.key, link('A', null)],
      [b.key, link('B', 'A')],
      [c.key, link('C', 'A')],
      [d.key, link('D', 'C')],
      [y.key, link('Y', null)],
    ]);
    // Chain A's latest time is d (4); x (5, no info) and y (6) are roots of their own.
    assert.equal(shape(groupChains([d, x, a, b, y, c], info, 'newest')), 'y,x,a(c(d),b)');
    assert.equal(shape(groupChains([d, x, a, b, y, c], info, 'oldest')), 'a(b,c(d)),x,y');
  });

  it('orders chains by their latest hop for newest, their first hop for oldest', () => {
    // Chain A: a (1) → y (6). Chain B: b (2) → c (3).
    const info = new Map([
      [a.key, link('A', null)],
      [y.key, link('Y', 'A')],
      [b.key, link('B', null)],
      [c.key, link('C', 'B')],
    ]);
    assert.equal(shape(groupChains([a, b, c, y], info, 'newest')), 'a(y),b(c)');
    assert.equal(shape(groupChains([a, b, c, y], info, 'oldest')), 'a(y),b(c)');
    const later = new Map([...info, [x.key, link('X', 'B')]]);
    assert.equal(shape(groupChains([a, b, c, x, y], later, 'newest')), 'a(y),b(x,c)');
    const first = file('first', 0);
    const info2 = new Map([...info, [first.key, link('F', null)]]);
    assert.equal(shape(groupChains([first, a, b, c, y], info2, 'oldest')), 'first,a(y),b(c)');
    assert.equal(shape(groupChains([first, a, b, c, y], info2, 'newest')), 'a(y),b(c),first');
  });

  it('makes roots of files whose parent is unknown, missing or themselves', () => {
    const info = new Map([
      [a.key, link('A', 'nowhere')],
      [b.key, link('B', 'B')],
    ]);
    assert.equal(shape(groupChains([a, b, c], info, 'oldest')), 'a,b,c');
    assert.deepEqual(groupChains([], new Map(), 'newest'), []);
  });

  it('breaks cycles at their oldest file and keeps every file exactly once', () => {
    const info = new Map([
      [a.key, link('A', 'C')],
      [b.key, link('B', 'A')],
      [c.key, link('C', 'B')],
      [d.key, link('D', 'C')],
    ]);
    assert.equal(shape(groupChains([c, d, b, a], info, 'oldest')), 'a(b(c(d)))');
  });

  it('attaches children of a duplicated id to its oldest claimant, and keeps the duplicate', () => {
    const info = new Map([
      [a.key, link('SAME', null)],
      [b.key, link('SAME', null)],
      [c.key, link('C', 'SAME')],
    ]);
    assert.equal(shape(groupChains([b, c, a], info, 'oldest')), 'a(c),b');
    // Two files claiming the same id and naming it as parent: no loop, both appear.
    const loop = new Map([
      [a.key, link('SAME', 'SAME')],
      [b.key, link('SAME', 'SAME')],
    ]);
    assert.equal(shape(groupChains([a, b], loop, 'oldest')), 'a(b)');
  });

  it('keeps duplicate input entries once each', () => {
    const info = new Map([[a.key, link('A', 'A2')]]);
    const out = countNodes(groupChains([a, a], info, 'newest'));
    assert.equal(out.count, 2);
  });

  it('handles 10,000 files — a 10,000-hop chain, random forests and cycles — fast', () => {
    const n = 10_000;
    const files = Array.from({ length: n }, (_, i) => file(`f${String(i).padStart(5, '0')}`, 1_000_000 + i * 7));
    // One chain 10,000 hops deep.
    const deep = new Map(files.map((f, i) => [f.key, link(`id${i}`, i === 0 ? null : `id${i - 1}`)]));
    let t = performance.now();
    const chain = groupChains([...files].reverse(), deep, 'newest');
    assert.equal(chain.length, 1);
    assert.equal(countNodes(chain).count, n);
    // A random forest with cycles, self-parents and duplicate ids.
    let seed = 42;
    const rnd = (k: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % k;
    };
    const messy = new Map(files.map((f) => [f.key, link(`id${rnd(n / 2)}`, rnd(10) === 0 ? null : `id${rnd(n / 2)}`)]));
    const forest = groupChains(files, messy, 'oldest');
    const counted = countNodes(forest);
    assert.equal(counted.count, n);
    assert.equal(counted.keys.size, n);
    t = performance.now() - t;
    assert.ok(t < 1500, `took ${Math.round(t)} ms`);
  });
});

/** Text of exactly `bytes` UTF-8 bytes (ASCII). */
function ascii(bytes: number, ch = 'x'): string {
  return ch.repeat(bytes);
}

describe('priorHandoffsBlock', () => {
  it('40 handoffs of 1 KB each: keeps the newest 28 and drops 12 under the 30 KB budget', () => {
    // Names: "2026-05-26T14-00-SS.000Z_researcher.md" = 24 (timestamp) + 1 + 10 + 3 = 38 bytes.
    const files = Array.from({ length: 40 }, (_, i) => ({
      name: `2026-05-26T14-00-${String(i).padStart(2, '0')}.000Z_researcher.md`,
      text: ascii(1024),
      partial: false,
    }));
    assert.equal(utf8Length(files[0].name), 38);
    // Layout: "## Prior Agent Handoffs" (23) + "\n\n" (2) + marker + "\n\n" (2)
    //   + k sections of "### " (4) + name (38) + "\n\n" (2) + text (1,024) = 1,068 bytes,
    //   with "\n\n" (2) between sections, + a final "\n" (1).
    // Total = 23 + 2 + M + 2 + 1,068k + 2(k − 1) + 1 = 26 + M + 1,070k.
    // Marker "[12 earlier handoffs dropped to fit the 30 KB budget]" is M = 53 bytes.
    // 26 + 53 + 1,070k ≤ 30,720 → k ≤ 28.63 → k = 28 kept (30,039 bytes), 40 − 28 = 12 dropped.
    // (k = 29 would need 26 + 53 + 31,030 = 31,109 > 30,720.)
    const marker = '[12 earlier handoffs dropped to fit the 30 KB budget]';
    assert.equal(utf8Length(marker), 53);
    const block = priorHandoffsBlock(files);
    assert.equal(block.included, 28);
    assert.equal(block.dropped, 12);
    assert.equal(block.truncated, false);
    assert.equal(utf8Length(block.text), 26 + 53 + 1070 * 28);
    assert.ok(utf8Length(block.text) <= PRIOR_HANDOFFS_BUDGET_BYTES);
    const lines = block.text.split('\n');
    assert.equal(lines[0], PRIOR_HANDOFFS_HEADING);
    assert.equal(lines[2], marker);
    const headings = lines.filter((l) => l.startsWith('### '));
    assert.equal(headings.length, 28);
    assert.equal(headings[0], `### ${files[12].name}`);
    assert.equal(headings[27], `### ${files[39].name}`);
  });

  it('sorts by name (chronological) whatever the input order', () => {
    const block = priorHandoffsBlock([
      { name: '2026-05-26T15-00-00Z_b.md', text: 'second', partial: false },
      { name: '2026-05-26T14-00-00Z_a.md', text: 'first', partial: false },
    ]);
    assert.equal(block.text, '## Prior Agent Handoffs\n\n### 2026-05-26T14-00-00Z_a.md\n\nfirst\n\n### 2026-05-26T15-00-00Z_b.md\n\nsecond\n');
    assert.deepEqual([block.included, block.dropped], [2, 0]);
  });

  it('labels partial handoffs as partial', () => {
    const block = priorHandoffsBlock([{ name: '2026-05-26T15-12-00Z_implementer.partial.md', text: 'half done\n\n', partial: true }]);
    assert.match(block.text, /^### 2026-05-26T15-12-00Z_implementer\.partial\.md \(partial — the previous agent stopped before finishing it\)$/m);
    assert.ok(block.text.endsWith('half done\n'));
  });

  it('says so when there are no prior handoffs', () => {
    const block = priorHandoffsBlock([]);
    assert.ok(block.text.startsWith('## Prior Agent Handoffs\n'));
    assert.match(block.text, /No prior handoffs/);
    assert.deepEqual([block.included, block.dropped], [0, 0]);
  });

  it('names one dropped handoff in the singular', () => {
    // Five files within their share (a quarter of the budget): the newest four fit, the oldest is dropped.
    const files = ['a', 'b', 'c', 'd', 'e'].map((n) => ({ name: `${n}.md`, text: ascii(200), partial: false }));
    const block = priorHandoffsBlock(files, 1024);
    assert.deepEqual([block.included, block.dropped], [4, 1]);
    assert.equal(block.text.split('\n')[2], '[1 earlier handoff dropped to fit the 1 KB budget]');
    assert.equal(priorHandoffsBlock(files, 1000).text.split('\n')[2], '[1 earlier handoff dropped to fit the 1,000 bytes budget]');
  });

  it('cuts a single 100 KB handoff to fit, with a visible note', () => {
    const text = ascii(100 * 1024);
    const block = priorHandoffsBlock([{ name: '2026-05-26T14-00-00Z_a.md', text, partial: false }]);
    assert.deepEqual([block.included, block.dropped, block.truncated], [1, 0, true]);
    const bytes = utf8Length(block.text);
    assert.ok(bytes <= PRIOR_HANDOFFS_BUDGET_BYTES, `${bytes}`);
    assert.ok(bytes > PRIOR_HANDOFFS_BUDGET_BYTES - 16, `the cut wastes little room: ${bytes}`);
    assert.match(block.text, /\[… truncated: showing the first [\d,]+ of 102,400 bytes of this handoff to fit the 30 KB budget\]\n$/);
    assert.match(block.text, /^## Prior Agent Handoffs\n\n### 2026-05-26T14-00-00Z_a\.md\n\nxxx/);
  });

  it('a newest file too big for the budget is cut to its share: the older ones stay (issue 16)', () => {
    const files = [
      { name: 'a.md', text: 'old', partial: false },
      { name: 'b.md', text: ascii(5000), partial: true },
    ];
    const block = priorHandoffsBlock(files, 2048);
    assert.deepEqual([block.included, block.dropped, block.truncated], [2, 0, true]);
    assert.ok(utf8Length(block.text) <= 2048);
    assert.ok(utf8Length(block.text) > 2048 - 16, 'the room left goes to the cut file');
    assert.match(block.text, /### a\.md\n\nold\n\n### b\.md \(partial/);
    assert.match(block.text, /\[… truncated: showing the first [\d,]+ of 5,000 bytes of this handoff to fit the 2 KB budget\]\n$/);
  });

  it('one 50 MB file read only in part: its exact size is reported, the others and the pinned handoff are kept', () => {
    const fifty = 50 * 1024 * 1024;
    const files = [
      { name: '2026-01-01T00-00-00.000Z_a.md', text: `picked up ${ascii(9000)}`, partial: false, pinned: true },
      ...Array.from({ length: 6 }, (_, i) => ({ name: `2026-01-0${i + 2}T00-00-00.000Z_b.md`, text: ascii(1500), partial: false })),
      { name: '2026-01-09T00-00-00.000Z_huge.md', text: ascii(PRIOR_HANDOFFS_BUDGET_BYTES), partial: false, size: fifty },
    ];
    const block = priorHandoffsBlock(files);
    assert.ok(utf8Length(block.text) <= PRIOR_HANDOFFS_BUDGET_BYTES);
    assert.deepEqual([block.included, block.dropped, block.truncated], [8, 0, true]);
    assert.match(block.text, /### 2026-01-01T00-00-00\.000Z_a\.md\n\npicked up x/);
    assert.match(block.text, /\[… truncated: showing the first [\d,]+ of 52,428,800 bytes of this handoff to fit the 30 KB budget\]/);
    const huge = block.text.split('### 2026-01-09T00-00-00.000Z_huge.md\n\n')[1];
    // Its share (a quarter), plus only what the others left over.
    const others = block.text.length - huge.length;
    assert.ok(
      utf8Length(huge) <= Math.max(PRIOR_HANDOFFS_BUDGET_BYTES / 4, PRIOR_HANDOFFS_BUDGET_BYTES - others) + 200,
      `the huge file took ${utf8Length(huge)} bytes`,
    );
    assert.equal((block.text.match(/_b\.md\n\nx{1500}\n/g) ?? []).length, 6, 'the six other files are whole');
  });

  it('cuts multi-byte text at a code-point boundary, so it stays valid UTF-8', () => {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    for (const unit of ['é', '日本語', '🙂', 'a🙂é日']) {
      for (let budget = 300; budget < 340; budget++) {
        const block = priorHandoffsBlock([{ name: 'n.md', text: unit.repeat(400), partial: false }], budget);
        const bytes = new TextEncoder().encode(block.text);
        assert.ok(bytes.length <= budget, `${unit} ${budget}: ${bytes.length}`);
        assert.equal(decoder.decode(bytes), block.text);
        assert.ok(!block.text.includes('\ufffd'));
        assert.ok(block.truncated);
      }
    }
  });

  it('never exceeds a budget too small for its own frame', () => {
    const files = [{ name: '2026-05-26T14-00-00Z_a.md', text: ascii(100), partial: false }];
    for (const budget of [0, 1, 10, 30, 60, 100, 150]) {
      assert.ok(utf8Length(priorHandoffsBlock(files, budget).text) <= budget, `${budget}`);
    }
  });

  it('counts older files the caller left out unread (droppedBefore) as dropped', () => {
    const files = [{ name: '2026-05-26T14-00-00Z_a.md', text: 'kept', partial: false }];
    const block = priorHandoffsBlock(files, PRIOR_HANDOFFS_BUDGET_BYTES, 7);
    assert.deepEqual([block.included, block.dropped], [1, 7]);
    assert.equal(block.text.split('\n')[2], '[7 earlier handoffs dropped to fit the 30 KB budget]');
    const none = priorHandoffsBlock([], PRIOR_HANDOFFS_BUDGET_BYTES, 3);
    assert.equal(none.text, '## Prior Agent Handoffs\n\n[3 earlier handoffs dropped to fit the 30 KB budget]\n');
    assert.equal(none.dropped, 3);
    const cut = priorHandoffsBlock([{ name: 'b.md', text: ascii(5000), partial: false }], 1024, 2);
    assert.deepEqual([cut.included, cut.dropped, cut.truncated], [1, 2, true]);
    assert.equal(cut.text.split('\n')[2], '[2 earlier handoffs dropped to fit the 1 KB budget]');
  });

  it('a block given part of a budget (the receiving prompt, issue 18) keeps to its part and names the whole budget', () => {
    const cut = priorHandoffsBlock([{ name: 'b.md', text: ascii(5000), partial: false }], 1024, 2, PRIOR_HANDOFFS_BUDGET_BYTES);
    assert.ok(utf8Length(cut.text) <= 1024, `${utf8Length(cut.text)}`);
    assert.equal(cut.text.split('\n')[2], '[2 earlier handoffs dropped to fit the 30 KB budget]');
    assert.match(cut.text, /\[… truncated: showing the first [\d,]+ of 5,000 bytes of this handoff to fit the 30 KB budget\]\n$/);
  });

  it('counts and cuts UTF-8 like TextEncoder', () => {
    const enc = new TextEncoder();
    for (const s of ['', 'abc', 'é', '€', '🙂', 'a\ud800b', '\udc00', '日本🙂é']) {
      assert.equal(utf8Length(s), enc.encode(s).length, JSON.stringify(s));
    }
    assert.equal(cutUtf8('a🙂b', 4), 'a');
    assert.equal(cutUtf8('a🙂b', 5), 'a🙂');
    assert.equal(cutUtf8('é', 1), '');
    assert.equal(cutUtf8('abc', -1), '');
  });
});
