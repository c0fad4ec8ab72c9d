/**
 * A gpt-tokenizer encoding loaded on a worker thread, so a short-lived process does its other
 * start-up work while the rank tables load. Calls block on `Atomics.wait` so {@link TokenEncoding}
 * stays synchronous; if the worker fails or does not answer, the encoding loads in the process.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { TokenizerName } from '../../core/handoff/schema';
import type { TokenEncoding } from '../../core/handoff/tokens';

/** Requests: `{text}` counts, `{text, limit}` checks the limit, `{texts}` counts a batch in one round trip. */
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

/** `tokenizers/<name>.js` beside the bundle, else the package's own module (running from source). */
export function encodingModuleFile(name: TokenizerName, bundleDir = __dirname): string {
  const bundled = path.join(bundleDir, 'tokenizers', `${name}.js`);
  return existsSync(bundled) ? bundled : require.resolve(`gpt-tokenizer/encoding/${name}`);
}

const WAIT_LIMIT_MS = 30_000;

export interface WorkerEncoding extends TokenEncoding {
  /** Ends the worker to free its heap early; later calls use the in-process encoding. */
  release(): void;
}

/** @param fallback loads the encoding in the process, used once the worker cannot answer (or after `release`) */
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
      // Wakes when the worker has answered `mine`, or after 50 ms to look again.
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
