// Streaming reads of JSON documents that are one big array (Cline's `ui_messages.json`, a Copilot Chat session's
// `requests`): one element at a time, memory bounded by the largest element.
import { openRegularForReading } from './lines';

/**
 * The array at `path` (`[]`: the top level; `['requests']`: the top-level object's `requests`); `onItem` returns false to stop.
 * @returns how many elements were read
 * @throws when the file cannot be read or is not valid JSON (after the elements read so far)
 */
export async function forEachJsonArrayItem(file: string, path: readonly string[], onItem: (item: unknown, index: number) => boolean | void): Promise<number> {
  const [{ parser }, { streamArray }, { pick }, { chain }] = await Promise.all([
    import('stream-json'),
    import('stream-json/streamers/stream-array.js'),
    import('stream-json/filters/pick.js'),
    import('stream-chain'),
  ]);
  const fh = await openRegularForReading(file);
  const stages: unknown[] = [fh.createReadStream({ highWaterMark: 256 * 1024 }), parser()];
  if (path.length) {
    stages.push(pick({ filter: path.join('.') }));
  }
  stages.push(streamArray());
  const pipeline = chain(stages as Parameters<typeof chain>[0]);
  let n = 0;
  await new Promise<void>((resolve, reject) => {
    pipeline.on('data', (d: { key: number; value: unknown }) => {
      if (onItem(d.value, n++) === false) {
        pipeline.destroy();
        void fh.close().catch(() => undefined);
        resolve();
      }
    });
    pipeline.on('end', () => resolve());
    pipeline.on('error', (err: Error) => reject(err));
  });
  return n;
}

/**
 * Streamed: the parse stops once the value at `path` is read. Undefined when there is none.
 * @throws when the file cannot be read or is not valid JSON up to that value
 */
export async function readJsonValueAt(file: string, path: readonly string[]): Promise<unknown> {
  const [{ parser }, { streamValues }, { pick }, { chain }] = await Promise.all([
    import('stream-json'),
    import('stream-json/streamers/stream-values.js'),
    import('stream-json/filters/pick.js'),
    import('stream-chain'),
  ]);
  const fh = await openRegularForReading(file);
  const pipeline = chain([fh.createReadStream({ highWaterMark: 64 * 1024 }), parser(), pick({ filter: path.join('.') }), streamValues()] as Parameters<
    typeof chain
  >[0]);
  return new Promise<unknown>((resolve, reject) => {
    let found = false;
    pipeline.on('data', (d: { value: unknown }) => {
      if (found) return;
      found = true;
      pipeline.destroy();
      void fh.close().catch(() => undefined);
      resolve(d.value);
    });
    pipeline.on('end', () => resolve(undefined));
    pipeline.on('error', (err: Error) => (found ? undefined : reject(err)));
  });
}
