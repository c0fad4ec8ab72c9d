/**
 * Switches zod's JIT off for this process unless it runs the MCP server (`mcp`, which lives as
 * long as its client): imported first by the CLI's entry (src/cli/bin.ts), for its effect, so
 * that the switch is set before any module that builds a schema is evaluated — zod reads it as
 * each schema is built (switched off in src/cli/main.ts, after the modules had built theirs,
 * a handover still generated three parsers while zod's `config()` said jitless; issue 19).
 *
 * A command parses each schema once or a few times, then exits: the JIT (a parser generated per
 * object schema with `new Function` on its first parse, which V8 then compiles, outside the
 * code cache) costs more than it saves there. Hook medians 229 -> 224 ms (21 interleaved runs).
 * test/unit/build/launcher.test.ts counts the parsers a command generates. Running
 * src/cli/main.ts itself (`node --require tsx/cjs src/cli/main.ts`) skips this, with the rest
 * of bin.ts's head start: zod then parses with its JIT, as in the extension.
 */
import { config } from 'zod';
import { isLongLived } from './headStart';

if (!isLongLived(process.argv.slice(2))) config({ jitless: true });
