/**
 * `specialist-handoff mcp` answers every line of its input as JSON-RPC 2.0 says and stays up
 * (src/mcp/stdioTransport.ts, src/mcp/server.ts): raw bytes go to the standard input of the
 * real process (the CLI from its sources, on a real temporary git repository) and each reply
 * is read from its standard output. A line that is not JSON, a batch, an invalid message or
 * one over 10 MiB gets exactly one JSON-RPC error — and the next `tools/list` and `tools/call`
 * are answered. A tool argument of the wrong type names the argument and what it must be, for
 * every argument of every tool. Standard input's end still ends the server with exit 0 once
 * the calls in flight are answered.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { MCP_TOOL_NAMES } from '../../src/mcp/tools';
import { CLI_FROM_SOURCE, repoWithWork } from '../helpers/cli';
import { cleanupTempDirs } from '../helpers/repo';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** One line of the server's standard output. */
interface Reply {
  jsonrpc: string;
  id: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/** The server process, written to raw and read reply by reply. */
class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<number | null>;
  stderr = '';
  private pending = '';
  private readonly replies: Reply[] = [];
  private wake: () => void = () => undefined;
  private closed = false;

  constructor(repo: string) {
    this.child = spawn(process.execPath, [...CLI_FROM_SOURCE, 'mcp', '--cwd', repo], { cwd: REPO_ROOT, env: process.env });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      this.pending += chunk;
      for (let i = this.pending.indexOf('\n'); i >= 0; i = this.pending.indexOf('\n')) {
        this.replies.push(JSON.parse(this.pending.slice(0, i)) as Reply);
        this.pending = this.pending.slice(i + 1);
      }
      this.wake();
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    // 'close': the exit code once standard output is read to its end.
    this.exited = new Promise((resolve) =>
      this.child.on('close', (code) => {
        this.closed = true;
        this.wake();
        resolve(code);
      }),
    );
  }

  /** Writes raw bytes to standard input; resolves once the pipe has taken them. */
  write(raw: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) => this.child.stdin.write(raw, (err) => (err ? reject(err) : resolve())));
  }

  /** Writes one message as a line. */
  send(message: unknown): Promise<void> {
    return this.write(`${JSON.stringify(message)}\n`);
  }

  /** Takes the first reply not taken yet that `match` accepts, waiting for it (at most 20 s). */
  async take(match: (r: Reply) => boolean, what: string): Promise<Reply> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const i = this.replies.findIndex(match);
      if (i >= 0) return this.replies.splice(i, 1)[0];
      if (Date.now() > deadline || this.closed) {
        assert.fail(
          `no reply for ${what} (exit ${this.child.exitCode}); replies not taken: ${JSON.stringify(this.replies).slice(0, 2000)}\nstderr: ${this.stderr}`,
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /** The reply to the request with `id`. */
  answer(id: string): Promise<Reply> {
    return this.take((r) => r.id === id, `request ${id}`);
  }

  /** The replies nobody took. */
  untaken(): Reply[] {
    return [...this.replies];
  }

  /** The MCP handshake. */
  async initialize(): Promise<void> {
    await this.send({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-client', version: '1' } },
    });
    assert.ok((await this.answer('init')).result, 'initialize is answered');
    await this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  /** Sends a valid `tools/list` and `tools/call` (list_specialists) and checks both answers. */
  async stillServes(tag: string): Promise<void> {
    await this.send({ jsonrpc: '2.0', id: `${tag}-list`, method: 'tools/list' });
    await this.send({ jsonrpc: '2.0', id: `${tag}-call`, method: 'tools/call', params: { name: 'list_specialists', arguments: {} } });
    const list = await this.answer(`${tag}-list`);
    assert.deepEqual(
      (list.result?.tools as Tool[] | undefined)?.map((t) => t.name),
      [...MCP_TOOL_NAMES],
      `tools/list after ${tag}`,
    );
    const call = (await this.answer(`${tag}-call`)).result as CallToolResult | undefined;
    assert.ok(call && call.isError !== true, `tools/call after ${tag}: ${JSON.stringify(call)}`);
    assert.ok(((call.structuredContent as { specialists: unknown[] }).specialists ?? []).length >= 5, `list_specialists after ${tag}`);
  }

  /** A tool call's result. */
  async callTool(id: string, name: string, args: unknown): Promise<CallToolResult> {
    await this.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
    const reply = await this.answer(id);
    assert.equal(reply.error, undefined, `${name} ${JSON.stringify(args)} is a tool result, not a protocol error`);
    return reply.result as unknown as CallToolResult;
  }
}

function text(result: CallToolResult): string {
  const first = result.content[0];
  assert.ok(first && first.type === 'text', 'the first content item is text');
  return first.text;
}

const line = (m: unknown) => JSON.stringify(m);
const TOOLS = MCP_TOOL_NAMES.join(', ');
const BATCH = 'Invalid Request: batches (JSON arrays of messages) are not supported by MCP — send each message as one JSON object on its own line';

describe('MCP server over stdio: every bad line gets a JSON-RPC error and the server reads on', function () {
  this.timeout(120_000);
  let repo: string;
  let server: RawServer;

  before(async () => {
    repo = repoWithWork();
    server = new RawServer(repo);
    await server.initialize();
  });

  after(async () => {
    server?.child.stdin.end();
    await server?.exited;
    cleanupTempDirs();
  });

  it('answers each bad line with its exact error (code, id, the problem), then a tools/list and a tools/call', async () => {
    // [what, the raw line, the reply: id, code, message (a RegExp where Node words it)]
    const cases: Array<[string, string, Reply['id'], number, string | RegExp]> = [
      ['a line cut short', '{"jsonrpc":"2.0","id":"cut","method":"tools/list"', null, -32700, /^Parse error: the line is not valid JSON \(.+\)$/],
      ['a line of words', 'hello server', null, -32700, /^Parse error: the line is not valid JSON \(.+\)$/],
      [
        'a batch',
        `[${line({ jsonrpc: '2.0', id: 'b1', method: 'tools/list' })},${line({ jsonrpc: '2.0', id: 'b2', method: 'tools/call', params: { name: 'list_specialists' } })}]`,
        null,
        -32600,
        BATCH,
      ],
      ['an empty batch', '[]', null, -32600, BATCH],
      [
        'an object as id',
        line({ jsonrpc: '2.0', id: { n: 1 }, method: 'tools/list' }),
        null,
        -32600,
        'Invalid Request: "id" must be a string or an integer, not an object',
      ],
      [
        'a boolean as id',
        line({ jsonrpc: '2.0', id: true, method: 'tools/list' }),
        null,
        -32600,
        'Invalid Request: "id" must be a string or an integer, not a boolean (true)',
      ],
      ['null as id', line({ jsonrpc: '2.0', id: null, method: 'tools/list' }), null, -32600, 'Invalid Request: "id" must be a string or an integer, not null'],
      [
        'a fraction as id',
        line({ jsonrpc: '2.0', id: 1.5, method: 'tools/list' }),
        null,
        -32600,
        'Invalid Request: "id" must be a string or an integer, not a number (1.5)',
      ],
      ['a number as the message', '42', null, -32600, 'Invalid Request: a message must be a JSON object, not a number (42)'],
      [
        'another JSON-RPC version',
        line({ jsonrpc: '1.0', id: 'v1', method: 'tools/list' }),
        'v1',
        -32600,
        'Invalid Request: "jsonrpc" must be "2.0", not a string ("1.0")',
      ],
      ['no jsonrpc', line({ id: 'v2', method: 'tools/list' }), 'v2', -32600, 'Invalid Request: "jsonrpc" must be "2.0"'],
      ['a number as method', line({ jsonrpc: '2.0', id: 'm1', method: 5 }), 'm1', -32600, 'Invalid Request: "method" must be a string, not a number (5)'],
      [
        'an unknown member',
        line({ jsonrpc: '2.0', id: 'u1', method: 'tools/list', extra: 1 }),
        'u1',
        -32600,
        'Invalid Request: unknown member "extra" — a request has "jsonrpc", "id", "method" and "params"',
      ],
      [
        'a string as params of a notification',
        line({ jsonrpc: '2.0', method: 'notifications/initialized', params: 'x' }),
        null,
        -32600,
        'Invalid Request: "params" must be an object, not a string ("x")',
      ],
      [
        'a malformed response (its id is not echoed)',
        line({ jsonrpc: '2.0', id: 'r1', result: 5 }),
        null,
        -32600,
        'Invalid Request: a response needs a string or integer "id" and either "result" (an object) or "error" (with an integer "code" and a string "message"), not both',
      ],
      [
        'params as a list',
        line({ jsonrpc: '2.0', id: 'l1', method: 'tools/list', params: [1] }),
        'l1',
        -32602,
        'Invalid params: "params" must be an object of named parameters, not a list',
      ],
      [
        'a number as a tool name',
        line({ jsonrpc: '2.0', id: 'n1', method: 'tools/call', params: { name: 42, arguments: {} } }),
        'n1',
        -32602,
        `Invalid params: name must be a string: the name of the tool to call — the tools are: ${TOOLS}`,
      ],
      [
        'a call without a tool name',
        line({ jsonrpc: '2.0', id: 'n2', method: 'tools/call', params: { arguments: {} } }),
        'n2',
        -32602,
        `Invalid params: name is required: the name of the tool to call — the tools are: ${TOOLS}`,
      ],
      [
        'a call without params',
        line({ jsonrpc: '2.0', id: 'n3', method: 'tools/call' }),
        'n3',
        -32602,
        `Invalid params: name is required: the name of the tool to call — the tools are: ${TOOLS}`,
      ],
      [
        'a number as the tools/list cursor',
        line({ jsonrpc: '2.0', id: 'c1', method: 'tools/list', params: { cursor: 5 } }),
        'c1',
        -32602,
        'Invalid params: cursor must be a string',
      ],
      ['an unknown method (the SDK answers it)', line({ jsonrpc: '2.0', id: 'x1', method: 'tools/nope' }), 'x1', -32601, 'Method not found'],
    ];
    for (const [i, [what, raw, id, code, message]] of cases.entries()) {
      await server.write(`${raw}\n`);
      const reply = await server.take((r) => r.error !== undefined && r.id === id, what);
      assert.deepEqual({ ...reply, error: { ...reply.error, message: '' } }, { jsonrpc: '2.0', id, error: { code, message: '' } }, what);
      if (typeof message === 'string') assert.equal(reply.error?.message, message, what);
      else assert.match(reply.error?.message ?? '', message, what);
      assert.equal(server.child.exitCode, null, `the server runs on after ${what}`);
      await server.stillServes(`after-${i}`);
    }
    // Blank lines carry no message: nothing answers them, and the server reads on.
    await server.write('\n  \r\n\n');
    await server.stillServes('after-blank');
    assert.deepEqual(server.untaken(), [], "one reply per line: the batch's requests never ran, blank lines got none");
    assert.match(server.stderr, /^specialist-handoff mcp: protocol error: Parse error: /m, 'each bad line is one diagnostic line on stderr');
    assert.match(server.stderr, /^specialist-handoff mcp: protocol error: Invalid params: name must be a string: /m, 'so is a call refused for its params');
  });

  it('a tool argument of the wrong type names the argument and what it must be, for every argument of every tool', async () => {
    await server.send({ jsonrpc: '2.0', id: 'schemas', method: 'tools/list' });
    const tools = (await server.answer('schemas')).result?.tools as Tool[];
    const base: Record<string, Record<string, unknown>> = {
      handover_to_specialist: { specialist_profile: 'quality_reviewer', topic: 'wrong types' },
      record_result: { specialist: 'quality_reviewer' },
    };
    let n = 0;
    let checked = 0;
    for (const tool of tools) {
      for (const [arg, schema] of Object.entries(tool.inputSchema.properties ?? {}) as Array<
        [string, { type?: string; items?: { type?: string }; anyOf?: unknown }]
      >) {
        const wrong: Array<[unknown, string]> = [];
        if (schema.anyOf) wrong.push([true, arg]);
        else if (schema.type === 'string') wrong.push([42, arg]);
        else if (schema.type === 'number' || schema.type === 'integer') wrong.push(['12', arg]);
        else if (schema.type === 'boolean') wrong.push(['yes', arg]);
        else if (schema.type === 'array') {
          wrong.push([42, arg]);
          if (schema.items?.type === 'string') wrong.push([[42], `${arg}.0`]);
        }
        assert.ok(wrong.length, `${tool.name} ${arg}: a JSON type to get wrong (${JSON.stringify(schema)})`);
        for (const [value, subject] of wrong) {
          const r = await server.callTool(`wrong-${n++}`, tool.name, { ...base[tool.name], [arg]: value });
          assert.equal(r.isError, true, `${tool.name} ${arg}: ${JSON.stringify(value)}`);
          assert.match(text(r), new RegExp(`^ERROR: ${subject.replace('.', '\\.')} must be \\S`), `${tool.name} ${arg}: ${JSON.stringify(value)}`);
          assert.doesNotMatch(text(r), /required/, `${tool.name} ${arg}: a value that came is not "required"`);
          checked++;
        }
      }
    }
    assert.ok(checked >= 40, `every argument of the five tools (${checked})`);
    // The exact words, by kind of argument.
    const exact: Array<[string, Record<string, unknown>, string]> = [
      ['handover_to_specialist', { specialist_profile: 42, topic: 't' }, 'ERROR: specialist_profile must be a string'],
      ['handover_to_specialist', { specialist_profile: 'quality_reviewer', topic: null }, 'ERROR: topic must be a string'],
      ['handover_to_specialist', { specialist_profile: 'quality_reviewer', topic: 't', decisions: [42] }, 'ERROR: decisions.0 must be a string'],
      ['handover_to_specialist', { specialist_profile: 'quality_reviewer', topic: 't', decisions: 'one' }, 'ERROR: decisions must be a list of strings'],
      [
        'handover_to_specialist',
        { specialist_profile: 'quality_reviewer', topic: 't', max_context_tokens: '12' },
        'ERROR: max_context_tokens must be a number',
      ],
      ['handover_to_specialist', { topic: 't' }, 'ERROR: specialist_profile is required'],
      ['record_result', { specialist: 42 }, 'ERROR: specialist must be a string'],
      ['record_result', { specialist: 'quality_reviewer', proceed_if_taken: 'yes' }, 'ERROR: proceed_if_taken must be true or false'],
      ['record_result', { specialist: 'quality_reviewer', blockers: 'one' }, 'ERROR: blockers must be a list'],
      ['record_result', { specialist: 'quality_reviewer', tokenizer: 42 }, 'ERROR: tokenizer must be one of: o200k_base, cl100k_base'],
      ['prior_handoffs', { max_entries: '12' }, 'ERROR: max_entries must be a number'],
      ['list_specialists', { project_root: 42 }, 'ERROR: project_root must be a string'],
      ['request_full_history', { handoff: 42 }, 'ERROR: handoff must be text: a handoff id, its file name or "latest"'],
    ];
    for (const [name, args, expected] of exact) {
      const r = await server.callTool(`exact-${n++}`, name, args);
      assert.equal(r.isError, true, `${name} ${JSON.stringify(args)}`);
      assert.equal(text(r), expected, `${name} ${JSON.stringify(args)}`);
    }
    assert.equal(existsSync(path.join(repo, '.handoff', 'handoffs')), false, 'nothing written');
    await server.stillServes('after-arguments');
  });
});

describe('MCP server over stdio: a line over 10 MiB', function () {
  this.timeout(120_000);
  after(cleanupTempDirs);

  it('is discarded and answered with -32600 while the calls before and after it are answered; the end of input still ends the server with 0 after its call in flight', async () => {
    const repo = repoWithWork();
    const server = new RawServer(repo);
    await server.initialize();
    // A valid tools/call, were it read: its project_root alone is 11 MiB.
    const huge = line({
      jsonrpc: '2.0',
      id: 'huge',
      method: 'tools/call',
      params: { name: 'list_specialists', arguments: { project_root: 'x'.repeat(11 * 1024 * 1024) } },
    });
    const before = line({ jsonrpc: '2.0', id: 'before', method: 'tools/call', params: { name: 'list_specialists', arguments: {} } });
    const after = line({ jsonrpc: '2.0', id: 'after', method: 'tools/call', params: { name: 'list_specialists', arguments: {} } });
    await server.write(`${before}\n${huge}\n${after}\n`);

    const refused = await server.take((r) => r.id === null, 'the oversized line');
    assert.deepEqual(refused, {
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: 'Invalid Request: the message is larger than the limit of 10,485,760 bytes and was discarded — send each message as one line within the limit',
      },
    });
    for (const id of ['before', 'after']) {
      const result = (await server.answer(id)).result as unknown as CallToolResult;
      assert.ok(result && result.isError !== true, `${id}: ${JSON.stringify(result)}`);
    }
    assert.equal(server.child.exitCode, null, 'the server runs on');
    await server.stillServes('after-huge');
    assert.match(server.stderr, /protocol error: Invalid Request: the message is larger than the limit/);

    // A handover still running when standard input ends is answered, then the server exits 0;
    // a last line without a line break is a message too.
    await server.write(
      `${line({ jsonrpc: '2.0', id: 'last-call', method: 'tools/call', params: { name: 'handover_to_specialist', arguments: { specialist_profile: 'quality_reviewer', topic: 'after the huge line' } } })}\n`,
    );
    await server.write(line({ jsonrpc: '2.0', id: 'tail', method: 'tools/list' }));
    server.child.stdin.end();
    assert.equal(await server.exited, 0, server.stderr);
    const handed = (await server.answer('last-call')).result as unknown as CallToolResult;
    assert.ok(handed && handed.isError !== true, JSON.stringify(handed));
    const file = (handed.structuredContent as { handoff_file: string }).handoff_file;
    assert.ok(existsSync(file), file);
    assert.deepEqual(
      readdirSync(path.join(repo, '.handoff', 'handoffs')).filter((f) => f.endsWith('.md')),
      [path.basename(file)],
    );
    assert.ok((await server.answer('tail')).result?.tools, 'the last line, without a line break, is answered');
    assert.deepEqual(server.untaken(), [], 'the oversized call never ran: one reply per message');
  });
});
