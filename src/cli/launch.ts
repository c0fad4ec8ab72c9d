/**
 * dist/cli.js, the `specialist-handoff` executable (esbuild.mjs launcherBuild): it loads
 * dist/cli-main.js (src/cli/bin.ts, the whole CLI) with V8's code cache, so a command does not
 * compile the 900 KB bundle, and the functions its start runs, anew each time (issue 19: a
 * hook runs under a time limit). The bundle must be compiled after the cache is switched on,
 * hence this separate file. Before that, a subcommand that counts tokens starts its tokenizer
 * on a worker thread (src/engine/tokenizer.ts `startEncodingForLater`, which the bundle takes
 * over): loading the rank tables is the longest single task of a small `hook` or `handover`,
 * and reading and compiling the bundle would delay its start by 30–50 ms.
 *
 * - Node ≥ 22.1: Node's own module compile cache (`module.enableCompileCache()`, in
 *   `NODE_COMPILE_CACHE` or os.tmpdir()/node-compile-cache; Node checks each entry against
 *   the module's source and its own version, and `NODE_DISABLE_COMPILE_CACHE=1` turns it off;
 *   Node keeps one entry per file, so every subcommand shares it).
 * - Older Node (20, which `engines` allows): the same thing by hand, for this one file. The
 *   bundle is compiled with `vm.Script` and the code V8 produced for it is kept in
 *   `<os.tmpdir()>/specialist-handoff-code-cache-<uid>/<sha256 of the source, Node's version,
 *   architecture and the bundle's path>-<subcommand>.bin` (V8 keeps the file name the code was
 *   first compiled under: an entry shared by two copies of one bundle gave the second copy's
 *   stack traces the first's path; and an entry holds the functions its writer ran, so each
 *   subcommand has its own, src/cli/headStart.ts `cacheNameOf`: a hook that read the entry a
 *   `handover` wrote compiled the rest of its functions every run, ~6 ms, issue 19): a changed
 *   bundle or another Node never reads a stale entry (V8 also
 *   refuses data of another version or other flags: the bundle is then compiled from source
 *   and the entry written again). The folder is made private (0700) and used only when it is
 *   a directory of ours that nobody else can write (os.tmpdir() is shared); the entry is
 *   written once per bundle, as the first process exits (after its start has compiled what a
 *   command runs), to a temporary name then renamed, so a concurrent process never reads half
 *   a file; entries older than a week are removed then (other bundles' — another install, an
 *   older version — are kept meanwhile: two installs in use never evict each other, and one
 *   in use pays one compile a week at most). `NODE_DISABLE_COMPILE_CACHE=1` turns
 *   it off too. Any failure of the cache only means compiling from source, as before.
 */
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';
import type { TokenEncoding } from '../core/handoff/tokens';
import { startEncodingForLater } from '../engine/tokenizer';
import { cacheNameOf, countsTokens, gcFlags, tokenizerGuess } from './headStart';

/** The bundle this file loads, beside it. */
const MAIN = path.join(__dirname, 'cli-main.js');
/** Age (ms) after which another bundle's cache entry is removed as a new one is written: a week. */
const STALE_ENTRY_MS = 7 * 24 * 3600 * 1000;

/**
 * The folder of the hand-made code cache for this user, created private if missing, or
 * `undefined` when it cannot be trusted (not a directory of ours, or writable by others).
 */
function codeCacheDir(base = tmpdir()): string | undefined {
  const uid = process.getuid?.();
  const dir = path.join(base, `specialist-handoff-code-cache-${uid ?? 'user'}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory()) return undefined;
    // POSIX: ours and private (Windows' temporary folder is the user's own).
    if (uid !== undefined && (st.uid !== uid || (st.mode & 0o077) !== 0)) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

/**
 * Compiles and runs dist/cli-main.js with the hand-made code cache (Node without
 * `enableCompileCache`), the entry of the subcommand `command` ({@link cacheNameOf}).
 */
function runWithCodeCache(command: string): void {
  // The bytes are hashed as read: hashing the decoded string would encode its 0.9 MB to UTF-8 again.
  const bytes = readFileSync(MAIN);
  const source = bytes.toString('utf8');
  const dir = process.env.NODE_DISABLE_COMPILE_CACHE ? undefined : codeCacheDir();
  const name = `${createHash('sha256').update(bytes).update(`\0${process.version}\0${process.arch}\0${MAIN}`).digest('hex').slice(0, 40)}-${command}.bin`;
  let cachedData: Buffer | undefined;
  if (dir) {
    try {
      cachedData = readFileSync(path.join(dir, name));
    } catch {
      // none yet
    }
  }
  const script = new Script(Module.wrap(source), { filename: MAIN, cachedData });
  if (dir && (!cachedData || script.cachedDataRejected)) {
    process.once('exit', () => {
      try {
        const temporary = path.join(dir, `${name}.${process.pid}.tmp`);
        writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
        renameSync(temporary, path.join(dir, name));
        for (const other of readdirSync(dir)) {
          const file = path.join(dir, other);
          if (other !== name && Date.now() - statSync(file).mtimeMs > STALE_ENTRY_MS) rmSync(file, { force: true });
        }
      } catch {
        // the next process compiles from source again
      }
    });
  }
  const mainModule = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void)(mainModule.exports, createRequire(MAIN), mainModule, MAIN, __dirname);
}

// Before anything is allocated or compiled (V8 reads these flags from here on; the code cache
// is produced and checked under the same flags each time): see gcFlags.
for (const flag of gcFlags(availableParallelism())) setFlagsFromString(flag);

// A subcommand that counts tokens starts its tokenizer on a worker thread first of all, before
// the bundle is read and compiled: the rank tables take longer to load than anything the
// command does before its first count (issue 19: a hook's main thread waited 10-60 ms for them).
// The bundle's src/engine/tokenizer.ts takes this encoding over (src/cli/bin.ts).
const argv = process.argv.slice(2);
if (countsTokens(argv)) {
  const name = tokenizerGuess(argv);
  const file = path.join(__dirname, 'tokenizers', `${name}.js`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the in-process fallback, the same file
  startEncodingForLater(name, file, () => require(file) as TokenEncoding);
}

const enableCompileCache = (Module as { enableCompileCache?: () => unknown }).enableCompileCache;
if (typeof enableCompileCache === 'function') {
  enableCompileCache();
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- compiled after the cache is on, on purpose
  require('./cli-main.js');
} else {
  runWithCodeCache(cacheNameOf(argv));
}
