/**
 * Reliability, property-based (fast-check): the frontmatter parse/render round trip holds
 * for any text a field may carry, and the path guard never lets a name lead out of the
 * handoff root, whatever it is made of (`..`, absolute paths, drive letters, NUL bytes,
 * names reserved on Windows, `:`, backslashes, `~`, `.git`).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { parseHandoff } from '../../src/core/handoff/parse';
import { renderHandoff, handoffFrontmatter } from '../../src/core/handoff/render';
import { resolveHandoffRoot, resolveInside } from '../../src/store/pathGuard';
import { META, pkgFrom, reviewer } from '../helpers/packages';

/** Runs per property: enough to cover the segment grammar many times over. */
const RUNS = 2000;
const WORKSPACE = path.resolve('/work/space');

/** Text as a file carries it: any code points (no lone surrogates, which UTF-8 cannot hold). */
const anyText = fc.string({ unit: 'binary', maxLength: 60 });

/** Path segments that have led out of folders, or are not allowed in names somewhere. */
const hostileSegment = fc.oneof(
  fc.constantFrom(
    '..',
    '.',
    '',
    '...',
    '.git',
    '.GIT',
    '~',
    'CON',
    'nul',
    'com1.md',
    'LPT9',
    'aux.txt',
    'a:b',
    'C:',
    'c:\\',
    '\\\\server\\share',
    '/etc',
    '\u0000',
    'a\u0000b',
    ' ',
    '. ',
    'x.',
    'ok.md',
    'handoffs',
    '%2e%2e',
    '..\\..',
  ),
  fc.string({ unit: 'binary-ascii', maxLength: 8 }),
);
const hostileName = fc.array(hostileSegment, { minLength: 1, maxLength: 6 }).chain((segs) => fc.constantFrom('/', '\\').map((sep) => segs.join(sep)));

let attempts = 0;
let escapes = 0;
let roundTrips = 0;

function inside(root: string, p: string): boolean {
  const rel = path.relative(root, path.resolve(p));
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

describe('reliability: properties (fast-check)', function () {
  this.timeout(120_000);

  after(() => {
    console.log(`    figures: frontmatter round trips: ${roundTrips}, path-guard traversal attempts: ${attempts}, escapes: ${escapes}`);
  });

  it('the frontmatter reads back exactly as written, for any text in its string fields', () => {
    fc.assert(
      fc.property(anyText, anyText, anyText, anyText, fc.integer({ min: 0, max: 10_000_000 }), (title, returnCondition, reason, from, tokens) => {
        const pkg = {
          ...pkgFrom({ topic: 'auth' }),
          topic_title: title,
          return_condition: returnCondition || 'r',
          handover_reason: reason,
          from: from || 'x',
          estimated_tokens: tokens,
        };
        // Through UTF-8 bytes, as a file is written and read.
        const text = Buffer.from(renderHandoff(pkg, META, reviewer), 'utf8').toString('utf8');
        const parsed = parseHandoff(text);
        roundTrips += 1;
        return parsed.ok && isDeepStrictEqual({ ...parsed.handoff.frontmatter }, { ...handoffFrontmatter(pkg, META) });
      }),
      { numRuns: RUNS },
    );
  });

  it('the handoff root setting never resolves outside the workspace or into .git', () => {
    fc.assert(
      fc.property(hostileName, (name) => {
        attempts += 1;
        const r = resolveHandoffRoot(WORKSPACE, name);
        if (!r.ok) {
          assert.match(r.message, /^ERROR: /);
          return true;
        }
        const ok =
          inside(WORKSPACE, r.path) &&
          !path
            .relative(WORKSPACE, r.path)
            .split(path.sep)
            .some((s) => s.toLowerCase() === '.git') &&
          !r.path.includes('\u0000');
        if (!ok) escapes += 1;
        return ok;
      }),
      { numRuns: RUNS },
    );
  });

  it('a file name inside the handoff root never resolves outside it, and never carries ":" or NUL', () => {
    const root = path.join(WORKSPACE, '.handoff', 'handoffs');
    fc.assert(
      fc.property(hostileName, (name) => {
        attempts += 1;
        const r = resolveInside(root, name);
        if (!r.ok) {
          assert.match(r.message, /^ERROR: /);
          return true;
        }
        const rel = path.relative(root, r.path);
        const ok = inside(root, r.path) && !rel.includes(':') && !rel.includes('\u0000');
        if (!ok) escapes += 1;
        return ok;
      }),
      { numRuns: RUNS },
    );
    assert.equal(escapes, 0);
  });
});
