/**
 * A gpt-tokenizer encoding loaded on a worker thread, so a short-lived process (the CLI's
 * `handover`, `hook`, `draft`) does its other start-up work — evaluating its modules, running
 * git, reading the transcript — while the rank tables load (reading them and building their
 * maps is the largest single cost of a small `handover`).
 *
 * The counts are the library's own: the worker calls the same encoding's `countTokens` and
 * `isWithinTokenLimit` with the same options; the caller blocks on `Atomics.wait` until the
 * answer is there, so the {@link TokenEncoding} interface stays synchronous. Several texts can
 * be asked in one request (`countTokensBatch`): a handoff's measure asks for its ~70 new
 * pieces at once instead of one round trip each (src/core/handoff/tokenPieces.ts). If the worker
 * cannot load the encoding, fails or does not answer, the encoding is loaded in the process
 * instead (`fallback`) and every later call goes there: the same counts, only later.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { TokenizerName } from '../../core/handoff/schema';
import type { TokenEncoding } from '../../core/handoff/tokens';

/**
 * The worker's code (CommonJS, evaluated): loads the encoding, counts one short text (a
 * warm-up, so the main thread's first requests block less), then answers each request on its port — `{text}` with `countTokens`,
 * `{text, limit}` with `isWithinTokenLimit`, `{texts}` with `countTokens` of each (a batch:
 * one round trip).
 */
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { module: file, port, flag } = workerData;
const state = new Int32Array(flag);
let enc, failure;
try { enc = require(file); } catch (err) { failure = String((err && err.message) || err); }
// The first count compiles the pre-tokenizer's pattern and the counting code: done now, while
// the main thread is still busy, rather than in its first (blocking) request. Counts are unchanged.
try { if (enc) enc.countTokens('Warm-up: the first count, once.\\n', { disallowedSpecial: new Set() }); } catch {}
port.on('message', (req) => {
  let reply;
  if (failure !== undefined) reply = { error: failure };
  else {
    try {
      const options = req.disallowed === undefined ? undefined : { disallowedSpecial: new Set(req.disallowed) };
      if (req.texts !== undefined) reply = { values: req.texts.map((text) => enc.countTokens(text, options)) };
      else reply = { value: req.limit === undefined ? enc.countTokens(req.text, options) : enc.isWithinTokenLimit(req.text, req.limit, options) };
    } catch (err) { reply = { error: String((err && err.message) || err) }; }
  }
  port.postMessage(reply);
  Atomics.store(state, 0, req.seq);
  Atomics.notify(state, 0);
});
`;

/**
 * The module file of an encoding: `tokenizers/<name>.js` beside the bundle (dist/, see
 * esbuild.mjs), else the package's own `gpt-tokenizer/encoding/<name>` (running from source).
 */
export function encodingModuleFile(name: TokenizerName, bundleDir = __dirname): string {
  const bundled = path.join(bundleDir, 'tokenizers', `${name}.js`);
  return existsSync(bundled) ? bundled : require.resolve(`gpt-tokenizer/encoding/${name}`);
}

/** How long one call waits for the worker before the process loads the encoding itself (ms); loading takes well under a second. */
const WAIT_LIMIT_MS = 30_000;

/** A {@link TokenEncoding} answered by a worker thread ({@link startWorkerEncoding}), which can be ended early. */
export interface WorkerEncoding extends TokenEncoding {
  /**
   * Ends the worker thread now: a process that will count no more tokens frees the worker's
   * heap (the rank tables' maps) while it finishes its work, instead of as it exits,
   * when Node ends every worker and waits for it. A later
   * call still answers, from the encoding loaded in the process (`fallback`): the same counts.
   */
  release(): void;
}

/**
 * Starts loading the encoding `name` on a worker thread and returns it as a
 * {@link WorkerEncoding} whose calls block until the worker answers. The worker does not
 * keep the process alive (unref).
 * @param fallback loads the encoding in the process, used from the first call the worker cannot answer (or after `release`)
 * @param moduleFile the encoding's module (default {@link encodingModuleFile})
 * @throws only what `fallback` throws (the encoding module is missing)
 */
export function startWorkerEncoding(name: TokenizerName, fallback: () => TokenEncoding, moduleFile = encodingModuleFile(name)): WorkerEncoding {
  const flag = new SharedArrayBuffer(4);
  const state = new Int32Array(flag);
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { module: moduleFile, port: port2, flag },
    transferList: [port2 as unknown as MessagePort],
  });
  worker.unref();
  port1.unref();
  let local: TokenEncoding | undefined;
  /** Stops using the worker: the process loads the encoding itself. */
  const inProcess = (): TokenEncoding => {
    if (!local) {
      local = fallback();
      void worker.terminate();
    }
    return local;
  };
  worker.on('error', () => inProcess());
  let released = false;
  let seq = 0;
  /** The worker's answer to one request, or undefined when it failed or did not answer in time. */
  const ask = (req: {
    text?: string;
    texts?: readonly string[];
    limit?: number;
    disallowed?: string[];
  }): { value?: number | false; values?: number[] } | undefined => {
    const mine = ++seq;
    port1.postMessage({ ...req, seq: mine });
    const deadline = Date.now() + WAIT_LIMIT_MS;
    for (;;) {
      const got = receiveMessageOnPort(port1);
      if (got) {
        const reply = got.message as { value?: number | false; values?: number[]; error?: string };
        return reply.error === undefined ? reply : undefined;
      }
      if (Date.now() > deadline) return undefined;
      // Wakes when the worker has answered request `mine` (or after 50 ms, to look again).
      Atomics.wait(state, 0, mine - 1, 50);
    }
  };
  const disallowed = (options?: { disallowedSpecial?: Set<string> }) => (options?.disallowedSpecial === undefined ? undefined : [...options.disallowedSpecial]);
  return {
    countTokens: (text, options) => {
      const got = local || released ? undefined : ask({ text, disallowed: disallowed(options) });
      return got ? (got.value as number) : inProcess().countTokens(text, options);
    },
    isWithinTokenLimit: (text, limit, options) => {
      const got = local || released ? undefined : ask({ text, limit, disallowed: disallowed(options) });
      return got ? (got.value as number | false) : inProcess().isWithinTokenLimit(text, limit, options);
    },
    countTokensBatch: (texts, options) => {
      const got = local || released ? undefined : ask({ texts, disallowed: disallowed(options) });
      return got ? (got.values as number[]) : texts.map((text) => inProcess().countTokens(text, options));
    },
    release: () => {
      if (released || local) return;
      released = true;
      void worker.terminate();
    },
  };
}
