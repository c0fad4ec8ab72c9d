// An agent hook's log (docs/DESIGN.md §6): JSON Lines appended one whole line at a time under the file's lock, so hooks
// Cascade runs side by side never interleave, and never past a size bound. Outside the repository: the CLI's state folder.
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { withFileLock } from './fileLock';
import { StoreError, describeFsError } from './safeWrite';

export type HookLogAppend = { readonly status: 'appended'; readonly bytes: number } | { readonly status: 'full'; readonly size: number };

/**
 * Appends `line` (one JSON line ending in `\n`) to `file`, made private (0600, its folder 0700), unless the file would
 * pass `maxBytes`. @throws StoreError naming the file when the folder or file cannot be written
 */
export async function appendHookLogLine(file: string, line: string, maxBytes: number): Promise<HookLogAppend> {
  if (!line.endsWith('\n') || line.indexOf('\n') !== line.length - 1) throw new Error('a hook log line is one line ending in a line feed');
  const bytes = Buffer.from(line, 'utf8');
  try {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new StoreError(describeFsError(err, path.dirname(file)));
  }
  return withFileLock(file, async (assertHeld) => {
    let fh;
    try {
      fh = await open(file, 'a', 0o600);
    } catch (err) {
      throw new StoreError(describeFsError(err, file));
    }
    try {
      const { size } = await fh.stat();
      if (size + bytes.length > maxBytes) return { status: 'full', size };
      assertHeld();
      // One write of the whole line on an append-mode descriptor: a reader sees the line whole or not at all.
      await fh.write(bytes, 0, bytes.length);
      return { status: 'appended', bytes: bytes.length };
    } catch (err) {
      if (err instanceof StoreError) throw err;
      throw new StoreError(describeFsError(err, file));
    } finally {
      await fh.close().catch(() => undefined);
    }
  });
}
