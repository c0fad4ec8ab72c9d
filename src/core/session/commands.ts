/** The non-test commands a session ran, by kind; read-only ones are left out and not counted, as they say nothing about what changed. */
import type { CommandKind } from '../handoff/draftFields';
import type { SessionCommand } from './events';
import { shellWrites, simpleCommands } from './shellWords';

export type CommandClass = CommandKind | 'read_only';

const QUOTING = /['"\\`#]|\$\(|<</;

/** A line that quotes or substitutes is split by the shell parser (`rg "a|b" src` is one command); others, more cheaply, by separators. */
function segments(command: string): string[] {
  const parsed = QUOTING.test(command) && /[|;&\n]/.test(command) ? simpleCommands(command) : undefined;
  return (parsed ?? command.split(/&&|\|\||[;|\n]|\s&(?=\s|$)/))
    .map((s) =>
      s
        .trim()
        .replace(/^[({]+\s*/, '')
        .replace(/\s*[)}]+$/, ''),
    )
    .filter(Boolean);
}

/** Strips what comes before the program: env assignments, `sudo`, package runners (`npx`, `uv run`, …), a path. */
function bare(segment: string): string {
  let s = segment;
  for (let i = 0; i < 8; i++) {
    const next = s
      .replace(/^(?:[A-Za-z_][\w]*=(?:'[^']*'|"[^"]*"|\S*)\s+)+/, '')
      .replace(/^(?:sudo(?:\s+-\S+)*|time|env|nohup|command|exec|xargs(?:\s+-\S+)*)\s+/, '')
      .replace(/^(?:npx|bunx|pnpx)(?:\s+(?:--yes|-y|--no-install|--package(?:=|\s+)\S+|-p\s+\S+))*\s+/, '')
      .replace(/^(?:pnpm\s+(?:exec|dlx)|yarn\s+(?:dlx|exec)|bun\s+x|uv\s+run|poetry\s+run|pipenv\s+run|bundle\s+exec|hatch\s+run|pdm\s+run)\s+/, '')
      .replace(/^python[\d.]*\s+-m\s+(?=pip\b|alembic\b|django\b|build\b|twine\b)/, '')
      .replace(/^(?:\.{0,2}\/)?(?:[\w.@-]+\/)+(?=[\w.-]+(?:\s|$))/, '');
    if (next === s) break;
    s = next;
  }
  return s.trim();
}

const SCRIPT = String.raw`(?:npm|pnpm|yarn|bun)\s+(?:run(?:-script)?\s+)?`;

/** The first match wins. */
const RULES: Array<[RegExp, CommandKind | 'read_only' | 'neutral']> = [
  [/^(?:cd|pushd|popd|set|export|source|\.|true|:)(?:\s|$)/, 'neutral'],
  // Migrations before builds and scripts: `npm run migrate`, `prisma migrate dev`.
  [new RegExp(String.raw`^${SCRIPT}(?:db:)?migrat\w*|^${SCRIPT}db:(?:push|migrate|rollback|setup|seed)`), 'migration'],
  [/^prisma\s+(?:migrate|db\s+(?:push|seed|execute))\b/, 'migration'],
  [/^alembic\s+(?:upgrade|downgrade|revision|stamp)\b/, 'migration'],
  [/^(?:rails|rake)\s+db:[\w:]+/, 'migration'],
  [/^(?:knex|sequelize(?:-cli)?|typeorm(?:-ts-node-\w+)?)\s+(?:migrate|db:migrate|db:seed|migration:run|migration:revert|seed)[\w:]*/, 'migration'],
  [/^(?:python[\d.]*\s+(?:\S*\/)?manage\.py|django-admin)\s+(?:migrate|makemigrations)\b/, 'migration'],
  [/^(?:flyway|liquibase)\s+(?:\S+\s+)*(?:migrate|update|repair|baseline|undo)\b/, 'migration'],
  [/^drizzle-kit\s+(?:migrate|push|generate)\b/, 'migration'],
  [/^(?:goose|dbmate|migrate)\s+(?:\S+\s+)*(?:up|down|migrate|redo)\b/, 'migration'],
  [
    /^(?:php\s+artisan\s+migrate|mix\s+ecto\.(?:migrate|rollback)|dotnet\s+ef\s+(?:database\s+update|migrations\s+add)|diesel\s+migration|sqlx\s+migrate|supabase\s+(?:db\s+(?:push|reset)|migration))\b/,
    'migration',
  ],
  [new RegExp(String.raw`^${SCRIPT}(?:deploy|release|publish)[\w:.-]*`), 'deploy'],
  [/^vercel(?:\s+(?:deploy|--prod|-p|promote)\b|\s*$)/, 'deploy'],
  [/^(?:netlify|fly|flyctl|serverless|sls|cdk|sam|firebase|eb|wrangler|railway|render)\s+(?:\S+\s+)*?(?:deploy|publish|up)\b/, 'deploy'],
  [/^kubectl\s+(?:apply|create|delete|replace|patch|rollout|scale|set\s+image)\b/, 'deploy'],
  [/^(?:terraform|tofu)\s+(?:-\S+\s+)*(?:apply|destroy|import)\b/, 'deploy'],
  [/^helm\s+(?:upgrade|install|uninstall|rollback)\b/, 'deploy'],
  [/^pulumi\s+(?:up|destroy)\b/, 'deploy'],
  [/^gcloud\s+(?:\S+\s+)*deploy\b|^az\s+(?:\S+\s+)*deploy\b|^heroku\s+(?:container:release|releases:rollback)\b|^ansible-playbook\b/, 'deploy'],
  [
    /^(?:docker|podman)\s+push\b|^(?:npm|pnpm|yarn)\s+publish\b|^cargo\s+publish\b|^twine\s+upload\b|^gh\s+release\s+create\b|^gem\s+push\b|^(?:vsce|ovsx)\s+publish\b/,
    'deploy',
  ],
  [/^(?:npm|pnpm|yarn|bun)\s+(?:install|i|add|ci|remove|rm|uninstall|un|update|upgrade|up|link)\b|^yarn\s*$/, 'install'],
  [
    /^(?:pip[\d.]*|uv\s+pip|pipx|pipenv|conda|mamba)\s+(?:install|uninstall|sync)\b|^uv\s+(?:add|remove|sync|lock)\b|^poetry\s+(?:add|remove|install|update|lock)\b|^pdm\s+(?:add|install|sync)\b/,
    'install',
  ],
  [/^cargo\s+(?:add|remove|install|update)\b|^go\s+(?:get|mod\s+(?:tidy|download|vendor))\b/, 'install'],
  [
    /^(?:gem\s+install|bundle(?:\s+(?:install|add|update))?\s*$|bundle\s+(?:install|add|update)\b|composer\s+(?:install|require|update|remove)|mix\s+deps\.get|dotnet\s+(?:add\s+\S+\s+package|restore)|deno\s+(?:install|add)|swift\s+package\s+resolve)\b/,
    'install',
  ],
  [
    /^(?:apt|apt-get|dnf|yum|zypper|brew|port|choco|winget|scoop)\s+(?:-\S+\s+)*(?:install|remove|purge|upgrade|update|reinstall)\b|^apk\s+(?:add|del)\b|^pacman\s+-S/,
    'install',
  ],
  [new RegExp(String.raw`^${SCRIPT}(?:build|compile|bundle|package|dist|typecheck|tsc)[\w:.-]*`), 'build'],
  [
    /^(?:tsc|esbuild|webpack|rollup|tsup|swc|babel|parcel\s+build|vite\s+build|next\s+build|nuxt\s+(?:build|generate)|ng\s+build|astro\s+build|turbo\s+(?:run\s+)?build|nx\s+(?:run\s+\S*:)?build)\b/,
    'build',
  ],
  [/^(?:make|gmake|cmake|ninja|meson|bazel\s+build|buck2?\s+build|scons|msbuild|xcodebuild)\b/, 'build'],
  [/^cargo\s+(?:\+\S+\s+)?(?:build|b|check|clippy|doc)\b|^go\s+(?:build|install|generate|vet)\b/, 'build'],
  [/^(?:\.\/)?gradlew?\s+(?:-\S+\s+)*(?:\S*:)?(?:build|assemble\w*|jar|bootJar|shadowJar|compile\w*|clean)\b/, 'build'],
  [/^(?:\.\/)?mvnw?\s+(?:-\S+\s+)*(?:\S+:)?(?:package|compile|install|clean|deploy)\b/, 'build'],
  [/^(?:docker|podman)\s+(?:build|buildx\s+build|compose\s+(?:\S+\s+)*build)\b|^docker-compose\s+(?:\S+\s+)*build\b/, 'build'],
  [
    /^(?:dotnet\s+(?:build|publish|pack)|swift\s+build|flutter\s+build|zig\s+build|mix\s+compile|(?:poetry|uv|hatch|pdm)\s+build|build|python[\d.]*\s+(?:\S*\/)?setup\.py\s+(?:build|bdist\w*|sdist|install))\b/,
    'build',
  ],
  [/^(?:gcc|g\+\+|cc|c\+\+|clang(?:\+\+)?|javac|rustc|kotlinc)\s/, 'build'],
  // git: operations that change history (a listing `git tag`, `git stash list` does not).
  [
    /^git\s+(?:-[Cc]\s+\S+\s+|--\S+\s+)*(?:tag|branch)\s*$|^git\s+(?:-[Cc]\s+\S+\s+|--\S+\s+)*(?:tag\s+(?:-l|--list)|stash\s+(?:list|show)|branch\s+(?:-[avr]+|--list|--show-current|--contains))\b/,
    'read_only',
  ],
  [
    /^git\s+(?:-[Cc]\s+\S+\s+|--\S+\s+)*(?:commit|merge|rebase|reset|cherry-pick|revert|push|pull|tag|stash|am|checkout\s+(?:-\S*[bB]\b)|switch\s+(?:-[cC]\b|--create\b|--force-create\b)|branch\s+(?:-[dDmMfc]\b|--delete|--move|--force|--copy))/,
    'git',
  ],
  [
    /^git\s+(?:-[Cc]\s+\S+\s+|--\S+\s+)*(?:status|diff|log|show|blame|branch|remote|rev-parse|rev-list|ls-files|ls-tree|ls-remote|grep|describe|shortlog|reflog|config\s+(?:--get|-l|--list)|cat-file|merge-base|whatchanged|help|version|--version)\b/,
    'read_only',
  ],
  [/^gh\s+(?:issue|pr|repo|run|release|workflow|api)\s+(?:view|list|status|diff|checks|watch)\b|^gh\s+(?:auth\s+status|search)\b/, 'read_only'],
  [/^(?:npm|pnpm|yarn)\s+(?:ls|list|view|info|outdated|why|explain|audit|config\s+get|root|bin|help|-v|--version)\b/, 'read_only'],
  [/^sed\s+(?:-[^i\s-]\S*\s+|--(?!in-place)\S+\s+)*['"]?[^-]|^find\s+(?![^|;&]*\s-(?:delete|exec|execdir|ok|fprint)\b)/, 'read_only'],
  [
    /^(?:ls|ll|la|dir|cat|bat|head|tail|less|more|grep|egrep|fgrep|rg|ag|ack|fd|tree|wc|pwd|echo|printf|which|whereis|type|file|stat|du|df|diff|cmp|jq|yq|awk|sort|uniq|cut|tr|nl|column|realpath|readlink|dirname|basename|date|whoami|id|uname|hostname|printenv|ps|pgrep|top|history|sleep|test|\[|man|tldr|lsof|free|uptime|od|xxd|hexdump|strings|md5sum|sha\d*sum|shasum|seq|yes|clear)(?:\s|$)/,
    'read_only',
  ],
  [
    /^(?:node|python[\d.]*|deno|bun|ruby|go|cargo|rustc|java|dotnet|tsc|npm|pnpm|yarn|pip[\d.]*|docker|kubectl|terraform)\s+(?:--version|-v|-V|version)\s*$/,
    'read_only',
  ],
  // A syntax check only parses: `node --check f.js`, `python -m py_compile f.py`, `bash -n f.sh`, `ruby -c f.rb`, `php -l f.php`.
  [/^(?:node\s+(?:--check|-c)|python[\d.]*\s+-m\s+py_compile|(?:ba|z|da)?sh\s+-n|ruby\s+-c|php\s+-l)\s/, 'read_only'],
];

/** When a line runs several, the most consequential kind names it. */
const PRIORITY: readonly CommandClass[] = ['deploy', 'migration', 'build', 'install', 'git', 'other', 'read_only'];

/** `read_only` only when every part reads and nothing is redirected to a file (`echo x > f` is `other`). */
export function classifyCommand(command: string, writes?: readonly string[]): CommandClass {
  let best: CommandClass | undefined;
  for (const seg of segments(command)) {
    const b = bare(seg);
    if (!b) continue;
    const kind = RULES.find(([re]) => re.test(b))?.[1] ?? 'other';
    if (kind === 'neutral') continue;
    if (best === undefined || PRIORITY.indexOf(kind) < PRIORITY.indexOf(best)) best = kind;
  }
  if (best === undefined || best === 'read_only') {
    return (writes ?? shellWrites(command)).length ? 'other' : 'read_only';
  }
  return best;
}

export function commandResult(c: Pick<SessionCommand, 'exit_code' | 'failed'>): 'succeeded' | 'failed' | 'unknown' {
  const exit = typeof c.exit_code === 'number' && Number.isSafeInteger(c.exit_code) ? c.exit_code : null;
  if (exit === 0) return 'succeeded';
  return exit !== null || c.failed ? 'failed' : 'unknown';
}

/** Runs of one command (same text and folder): the latest run's `exit_code`, `result` and time (`last_at`, null if unrecorded). */
export interface CommandGroup {
  readonly command: string;
  readonly cwd: string | null;
  readonly kind: CommandKind;
  exit_code: number | null;
  result: 'succeeded' | 'failed' | 'unknown';
  count: number;
  failed_count: number;
  last_at: string | null;
  seq: number;
}

/** Beyond this, the least recently run group is dropped (still counted in `seen`). */
export const MAX_COMMAND_GROUPS = 500;

export const MAX_COMMAND_CHARS = 2_000;

/** Cut at the last whitespace, so a secret (one word) is never left half there for the redactor to miss. */
function clipCommand(command: string): string {
  if (command.length <= MAX_COMMAND_CHARS) return command;
  const chars = [...command];
  if (chars.length <= MAX_COMMAND_CHARS) return command;
  const head = chars.slice(0, MAX_COMMAND_CHARS - 1).join('');
  const space = head.search(/\s\S*$/);
  return `${space > 0 ? head.slice(0, space) : head}…`;
}

export class CommandTally {
  private readonly groups = new Map<string, CommandGroup>();
  private seq = 0;
  seen = 0;

  add(c: SessionCommand, writes?: readonly string[]): void {
    if (!c.ran || !c.command.trim()) return;
    const kind = classifyCommand(c.command, writes);
    if (kind === 'read_only') return;
    this.seen++;
    const cwd = c.cwd ?? null;
    const key = `${cwd ?? ''}\u0000${c.command}`;
    const result = commandResult(c);
    const g = this.groups.get(key) ?? { command: clipCommand(c.command), cwd, kind, exit_code: null, result, count: 0, failed_count: 0, last_at: null, seq: 0 };
    g.count++;
    if (result === 'failed') g.failed_count++;
    g.exit_code = typeof c.exit_code === 'number' && Number.isSafeInteger(c.exit_code) ? c.exit_code : null;
    g.result = result;
    g.last_at = c.time ?? g.last_at;
    g.seq = this.seq++;
    // Re-insert: the Map's first key is then the least recently run group.
    this.groups.delete(key);
    this.groups.set(key, g);
    if (this.groups.size > MAX_COMMAND_GROUPS) this.groups.delete(this.groups.keys().next().value as string);
  }

  list(): CommandGroup[] {
    return [...this.groups.values()].map((g) => ({ ...g }));
  }
}
