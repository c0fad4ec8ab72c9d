import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { SessionAccumulator, type SessionCommand, type SessionEvent, type TranscriptRead } from '../../../../src/core/session/events';
import { readClaudeCode } from '../../../../src/evidence/session/readers/claudeCode';
import { readCodex } from '../../../../src/evidence/session/readers/codex';
import { PendingCalls } from '../../../../src/evidence/session/readers/common';
import { cleanupTempDirs, tempDir } from '../../../helpers/repo';

/** A small deterministic generator (a linear congruential one), so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

const commands = (r: TranscriptRead) =>
  r.events.filter((e): e is SessionCommand => e.kind === 'command').map((c) => `${c.command} → ${c.ran ? c.exit_code : 'not run'}`);

describe('pending tool calls and kept events in bounded, churn-free memory (issue 19, peak RSS)', () => {
  after(cleanupTempDirs);

  it('PendingCalls answers as the Map it replaces, for random sets, takes and shifts (same values, same order)', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const next = random(seed);
      const map = new Map<string, number>();
      const calls = new PendingCalls<number>();
      for (let op = 0; op < 2000; op++) {
        const id = `id${Math.floor(next() * 40)}`;
        const r = next();
        if (r < 0.45) {
          map.set(id, op);
          calls.set(id, op);
        } else if (r < 0.85) {
          const expected = map.get(id);
          map.delete(id);
          assert.equal(calls.take(id), expected, `seed ${seed}, op ${op}: take ${id}`);
        } else if (r < 0.95) {
          assert.equal(calls.get(id), map.get(id), `seed ${seed}, op ${op}: get ${id}`);
        } else if (r < 0.99) {
          const first = map.entries().next();
          if (!first.done) map.delete(first.value[0]);
          assert.equal(calls.shift(), first.done ? undefined : first.value[1], `seed ${seed}, op ${op}: shift`);
        } else {
          map.clear();
          calls.clear();
        }
        assert.equal(calls.size, map.size);
      }
      assert.deepEqual([...calls.values()], [...map.values()], `seed ${seed}: values in order`);
    }
  });

  it('the accumulator returns the kept events in the order they were added, across kinds and caps', () => {
    const next = random(7);
    const acc = new SessionAccumulator((c) => c.command.startsWith('npm test'));
    const added: SessionEvent[] = [];
    for (let i = 0; i < 20_000; i++) {
      const r = next();
      const e: SessionEvent =
        r < 0.3
          ? { kind: 'turn', role: next() < 0.5 ? 'user' : 'assistant', text: `turn ${i}` }
          : r < 0.45
            ? { kind: 'command', command: `npm test -- ${i}`, exit_code: 0, ran: true }
            : r < 0.7
              ? { kind: 'command', command: `ls ${i}`, exit_code: 0, ran: true }
              : r < 0.98
                ? { kind: 'file_edit', path: `f${Math.floor(next() * 7000)}.ts`, tool: 'Edit' }
                : { kind: 'plan', tool: 'TodoWrite', items: [{ text: `step ${i}`, status: 'pending' }] };
      added.push(e);
      acc.add(e);
    }
    const events = acc.events();
    const place = new Map(added.map((e, i) => [e, i]));
    for (let k = 1; k < events.length; k++) {
      assert.ok((place.get(events[k - 1]) ?? -1) < (place.get(events[k]) ?? -1), `event ${k} is out of order`);
    }
    // What is kept: the newest 100 turns and 50 other commands, the newest 1,000 test runs, each path's latest edit (at most 5,000), the latest plan.
    const newest = (pred: (e: SessionEvent) => boolean, n: number) => added.filter(pred).slice(-n);
    const edits = new Map<string, SessionEvent>();
    for (const e of added) {
      if (e.kind !== 'file_edit') continue;
      edits.delete(e.path);
      edits.set(e.path, e);
    }
    const expected = new Set<SessionEvent>([
      ...newest((e) => e.kind === 'turn', 100),
      ...newest((e) => e.kind === 'command' && e.command.startsWith('npm test'), 1000),
      ...newest((e) => e.kind === 'command' && e.command.startsWith('ls'), 50),
      ...[...edits.values()].slice(-5000),
      ...newest((e) => e.kind === 'plan', 1),
    ]);
    assert.equal(events.length, expected.size);
    assert.ok(events.every((e) => expected.has(e)));
  });

  it('Claude Code: a result before its use, an id used twice, and more than 2,000 uses without a result (oldest given up first)', async () => {
    const dir = tempDir('claude-pending-');
    const file = path.join(dir, 'session.jsonl');
    const use = (id: string, command: string) =>
      JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] } });
    const result = (id: string, isError: boolean, content: string) =>
      JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, is_error: isError }] } });
    const lines = [
      result('early', false, 'ok'),
      use('early', 'npm test -- early'),
      use('twice', 'npm test -- first'),
      use('twice', 'npm test -- second'),
      result('twice', true, 'Exit code 3'),
    ];
    for (let i = 0; i < 2003; i++) lines.push(use(`open${i}`, `npm test -- open ${i}`));
    lines.push(result('open2002', false, 'done'));
    writeFileSync(file, `${lines.join('\n')}\n`);
    // keepAll: every command kept, so the order they were settled in shows.
    const got = commands(await readClaudeCode(file, { keepAll: true }));
    // The second use of an id replaces the first; beyond 2,000 waiting, the oldest is given up first.
    assert.deepEqual(got.slice(0, 6), [
      'npm test -- early → 0',
      'npm test -- second → 3',
      'npm test -- open 0 → not run',
      'npm test -- open 1 → not run',
      'npm test -- open 2 → not run',
      'npm test -- open 2002 → 0',
    ]);
    // The uses still waiting at the end did not run, oldest first.
    assert.deepEqual(got.slice(6, 8), ['npm test -- open 3 → not run', 'npm test -- open 4 → not run']);
    assert.equal(got[got.length - 1], 'npm test -- open 2001 → not run');
    assert.equal(got.length, 2 + 2003);
  });

  it('Codex: an exit code that comes after the output fills an unknown one; a reused call id is matched to its newest call', async () => {
    const dir = tempDir('codex-done-');
    const file = path.join(dir, 'rollout.jsonl');
    const call = (id: string, command: string) =>
      JSON.stringify({
        timestamp: '2026-01-01T00:00:00Z',
        type: 'response_item',
        payload: { type: 'function_call', name: 'shell', call_id: id, arguments: JSON.stringify({ command: ['bash', '-lc', command] }) },
      });
    const output = (id: string, text: string) =>
      JSON.stringify({ timestamp: '2026-01-01T00:00:01Z', type: 'response_item', payload: { type: 'function_call_output', call_id: id, output: text } });
    const end = (id: string, exit: number) =>
      JSON.stringify({ timestamp: '2026-01-01T00:00:02Z', type: 'event_msg', payload: { type: 'exec_command_end', call_id: id, exit_code: exit } });
    const lines = [
      call('a', 'npm test -- a'),
      output('a', 'no exit line here'),
      end('a', 2),
      end('a', 5),
      call('x', 'npm test -- x1'),
      output('x', 'no exit line here'),
      call('x', 'npm test -- x2'),
      output('x', 'Exit code: 0\nfine'),
      end('x', 3),
    ];
    writeFileSync(file, `${lines.join('\n')}\n`);
    const r = await readCodex(file);
    assert.deepEqual(commands(r), ['npm test -- a → 2', 'npm test -- x1 → null', 'npm test -- x2 → 0']);
  });
});
