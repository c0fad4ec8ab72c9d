/** The CLI bundle's entry (dist/cli-main.js, which the executable dist/cli.js loads: src/cli/launch.ts). */
import { runProcess } from './main';

runProcess();
