/**
 * `npm run test:lts`: the CLI's tests (test/component: the CLI, the MCP server and the hook end
 * to end; test/unit/build: the built CLI) on the current Node LTS, which users run beside the
 * Node 20 that `npm run test:unit` runs them on (test/helpers/nodeLts.ts fetches it once).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ltsNode } from './helpers/nodeLts';

const root = path.resolve(__dirname, '..');
const node = ltsNode();
process.stderr.write(`[lts] the CLI's tests on ${spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()} (${node})\n`);
const run = spawnSync(node, [path.join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'), '--config', '.mocharc.lts.json'], { cwd: root, stdio: 'inherit' });
process.exit(run.status ?? 1);
