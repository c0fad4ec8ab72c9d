/**
 * A dist/ folder built with esbuild.mjs's options into a temporary folder (the build tests):
 * the executable dist/cli.js (src/cli/launch.ts), the CLI bundle dist/cli-main.js, the vendor
 * files and the tokenizers, laid out as `npm run build` lays them out.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { tempDir } from './repo';

/** The repository's root. */
export const ROOT = path.resolve(__dirname, '..', '..');

/**
 * Builds the CLI (launcher and bundle), the vendor files and the tokenizers into a new
 * temporary folder (removed by `cleanupTempDirs`).
 * @returns the folder, esbuild.mjs's VENDOR table (module → dist/vendor/<file>.js) and CLI_BUNDLED (the VENDOR modules dist/cli-main.js carries itself)
 */
export async function buildDist(): Promise<{ dist: string; builds: { VENDOR: Record<string, string>; CLI_BUNDLED: ReadonlySet<string> } }> {
  type Build = esbuild.BuildOptions;
  const builds = (await import(pathToFileURL(path.join(ROOT, 'esbuild.mjs')).href)) as {
    cliBuild: Build;
    launcherBuild: Build;
    vendorBuild: Build;
    tokenizersBuild: Build;
    VENDOR: Record<string, string>;
    CLI_BUNDLED: ReadonlySet<string>;
  };
  const dist = tempDir('handoff-dist-');
  await Promise.all([
    esbuild.build({ ...builds.launcherBuild, absWorkingDir: ROOT, outfile: path.join(dist, 'cli.js'), logLevel: 'error' }),
    esbuild.build({ ...builds.cliBuild, absWorkingDir: ROOT, outfile: path.join(dist, 'cli-main.js'), logLevel: 'error' }),
    esbuild.build({ ...builds.vendorBuild, absWorkingDir: ROOT, outdir: path.join(dist, 'vendor'), logLevel: 'error' }),
    esbuild.build({ ...builds.tokenizersBuild, absWorkingDir: ROOT, outdir: path.join(dist, 'tokenizers'), logLevel: 'error' }),
  ]);
  return { dist, builds };
}
