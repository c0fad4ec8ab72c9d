/**
 * MCP's stdio transport (one JSON-RPC message per line) that answers bad lines as JSON-RPC 2.0
 * says and stays open: -32700 for non-JSON, -32600 for batches, non-messages and lines over the
 * limit (skipped without buffering them), -32602 for bad params. The SDK's
 * `StdioServerTransport` only reports these, and closes at an oversized line.
 */
import { STDIO_DEFAULT_MAX_BUFFER_SIZE, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  JSONRPCMessageSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  RequestIdSchema,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { formatCount } from '../core/handoff/limits';
import { issueProblem, issueSubject } from '../core/handoff/issues';

interface Refusal {
  /** The request's id when valid; else null, as JSON-RPC requires. */
  readonly id: RequestId | null;
  readonly code: number;
  readonly message: string;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
  return typeof value === 'number' || typeof value === 'boolean' ? `a ${typeof value} (${String(value)})` : `a ${typeof value}`;
}

const REQUEST_MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * The refusal of a line `JSONRPCMessageSchema` rejects: its first problem in JSON-RPC's order.
 * Only a request's id is echoed: a malformed response's id is one of the server's own requests.
 */
export function refusalOf(value: unknown): Refusal {
  const invalid = (problem: string, id: RequestId | null = null): Refusal => ({ id, code: ErrorCode.InvalidRequest, message: `Invalid Request: ${problem}` });
  if (Array.isArray(value)) return invalid('batches (JSON arrays of messages) are not supported by MCP — send each message as one JSON object on its own line');
  if (value === null || typeof value !== 'object') return invalid(`a message must be a JSON object, not ${kindOf(value)}`);
  const m = value as Record<string, unknown>;
  const validId = 'id' in m && RequestIdSchema.safeParse(m.id).success;
  const id = 'method' in m && validId ? (m.id as RequestId) : null;
  if (m.jsonrpc !== '2.0') return invalid(`"jsonrpc" must be "2.0"${'jsonrpc' in m ? `, not ${kindOf(m.jsonrpc)}` : ''}`, id);
  if ('id' in m && !validId) return invalid(`"id" must be a string or an integer, not ${kindOf(m.id)}`);
  if (!('method' in m)) {
    if ('result' in m || 'error' in m)
      return invalid(
        'a response needs a string or integer "id" and either "result" (an object) or "error" (with an integer "code" and a string "message"), not both',
      );
    return invalid('a request needs a "method" (a string)');
  }
  if (typeof m.method !== 'string') return invalid(`"method" must be a string, not ${kindOf(m.method)}`, id);
  const unknown = Object.keys(m).filter((k) => !REQUEST_MEMBERS.has(k));
  if (unknown.length) {
    return invalid(
      `unknown member${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => JSON.stringify(k.slice(0, 80))).join(', ')} — a request has "jsonrpc", "id", "method" and "params"`,
      id,
    );
  }
  if ('params' in m && (m.params === null || typeof m.params !== 'object')) return invalid(`"params" must be an object, not ${kindOf(m.params)}`, id);
  const params = (problem: string): Refusal => ({ id, code: ErrorCode.InvalidParams, message: `Invalid params: ${problem}` });
  if (Array.isArray(m.params)) return params('"params" must be an object of named parameters, not a list');
  const parsed = ('id' in m ? JSONRPCRequestSchema : JSONRPCNotificationSchema).safeParse(m);
  const issue = parsed.success ? undefined : parsed.error.issues[0];
  // Named inside the params, as the tools' own parameters are.
  const subject = issue?.path[0] === 'params' ? issue.path.slice(1).map(String).join('.') : issueSubject(issue);
  return params(`${subject ? `${subject} ` : ''}${issueProblem(issue, m)}`);
}

export interface LineTransportOptions {
  /** Bytes of one line without its line break; default the SDK's stdio limit. */
  readonly maxMessageBytes?: number;
}

/**
 * MCP over a pair of streams, one message per line. It does not close when its input ends
 * (the owner closes it once its calls are answered), but reads a last line without a break.
 */
export class LineTransport implements Transport {
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  onmessage?: Transport['onmessage'];

  private readonly maxBytes: number;
  private pieces: Buffer[] = [];
  private pieceBytes = 0;
  /** Set while the rest of an oversized line is skipped. */
  private discarding = false;
  private started = false;
  private closed = false;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
    options: LineTransportOptions = {},
  ) {
    this.maxBytes = options.maxMessageBytes ?? STDIO_DEFAULT_MAX_BUFFER_SIZE;
  }

  /** @throws when started twice */
  async start(): Promise<void> {
    if (this.started) throw new Error('LineTransport already started');
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onInputError);
  }

  /** Resolves once the output has taken the line; rejects with the output's error. */
  send(message: JSONRPCMessage): Promise<void> {
    return this.write(serializeMessage(message));
  }

  /** Stops reading (pausing the input if nothing else reads it) and reports the close. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onInputError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.pieces = [];
    this.pieceBytes = 0;
    this.onclose?.();
  }

  private write(line: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.output.write(line, (err) => (err ? reject(err) : resolve()));
    });
  }

  private readonly onData = (chunk: Buffer | string): void => {
    const data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    while (start < data.length) {
      const newline = data.indexOf(0x0a, start);
      const end = newline === -1 ? data.length : newline;
      if (!this.discarding) {
        if (this.pieceBytes + (end - start) > this.maxBytes) {
          this.pieces = [];
          this.pieceBytes = 0;
          this.discarding = true;
          this.refuse({
            id: null,
            code: ErrorCode.InvalidRequest,
            message: `Invalid Request: the message is larger than the limit of ${formatCount(this.maxBytes)} bytes and was discarded — send each message as one line within the limit`,
          });
        } else if (end > start) {
          this.pieces.push(data.subarray(start, end));
          this.pieceBytes += end - start;
        }
      }
      if (newline === -1) break;
      if (this.discarding) this.discarding = false;
      else this.takeLine();
      start = newline + 1;
    }
  };

  private readonly onEnd = (): void => {
    if (!this.discarding && this.pieceBytes > 0) this.takeLine();
    this.discarding = false;
  };

  private readonly onInputError = (err: Error): void => {
    this.onerror?.(err);
  };

  private takeLine(): void {
    const line = Buffer.concat(this.pieces, this.pieceBytes).toString('utf8');
    this.pieces = [];
    this.pieceBytes = 0;
    try {
      this.readLine(line.endsWith('\r') ? line.slice(0, -1) : line);
    } catch (err) {
      // A bug behind onmessage must not end the server: report it and read on.
      this.onerror?.(err instanceof Error ? err : new Error(String(err)));
    }
  }

  private readLine(line: string): void {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      this.refuse({
        id: null,
        code: ErrorCode.ParseError,
        message: `Parse error: the line is not valid JSON (${String((err as Error).message).slice(0, 200)})`,
      });
      return;
    }
    const message = JSONRPCMessageSchema.safeParse(value);
    if (message.success) this.onmessage?.(message.data);
    else this.refuse(refusalOf(value));
  }

  /** Answers a line that is no message, and reports it to `onerror`. */
  private refuse(refusal: Refusal): void {
    // JSON-RPC's id null is outside the SDK's message type, so the reply is written raw.
    const reply = { jsonrpc: '2.0', id: refusal.id, error: { code: refusal.code, message: refusal.message } };
    this.write(`${JSON.stringify(reply)}\n`).catch((err: unknown) => this.onerror?.(err instanceof Error ? err : new Error(String(err))));
    this.onerror?.(new Error(refusal.message));
  }
}
