/**
 * Agents in the real extension host: the language model tool `handover_to_specialist`
 * invoked through `vscode.lm.invokeTool` (as an extension outside a chat request invokes
 * it: VS Code 1.99 asks for the confirmation in a dialog, which the workbench of an
 * extension test run answers "yes" by itself), and the `@handoff` chat participant's
 * handler driven with a recording response stream. The workspace is the demo repository.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { parseHandoff } from '../../src/core/handoff/parse';
import { HandoverOkSchema, type HandoverOk } from '../../src/core/handoff/schema';
import { handoverToolJsonSchema } from '../../src/engine/agents/agentTool';
import type { AgentDeps } from '../../src/vscode/agents/agentContext';
import { CHAT_PARTICIPANT_ID, createChatHandler, type HandoffChatResult } from '../../src/vscode/agents/chatParticipant';
import { HandoverLanguageModelTool } from '../../src/vscode/agents/lmTool';
import { historyToolJsonSchema } from '../../src/engine/timeline/historyTool';
import { FullHistoryLanguageModelTool } from '../../src/vscode/agents/historyTool';
import { MCP_PROVIDER_ID, registerMcpServerDefinitions } from '../../src/vscode/agents/mcpServerDefinitionProvider';

const EXTENSION_ID = 'specialist-handoff.specialist-handoff';
const TOOL = 'handover_to_specialist';

function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the test workspace folder is open');
  return folder.uri.fsPath;
}

function handoffFiles(): string[] {
  const dir = path.join(workspaceRoot(), '.handoff', 'handoffs');
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

/** The text of a tool result (its text parts, joined). */
function resultText(result: vscode.LanguageModelToolResult): string {
  return result.content.map((p) => (typeof (p as { value?: unknown }).value === 'string' ? (p as { value: string }).value : '')).join('');
}

/** The result object of a tool's text: the JSON before any trailing `WARNING:` lines. */
function parseResult(text: string): HandoverOk {
  const json = text.split(/\nWARNING: /)[0];
  return HandoverOkSchema.parse(JSON.parse(json));
}

/** The seed's example call (Agent Zero's tool documentation): the frontend designer takes the landing page hero. */
function seedArguments(root: string): Record<string, unknown> {
  return {
    specialist_profile: 'frontend_designer',
    topic: 'landing-page-hero',
    summary: 'The landing page needs a hero section: headline, sub-headline and one call to action above the fold. The copy is agreed; the layout is open.',
    decisions: ['Use the existing design tokens', 'One primary call to action: "Start free trial"'],
    artifacts: ['src/server.ts', 'README.md'],
    return_condition: 'Return when the hero layout is designed and its markup is ready for review.',
    handover_reason: 'The hero section needs a designer; the API work is done.',
    project_root: root,
  };
}

/** A chat response stream that records what the participant streams. */
class RecordingStream implements vscode.ChatResponseStream {
  readonly parts: Array<{ kind: string; value: string }> = [];
  markdown(value: string | vscode.MarkdownString): void {
    this.parts.push({ kind: 'markdown', value: typeof value === 'string' ? value : value.value });
  }
  anchor(value: vscode.Uri | vscode.Location, title?: string): void {
    this.parts.push({ kind: 'anchor', value: `${value instanceof vscode.Uri ? value.fsPath : value.uri.fsPath}|${title ?? ''}` });
  }
  button(command: vscode.Command): void {
    this.parts.push({ kind: 'button', value: command.command });
  }
  filetree(): void {
    this.parts.push({ kind: 'filetree', value: '' });
  }
  progress(value: string): void {
    this.parts.push({ kind: 'progress', value });
  }
  reference(value: vscode.Uri | vscode.Location): void {
    this.parts.push({ kind: 'reference', value: String(value) });
  }
  push(part: vscode.ChatResponsePart): void {
    this.parts.push({ kind: 'part', value: String(part) });
  }
  get markdownText(): string {
    return this.parts
      .filter((p) => p.kind === 'markdown')
      .map((p) => p.value)
      .join('');
  }
  of(kind: string): string[] {
    return this.parts.filter((p) => p.kind === kind).map((p) => p.value);
  }
}

const none = new vscode.CancellationTokenSource().token;

describe('agents in the VS Code extension host: language model tool and @handoff', function () {
  this.timeout(120_000);
  let log: vscode.LogOutputChannel;
  let written = 0;
  let trusted = true;
  let deps: AgentDeps;

  before(async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} is installed`);
    await ext.activate();
    log = vscode.window.createOutputChannel('Specialist Handoff (agent tests)', { log: true });
    deps = {
      log,
      extension: ext,
      session: { sessionId: () => 'agent-test-session', environment: async () => ({ sessionLog: { mode: 'none' } }), ended: async () => undefined },
      onWritten: () => written++,
      isTrusted: () => trusted,
    };
  });

  after(() => log?.dispose());

  it('vscode.lm.tools lists handover_to_specialist with the generated input schema', () => {
    const info = vscode.lm.tools.find((t) => t.name === TOOL);
    assert.ok(info, `vscode.lm.tools lists ${TOOL} (tools: ${vscode.lm.tools.map((t) => t.name).join(', ')})`);
    assert.deepStrictEqual(info.inputSchema, handoverToolJsonSchema());
    assert.match(info.description, /Hand the current work over to a specialist/);
  });

  it('vscode.lm.invokeTool with the seed’s arguments writes the handoff and the briefing and returns the result object', async () => {
    const root = workspaceRoot();
    const before = handoffFiles().length;
    const result = await vscode.lm.invokeTool(TOOL, { input: seedArguments(root), toolInvocationToken: undefined }, none);
    const text = resultText(result);
    assert.ok(!text.startsWith('ERROR:'), text);
    const r = parseResult(text);
    assert.equal(r.status, 'ok');
    assert.equal(r.persona_marker, '[frontend designer]');
    assert.equal(r.package.specialist, 'frontend_designer');
    assert.equal(r.package.topic, 'landing-page-hero');
    assert.ok(r.handoff_file.startsWith(path.join(root, '.handoff', 'handoffs') + path.sep), r.handoff_file);
    assert.ok(existsSync(r.handoff_file), 'the handoff file exists');
    assert.ok(existsSync(r.briefing.path), 'the briefing exists');
    // One file per section in the briefing's folder (issue 20): the folder carries the briefing's name.
    assert.match(path.basename(path.dirname(r.briefing.path)), /^frontend-designer-landing-page-hero-\d{4}-\d{2}-\d{2}$/);
    assert.equal(r.package.briefing_file, r.briefing.path);
    assert.equal(handoffFiles().length, before + 1);
    const parsed = parseHandoff(readFileSync(r.handoff_file, 'utf8'));
    assert.ok(parsed.ok, 'the handoff parses');
    assert.equal(parsed.handoff.frontmatter.from, 'copilot');
    assert.equal(parsed.handoff.frontmatter.specialist, 'frontend_designer');
    assert.match(parsed.handoff.sections.get('Decisions') ?? '', /Use the existing design tokens/);
    assert.match(parsed.handoff.sections.get('Return condition') ?? '', /hero layout is designed/);
    assert.ok(r.package.touched_files.length > 0, 'git evidence was collected by the tool, not passed by the model');
    assert.match(readFileSync(r.briefing.path, 'utf8'), /The hero section needs a designer/);
  });

  it('a budget preset stands for max_context_tokens, and the setting is not added beside it; both given is an ERROR text', async () => {
    const seed: Record<string, unknown> = { ...seedArguments(workspaceRoot()) };
    delete seed.max_context_tokens;
    const small = resultText(
      await vscode.lm.invokeTool(TOOL, { input: { ...seed, topic: 'small budget', budget: 'small', parent: 'none' }, toolInvocationToken: undefined }, none),
    );
    assert.ok(!small.startsWith('ERROR:'), small);
    const r = parseResult(small);
    assert.equal(r.package.max_context_tokens, 1000);
    assert.ok(r.package.estimated_tokens <= 1000, `${r.package.estimated_tokens} tokens`);
    const both = resultText(
      await vscode.lm.invokeTool(TOOL, { input: { ...seed, topic: 'both', budget: 'large', max_context_tokens: 2000 }, toolInvocationToken: undefined }, none),
    );
    assert.match(both, /^ERROR: budget and max_context_tokens are both given/);
  });

  it('an unknown profile returns the ERROR text and writes nothing', async () => {
    const before = handoffFiles();
    const result = await vscode.lm.invokeTool(
      TOOL,
      { input: { ...seedArguments(workspaceRoot()), specialist_profile: 'frontend_desiner' }, toolInvocationToken: undefined },
      none,
    );
    const text = resultText(result);
    assert.match(text, /^ERROR: unknown specialist "frontend_desiner" — did you mean: frontend_designer/);
    assert.deepEqual(handoffFiles(), before);
  });

  it('request_full_history (issue 18) is listed once with its generated schema, answers a history or an ERROR text, and refuses an untrusted workspace', async () => {
    const listed = vscode.lm.tools.filter((t) => t.name === 'request_full_history');
    assert.equal(listed.length, 1, `tools: ${vscode.lm.tools.map((t) => t.name).join(', ')}`);
    assert.deepStrictEqual(listed[0].inputSchema, historyToolJsonSchema());
    const small = await vscode.lm.invokeTool('request_full_history', { input: { max_tokens: 10 }, toolInvocationToken: undefined }, none);
    assert.equal(resultText(small), 'ERROR: max_tokens must be at least 1,000');
    const latest = resultText(await vscode.lm.invokeTool('request_full_history', { input: {}, toolInvocationToken: undefined }, none));
    // The handoffs of this workspace were written with or without a session log: a history, or the error naming why there is none.
    assert.match(
      latest,
      /^(# Full history behind handoff \S+\n|ERROR: (handoff \S+ names no transcript|the transcripts of handoff \S+ .* cannot be found or read again))/,
    );
    trusted = false;
    try {
      const refused = await new FullHistoryLanguageModelTool(deps).invoke({ input: {}, toolInvocationToken: undefined }, none);
      assert.match(resultText(refused), /^ERROR: this workspace is not trusted/);
    } finally {
      trusted = true;
    }
  });

  it('a relative project_root and unknown fields are ERROR texts too, never exceptions', async () => {
    const relative = await vscode.lm.invokeTool(
      TOOL,
      { input: { ...seedArguments(workspaceRoot()), project_root: 'todo-api' }, toolInvocationToken: undefined },
      none,
    );
    assert.match(resultText(relative), /^ERROR: project_root must be absolute/);
    const extra = await vscode.lm.invokeTool(
      TOOL,
      { input: { specialist_profile: 'quality_reviewer', topic: 'x', colour: 'blue' }, toolInvocationToken: undefined },
      none,
    );
    assert.match(resultText(extra), /^ERROR: unknown field colour/);
  });

  it('asks for a confirmation naming the specialist, the topic and the files it writes; none for input it would refuse', () => {
    const tool = new HandoverLanguageModelTool(deps);
    const prepared = tool.prepareInvocation({ input: seedArguments(workspaceRoot()) });
    assert.ok(prepared.confirmationMessages, 'a confirmation is asked');
    assert.equal(prepared.confirmationMessages.title, 'Hand over to [frontend designer]?');
    const message = prepared.confirmationMessages.message;
    const md = typeof message === 'string' ? message : message.value;
    assert.match(md, /\\\[frontend designer\\\]/);
    assert.match(md, /landing-page-hero/);
    assert.match(md, /`\.handoff\/handoffs\/`/);
    assert.match(md, /appends a briefing to `\.handoff\/briefings\/`/);
    assert.match(String(prepared.invocationMessage), /Handing over to \[frontend designer\]: landing-page-hero/);
    assert.equal(tool.prepareInvocation({ input: { topic: 'no specialist' } }).confirmationMessages, undefined);
  });

  it('refuses in an untrusted workspace with the ERROR text, before any git process or write', async () => {
    trusted = false;
    try {
      const before = handoffFiles();
      const tool = new HandoverLanguageModelTool(deps);
      const result = await tool.invoke({ input: seedArguments(workspaceRoot()), toolInvocationToken: undefined }, none);
      assert.match(resultText(result), /^ERROR: this workspace is not trusted/);
      assert.equal(tool.prepareInvocation({ input: seedArguments(workspaceRoot()) }).confirmationMessages, undefined);
      assert.deepEqual(handoffFiles(), before);
    } finally {
      trusted = true;
    }
  });

  it('a cancelled call writes nothing and says so', async () => {
    const before = handoffFiles();
    const cts = new vscode.CancellationTokenSource();
    cts.cancel();
    const result = await new HandoverLanguageModelTool(deps).invoke({ input: seedArguments(workspaceRoot()), toolInvocationToken: undefined }, cts.token);
    assert.match(resultText(result), /^ERROR: the handoff was cancelled/);
    assert.deepEqual(handoffFiles(), before);
  });

  it('contributes the @handoff chat participant with /handover, /timeline and /prompt, and activation registered it without error', () => {
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as {
      contributes: { chatParticipants: Array<{ id: string; name: string; commands: Array<{ name: string }> }> };
    };
    const p = pkg.contributes.chatParticipants.find((c) => c.id === CHAT_PARTICIPANT_ID);
    assert.ok(p);
    assert.equal(p.name, 'handoff');
    assert.deepEqual(
      p.commands.map((c) => c.name),
      ['handover', 'timeline', 'prompt'],
    );
    assert.equal(typeof vscode.chat.createChatParticipant, 'function', 'this VS Code has chat participants');
    assert.equal(vscode.extensions.getExtension(EXTENSION_ID)!.isActive, true);
  });

  it('the MCP server definition provider is declared, and registered only where VS Code has the API (1.101+), saying so once otherwise', () => {
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { mcpServerDefinitionProviders: Array<{ id: string }> } };
    assert.deepEqual(
      pkg.contributes.mcpServerDefinitionProviders.map((p) => p.id),
      [MCP_PROVIDER_ID],
    );
    const hasApi = typeof (vscode.lm as unknown as { registerMcpServerDefinitionProvider?: unknown }).registerMcpServerDefinitionProvider === 'function';
    if (hasApi) return; // the extension registered it at activation; a second registration of the id would clash
    const lines: string[] = [];
    const capture = { ...log, info: (m: string) => lines.push(m) } as unknown as vscode.LogOutputChannel;
    const registered = registerMcpServerDefinitions({ ...deps, log: capture });
    assert.deepEqual(registered, []);
    assert.equal(lines.length, 1);
    assert.match(
      lines[0],
      /^MCP server definition not registered: VS Code 1\.\d+\.\d+ has no vscode\.lm\.registerMcpServerDefinitionProvider \(VS Code 1\.101\+\)/,
    );
  });

  describe('@handoff', () => {
    const handler = () => createChatHandler(deps);
    const request = (command: string | undefined, prompt: string) =>
      ({ command, prompt, references: [], toolReferences: [], toolInvocationToken: undefined, model: undefined }) as unknown as vscode.ChatRequest;
    const history = [
      { prompt: 'The API is done; who designs the landing page?', command: undefined, participant: CHAT_PARTICIPANT_ID, references: [], toolReferences: [] },
      { response: [new vscode.ChatResponseMarkdownPart('A frontend designer should take the hero section.')], result: {}, participant: CHAT_PARTICIPANT_ID },
    ] as unknown as vscode.ChatContext['history'];

    it('/handover <specialist> <topic> hands over with the chat as recent turns and streams the marker, the links and the next step', async () => {
      const stream = new RecordingStream();
      const before = written;
      const result = (await handler()(
        request('handover', 'test_debug_engineer hero layout check\nThe hero markup is in; check it renders.'),
        { history },
        stream,
        none,
      )) as HandoffChatResult;
      assert.equal(result.metadata.ok, true, stream.markdownText);
      assert.match(stream.markdownText, /\*\*\\\[test & debug engineer\\\]\*\* takes over/);
      const anchors = stream.of('anchor');
      assert.equal(anchors.length, 2, 'links to the handoff and the briefing');
      const handoff = anchors[0].split('|')[0];
      assert.ok(existsSync(handoff), handoff);
      assert.match(stream.markdownText, /\*\*Next step:\*\*/);
      assert.equal(written, before + 1, 'the timeline was refreshed');
      const parsed = parseHandoff(readFileSync(handoff, 'utf8'));
      assert.ok(parsed.ok);
      assert.equal(parsed.handoff.frontmatter.from, 'chat');
      assert.equal(parsed.handoff.frontmatter.topic, 'hero-layout-check');
      assert.match(parsed.handoff.sections.get('Summary') ?? '', /check it renders/);
      const turns = parsed.handoff.sections.get('Recent turns') ?? '';
      assert.match(turns, /who designs the landing page/);
      assert.match(turns, /A frontend designer should take the hero section/);
    });

    it('/handover without a specialist, or with an unknown one, shows the ERROR and the ids, and writes nothing', async () => {
      const before = handoffFiles();
      const missing = new RecordingStream();
      await handler()(request('handover', ''), { history: [] }, missing, none);
      assert.match(missing.markdownText, /^ERROR: name the specialist/);
      assert.match(missing.markdownText, /`quality_reviewer`/);
      const unknown = new RecordingStream();
      const r = (await handler()(request('handover', 'quality_reviwer auth'), { history: [] }, unknown, none)) as HandoffChatResult;
      assert.equal(r.metadata.ok, false);
      assert.match(unknown.markdownText, /ERROR: unknown specialist "quality\\_reviwer" — did you mean: quality\\_reviewer/);
      assert.match(unknown.markdownText, /`frontend_designer` — \\\[frontend designer\\\]/);
      assert.deepEqual(handoffFiles(), before);
    });

    it('/timeline lists the newest handoffs with their markers, topics and links', async () => {
      const stream = new RecordingStream();
      await handler()(request('timeline', ''), { history: [] }, stream, none);
      const md = stream.markdownText;
      assert.match(md, /Newest handoffs in/);
      assert.match(md, /\\\[frontend designer\\\] \*\*landing-page-hero\*\*/);
      assert.match(md, /\\\[test & debug engineer\\\] \*\*hero[ -]layout[ -]check\*\*/);
      const newest = handoffFiles().at(-1)!;
      assert.ok(md.includes(vscode.Uri.file(path.join(workspaceRoot(), '.handoff', 'handoffs', newest)).toString()), 'links to the newest handoff file');
    });

    it('/prompt <specialist> streams the receiving specialist’s prompt in a code block, without taking the handoff', async () => {
      const stream = new RecordingStream();
      const r = (await handler()(request('prompt', 'frontend_designer'), { history: [] }, stream, none)) as HandoffChatResult;
      assert.equal(r.metadata.ok, true, stream.markdownText);
      const md = stream.markdownText;
      assert.match(md, /The prompt for \*\*\\\[frontend designer\\\]\*\*/);
      assert.match(md, /```+markdown\n[\s\S]*\[frontend designer\][\s\S]*## Prior Agent Handoffs[\s\S]*\n```+\n/);
      assert.deepEqual(stream.of('button'), ['handoff.copyPrompt']);
      const file = handoffFiles()
        .filter((f) => f.endsWith('_frontend_designer.md'))
        .at(-1)!;
      const parsed = parseHandoff(readFileSync(path.join(workspaceRoot(), '.handoff', 'handoffs', file), 'utf8'));
      assert.ok(parsed.ok);
      assert.equal(parsed.handoff.frontmatter.status, 'pending', 'viewing the prompt does not take the handoff');
    });

    it('in an untrusted workspace /handover and /prompt say why they do nothing', async () => {
      trusted = false;
      try {
        const before = handoffFiles();
        for (const [command, prompt] of [
          ['handover', 'quality_reviewer x'],
          ['prompt', 'quality_reviewer'],
        ]) {
          const stream = new RecordingStream();
          const r = (await handler()(request(command, prompt), { history: [] }, stream, none)) as HandoffChatResult;
          assert.equal(r.metadata.ok, false);
          assert.match(stream.markdownText, /This workspace is not trusted/);
          assert.deepEqual(stream.of('button'), ['workbench.trust.manage']);
        }
        assert.deepEqual(handoffFiles(), before);
      } finally {
        trusted = true;
      }
    });

    it('without a command it explains its commands', async () => {
      const stream = new RecordingStream();
      await handler()(request(undefined, 'hello'), { history: [] }, stream, none);
      assert.match(stream.markdownText, /`\/handover <specialist> \[topic\]`/);
      assert.match(stream.markdownText, /`\/timeline`/);
      assert.match(stream.markdownText, /`\/prompt \[specialist\]`/);
    });
  });
});
