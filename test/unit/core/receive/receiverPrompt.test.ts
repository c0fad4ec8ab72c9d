import assert from 'node:assert/strict';
import { PROMPT_SECTIONS, RECEIVE_RULES, buildSpecialistPrompt, type SpecialistPromptInput } from '../../../../src/core/receive/receiverPrompt';
import { splitSections } from '../../../../src/core/handoff/parse';
import { BUILTIN_SPECIALISTS } from '../../../../src/core/specialists/registry';
import { priorHandoffsBlock } from '../../../../src/core/timeline/chains';

const reviewer = BUILTIN_SPECIALISTS.find((s) => s.id === 'quality_reviewer');
if (!reviewer) throw new Error('quality_reviewer is a built-in specialist');

const PRIOR = priorHandoffsBlock([
  { name: '2026-05-26T14-00-00.000Z_codebase_explorer.md', text: 'Mapped the auth module.', partial: false },
  { name: '2026-05-26T15-00-00.000Z_implementation_engineer.partial.md', text: 'Half of the refresh flow.', partial: true },
]).text;

function input(over: Partial<SpecialistPromptInput> = {}): SpecialistPromptInput {
  return {
    specialist: reviewer!,
    handoff: {
      id: '2026-05-26T15-30-00.000Z_quality_reviewer',
      relativePath: '.handoff/handoffs/2026-05-26T15-30-00.000Z_quality_reviewer.md',
      returnCondition: 'Every finding is filed with file and line.',
    },
    priorHandoffs: PRIOR,
    staleness: ['2 commits since the handoff', 'src/auth.ts changed since'],
    runContext: { timestamp: '2026-05-26T16:00:00.000Z', deliverablePath: '.handoff/handoffs/2026-05-26T16-00-00.000Z_quality_reviewer.md' },
    ...over,
  };
}

/** `## ` headings in order. */
function headings(text: string): string[] {
  return [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
}

describe('specialist prompt', () => {
  it('has a title naming the specialist, then every section in order, prior handoffs last', () => {
    const text = buildSpecialistPrompt(input());
    assert.ok(text.startsWith('# [quality reviewer] Quality reviewer\n\n'));
    assert.deepEqual(headings(text), [...PROMPT_SECTIONS, 'Prior Agent Handoffs']);
    assert.ok(text.endsWith('Half of the refresh flow.\n'));
  });

  it('introduces the specialist with its persona marker and names the handoff', () => {
    const text = buildSpecialistPrompt(input());
    const intro = text.split('\n\n')[1];
    assert.match(intro, /Quality reviewer/);
    assert.match(intro, /`quality_reviewer`/);
    assert.match(intro, /\[quality reviewer\]/);
    assert.match(intro, /`2026-05-26T15-30-00\.000Z_quality_reviewer`/);
    assert.match(intro, /`\.handoff\/handoffs\/2026-05-26T15-30-00\.000Z_quality_reviewer\.md`/);
  });

  it('writes the mandate, the receive rules as a list, and the run context in the itervox spelling', () => {
    const sections = splitSections(buildSpecialistPrompt(input()));
    assert.equal(sections.get('Mandate'), reviewer!.mandate);
    assert.equal(sections.get('Receive rules'), RECEIVE_RULES.map((r) => `- ${r}`).join('\n'));
    assert.equal(
      sections.get('Run Context'),
      '- run.timestamp: 2026-05-26T16:00:00.000Z\n- run.handoff_path: .handoff/handoffs/2026-05-26T16-00-00.000Z_quality_reviewer.md',
    );
  });

  it('lists staleness lines, or says the handoff matches the workspace', () => {
    assert.equal(splitSections(buildSpecialistPrompt(input())).get('Staleness'), '- 2 commits since the handoff\n- src/auth.ts changed since');
    assert.equal(
      splitSections(buildSpecialistPrompt(input({ staleness: [] }))).get('Staleness'),
      'The handoff matches the workspace: nothing changed since it was written.',
    );
    assert.equal(splitSections(buildSpecialistPrompt(input({ staleness: ['a\nb'] }))).get('Staleness'), '- a\n  b');
  });

  it("uses the handoff's return condition, else the specialist's, with codes in words", () => {
    assert.equal(splitSections(buildSpecialistPrompt(input())).get('Return condition'), 'Every finding is filed with file and line.');
    const coded = input({ handoff: { id: 'h', relativePath: 'p', returnCondition: 'user_request' } });
    assert.equal(splitSections(buildSpecialistPrompt(coded)).get('Return condition'), 'Hand back when the user asks for it (`user_request`).');
    const blank = input({ handoff: { id: 'h', relativePath: 'p', returnCondition: '  ' } });
    assert.equal(splitSections(buildSpecialistPrompt(blank)).get('Return condition'), reviewer!.returnCondition);
  });

  it('keeps every section when no handoff was handed over', () => {
    const text = buildSpecialistPrompt(input({ handoff: null, staleness: [], priorHandoffs: '' }));
    assert.deepEqual(headings(text), [...PROMPT_SECTIONS, 'Prior Agent Handoffs']);
    const sections = splitSections(text);
    for (const name of [...PROMPT_SECTIONS, 'Prior Agent Handoffs']) {
      assert.ok((sections.get(name) ?? '').length > 0, `section ${name} has content`);
    }
    assert.match(text.split('\n\n')[1], /No handoff file was handed over/);
    assert.equal(sections.get('Staleness'), 'No handoff was handed over, so there is nothing to compare with the workspace.');
    assert.equal(sections.get('Return condition'), reviewer!.returnCondition);
    assert.match(sections.get('Prior Agent Handoffs') ?? '', /No prior handoffs/);
    assert.match(sections.get('Run Context') ?? '', /^- run\.timestamp: .+\n- run\.handoff_path: .+$/);
  });

  it('the receive rules cover what a receiving specialist must do', () => {
    const all = RECEIVE_RULES.join('\n');
    for (const needle of [/persona marker/, /introduce yourself/, /sum up/, /Never ask/, /prior handoffs/, /run\.handoff_path/, /return condition/]) {
      assert.match(all, needle);
    }
  });

  it('carries the handoff picked up after Staleness, as given, and names what the prior handoffs hold (issue 18)', () => {
    const body = '## Handoff to Quality reviewer: token auth\n\n### Summary\n\nDid the work.\n\n### Done\n\n- Wrote the middleware';
    const text = buildSpecialistPrompt(input({ handoff: { ...input().handoff!, body: `${body}\n\n` } }));
    assert.deepEqual(headings(text), [
      'Mandate',
      'Receive rules',
      'Run Context',
      'Staleness',
      'Handoff to Quality reviewer: token auth',
      'Return condition',
      'Prior Agent Handoffs',
    ]);
    assert.ok(text.includes(`- src/auth.ts changed since\n\n${body}\n\n## Return condition\n`), text);
    assert.equal(text.split('### Summary').length, 2, 'once');
    // Without a body (a handoff whose file could not be read): the prompt's own sections only.
    assert.deepEqual(headings(buildSpecialistPrompt(input())), [...PROMPT_SECTIONS, 'Prior Agent Handoffs']);
    assert.match(
      RECEIVE_RULES.join('\n'),
      /each gives who handed over to whom, its status now, its summary, decisions and failed approaches, and the path of its file/,
    );
  });

  it('keeps Run Context values on one line', () => {
    const text = buildSpecialistPrompt(input({ runContext: { timestamp: 't\n## Injected', deliverablePath: 'a\nb' } }));
    assert.deepEqual(headings(text), [...PROMPT_SECTIONS, 'Prior Agent Handoffs']);
    assert.match(text, /^- run\.timestamp: t ## Injected$/m);
    assert.match(text, /^- run\.handoff_path: a b$/m);
  });
});
