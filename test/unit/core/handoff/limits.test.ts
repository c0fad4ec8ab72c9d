/**
 * Issue 19: the schemas word their limits ("must be at most 20,000 characters") as they load,
 * with formatCount (src/core/handoff/limits.ts) instead of `toLocaleString('en')`, whose first
 * call in a process loads ICU's number formatting (about 18 ms on Node 20, paid by every CLI
 * command before any work). The words must stay exactly what toLocaleString wrote.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { MAX_ITEM_CHARS, MAX_LINE_CHARS, MAX_LIST_ITEMS, MAX_REQUEST_CHARS, MAX_SUMMARY_CHARS, formatCount } from '../../../../src/core/handoff/limits';
import type * as RequestModule from '../../../../src/core/handoff/request';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

/** Modules that word a limit in a schema as they load. */
const WORDING_AT_LOAD = [
  'src/core/handoff/request.ts',
  'src/core/receive/handBack.ts',
  'src/core/agents/claudeHook.ts',
  'src/engine/agents/agentTool.ts',
  'src/mcp/tools.ts',
];

describe('formatCount: limits worded without ICU', () => {
  it('writes every whole number as toLocaleString("en") does', () => {
    const numbers = [
      0,
      1,
      9,
      10,
      99,
      100,
      999,
      1000,
      1001,
      9999,
      12_345,
      99_999,
      100_000,
      999_999,
      1_000_000,
      1_234_567,
      10_000_000,
      2 ** 31,
      Number.MAX_SAFE_INTEGER,
      -1,
      -1000,
      -1_234_567,
    ];
    for (const limit of [MAX_ITEM_CHARS, MAX_LINE_CHARS, MAX_LIST_ITEMS, MAX_REQUEST_CHARS, MAX_SUMMARY_CHARS, MAX_LINE_CHARS * 2])
      numbers.push(limit, limit + 1, limit - 1);
    for (let n = 1; n < 1e15; n = n * 7 + 3) numbers.push(n);
    for (const n of numbers) assert.equal(formatCount(n), n.toLocaleString('en'), String(n));
  });

  it('the schemas load without calling toLocaleString, and their messages read as before', () => {
    const calls: string[] = [];
    const original = Number.prototype.toLocaleString;
    // Counted for this test only, restored below.
    Number.prototype.toLocaleString = function (this: number, ...args: Parameters<typeof original>) {
      calls.push(String(this));
      return original.apply(this, args);
    };
    let request: typeof RequestModule;
    try {
      for (const rel of WORDING_AT_LOAD) {
        const file = require.resolve(path.join(ROOT, rel));
        delete require.cache[file];
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- evaluated afresh on purpose
        require(file);
      }
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the fresh module of the loop above
      request = require(path.join(ROOT, 'src/core/handoff/request.ts')) as typeof RequestModule;
    } finally {
      Number.prototype.toLocaleString = original;
    }
    assert.deepEqual(calls, []);
    const messages = [
      [
        { specialist: 'x', topic: 't', summary: 's'.repeat(MAX_SUMMARY_CHARS + 1) },
        `ERROR: summary must be at most ${MAX_SUMMARY_CHARS.toLocaleString('en')} characters`,
      ],
      [
        { specialist: 'x', topic: 't', decisions: ['d'.repeat(MAX_ITEM_CHARS + 1)] },
        `ERROR: decisions.0 items must be at most ${MAX_ITEM_CHARS.toLocaleString('en')} characters`,
      ],
      [
        { specialist: 'x', topic: 't', next_steps: Array.from({ length: MAX_LIST_ITEMS + 1 }, () => 'n') },
        `ERROR: next_steps must have at most ${MAX_LIST_ITEMS.toLocaleString('en')} items`,
      ],
      [{ specialist: 'x', topic: 't', from: 'f'.repeat(MAX_LINE_CHARS + 1) }, `ERROR: from must be at most ${MAX_LINE_CHARS.toLocaleString('en')} characters`],
      [
        { specialist: 'x', topic: 't', handover_reason: 'r'.repeat(MAX_LINE_CHARS * 2 + 1) },
        `ERROR: handover_reason must be at most ${(MAX_LINE_CHARS * 2).toLocaleString('en')} characters`,
      ],
    ] as const;
    for (const [input, message] of messages) {
      const r = request.parseHandoverRequest(input);
      assert.ok(!r.ok);
      assert.equal(r.message.split(' — ')[0], message);
    }
  });
});
