/**
 * The manifest's words and pictures as a user sees them (issue 17): one spelling of the
 * product's action ("Hand Over": the panel view, and "Hand Over to Specialist" for its button
 * and the language model tool) in VS Code's title case for every command title and view
 * name, view names that read the same when VS Code 1.139 capitalizes every word of a view
 * header (`text-transform: capitalize` on `.pane-header > .title`), category "Handoff" on
 * every command; one primary action per view
 * (the timeline's empty state links to the panel rather than starting the palette flow
 * as a second button); distinct icons for the actions of the timeline's title bar and
 * Export Specialists; and a chat avatar that shows in every theme kind (an avatar is an
 * image: `currentColor` draws black, invisible on high-contrast dark).
 *
 * Title case as VS Code's UX guidelines write it (code.visualstudio.com/api/ux-guidelines/overview,
 * "Use title-style capitalization"): every word capitalized except articles, short
 * conjunctions and prepositions of up to four letters, unless first.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CHAT_AVATAR, Commands } from '../../../src/vscode/constants';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

interface Manifest {
  contributes: {
    commands: Array<{ command: string; title: string; category?: string; icon?: string }>;
    views: Record<string, Array<{ id: string; name: string }>>;
    viewsWelcome: Array<{ view: string; contents: string }>;
    menus: Record<string, Array<{ command: string; when?: string; group?: string }>>;
    languageModelTools: Array<{ displayName: string; icon?: string }>;
  };
}

const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
const SMALL_WORDS = new Set([
  'a',
  'an',
  'the',
  'and',
  'but',
  'or',
  'nor',
  'for',
  'so',
  'yet',
  'as',
  'at',
  'by',
  'in',
  'of',
  'off',
  'on',
  'per',
  'to',
  'up',
  'via',
  'from',
  'into',
  'onto',
  'with',
]);

/** The words of `text` that break title case (lower-case words that are not small words, or a small word first). */
function notTitleCase(text: string): string[] {
  const words = text
    .replace(/…/g, '')
    .split(/\s+/)
    .filter((w) => /^[A-Za-z]/.test(w));
  return words.filter((w, i) => /^[a-z]/.test(w) && (i === 0 || !SMALL_WORDS.has(w.toLowerCase())));
}

/** Relative luminance of a #rrggbb colour (WCAG 2.x). */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

describe('manifest: wording, primary actions, icons and the chat avatar', () => {
  it('every command title and view name is in title case, and every command is in the "Handoff" category', () => {
    const bad: string[] = [];
    for (const c of manifest.contributes.commands) {
      if (c.category !== 'Handoff') bad.push(`${c.command}: category ${c.category}`);
      if (notTitleCase(c.title).length) bad.push(`${c.command}: "${c.title}" (${notTitleCase(c.title).join(', ')})`);
    }
    for (const v of Object.values(manifest.contributes.views).flat()) {
      if (notTitleCase(v.name).length) bad.push(`view ${v.id}: "${v.name}"`);
    }
    for (const t of manifest.contributes.languageModelTools) {
      if (notTitleCase(t.displayName).length) bad.push(`tool "${t.displayName}"`);
    }
    assert.deepEqual(bad, []);
  });

  it("view names and the view container's title read the same when VS Code 1.139 capitalizes every word of the header", () => {
    // 1.139's workbench styles view headers with `text-transform: capitalize`: "Hand Over to Specialist" showed as "Hand Over To Specialist".
    const capitalize = (t: string) => t.replace(/(^|\s)([a-z])/g, (_, s: string, c: string) => s + c.toUpperCase());
    const shown = [
      ...Object.values(manifest.contributes.views)
        .flat()
        .map((v) => v.name),
      ...(manifest.contributes as unknown as { viewsContainers: { activitybar: Array<{ title: string }> } }).viewsContainers.activitybar.map((c) => c.title),
    ];
    assert.deepEqual(
      shown.filter((n) => capitalize(n) !== n),
      [],
      'a lower-case word in a view header',
    );
  });

  it('the product\'s action is spelled "Hand Over" wherever the manifest names it', () => {
    const names = [
      ...manifest.contributes.commands.map((c) => c.title),
      ...Object.values(manifest.contributes.views)
        .flat()
        .map((v) => v.name),
      ...manifest.contributes.languageModelTools.map((t) => t.displayName),
      // Link and button labels of the empty states (their prose may use the verb: "to hand over its work").
      ...manifest.contributes.viewsWelcome.flatMap((w) => [...w.contents.matchAll(/\[([^\]]+)\]\(command:/g)].map((m) => m[1])),
    ];
    assert.deepEqual(
      names.filter((n) => /hand over|handover/i.test(n) && !/Hand Over/.test(n)),
      [],
      'no "Hand over" / "handover" spelling',
    );
    assert.ok(names.includes('Hand Over'), 'the panel view is "Hand Over"');
    // Issue 18 adds the second tool, request_full_history.
    assert.deepEqual(
      manifest.contributes.languageModelTools.map((t) => t.displayName),
      ['Hand Over to Specialist', 'Request Full History'],
    );
  });

  it("the timeline's empty state offers no second primary button: it links to the panel inline", () => {
    for (const w of manifest.contributes.viewsWelcome.filter((x) => x.view === 'handoff.timeline')) {
      // A line that is nothing but a command link is drawn as a button (VS Code's viewsWelcome).
      const buttons = w.contents.split('\n').filter((l) => /^\s*\[[^\]]+\]\(command:[^)]+\)\s*$/.test(l));
      const ours = buttons.filter((b) => /command:handoff\./.test(b));
      assert.deepEqual(ours, [], `welcome buttons that start a handoff flow: ${JSON.stringify(ours)}`);
    }
    const empty = manifest.contributes.viewsWelcome.find((w) => w.view === 'handoff.timeline' && /No handoffs yet/.test(w.contents));
    assert.ok(empty, 'the empty state is there');
    assert.match(empty.contents, /\[Hand Over\]\(command:handoff\.handOver\.focus\)/, 'it links to the panel, the one flow of the view container');
  });

  it("the timeline title's actions and Export Specialists have distinct icons", () => {
    const icon = new Map(manifest.contributes.commands.map((c) => [c.command, c.icon]));
    const title = manifest.contributes.menus['view/title'].filter((m) => /view == handoff\.timeline/.test(m.when ?? ''));
    const shown = [...new Set([...title.map((m) => m.command), Commands.exportAgents])];
    const icons = shown.map((c) => icon.get(c));
    assert.ok(
      icons.every((i) => i && /^\$\([a-z-]+\)$/.test(i)),
      `each has a codicon: ${JSON.stringify(icons)}`,
    );
    assert.equal(new Set(icons).size, icons.length, `icons of ${shown.join(', ')}: ${icons.join(', ')}`);
    assert.notEqual(icon.get(Commands.endSession), icon.get(Commands.exportAgents), 'End Session and Export Specialists look different');
  });

  it("the chat avatar has a light and a dark file, each visible on its themes' backgrounds (high contrast included)", () => {
    // Editor backgrounds of VS Code's default themes: Light Modern, High Contrast Light; Dark Modern, High Contrast (dark).
    const backgrounds = { light: ['#ffffff', '#ffffff'], dark: ['#1f1f1f', '#000000'] } as const;
    for (const kind of ['light', 'dark'] as const) {
      const svg = readFileSync(path.join(REPO_ROOT, CHAT_AVATAR[kind]), 'utf8');
      assert.doesNotMatch(svg, /currentColor/, `${CHAT_AVATAR[kind]}: an avatar is an image, currentColor draws black`);
      const colours = [...svg.matchAll(/(?:stroke|fill)="(#[0-9a-fA-F]{6})"/g)].map((m) => m[1]);
      assert.ok(colours.length > 0, `${CHAT_AVATAR[kind]} strokes or fills with a fixed colour`);
      for (const c of colours)
        for (const bg of backgrounds[kind]) assert.ok(contrast(c, bg) >= 7, `${CHAT_AVATAR[kind]}: ${c} on ${bg} is ${contrast(c, bg).toFixed(1)}:1`);
    }
    const source = readFileSync(path.join(REPO_ROOT, 'src', 'vscode', 'agents', 'chatParticipant.ts'), 'utf8');
    assert.match(source, /iconPath = \{ light: [^}]*CHAT_AVATAR\.light[^}]*dark: [^}]*CHAT_AVATAR\.dark/, 'the participant uses both files');
  });
});
