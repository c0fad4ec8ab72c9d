/**
 * Issue 15: what a non-test command does, by its first words — read from real command lines (the
 * commands of ../shared/fixtures/session-logs and of this repository's own work) and the tools'
 * documented command lines — and repeated runs grouped with their latest exit code.
 */
import assert from 'node:assert/strict';
import { classifyCommand, CommandTally, commandResult, MAX_COMMAND_CHARS, MAX_COMMAND_GROUPS, type CommandClass } from '../../../../src/core/session/commands';
import type { SessionCommand } from '../../../../src/core/session/events';

const CASES: Array<[string, CommandClass]> = [
  // Real commands of the shared fixtures (Claude Code, Codex, Cline, Aider).
  ['ls docs/ docs/specs/ docs/specs/architecture/ docs/knowledge/ docs/knowledge/architecture/ 2>&1 | head -100', 'read_only'],
  ['ls internal/relay/ cmd/ 2>&1', 'read_only'],
  ['gh issue view 15 --json labels,title,number,state 2>&1', 'read_only'],
  ['cat docs/threat-model.md 2>&1 | head -80', 'read_only'],
  ['git diff --name-only origin/main...origin/feature/5 2>&1', 'read_only'],
  ["gh issue view 5 --json title,number,labels 2>&1; echo '---'; gh issue list --search 'split from #4' --state all --json number,title 2>&1", 'read_only'],
  ['git add docs/specs/architecture/15-wsconn-adapter.md && git commit -m "spec: WSConn adapter for nhooyr.io/websocket (#15)" 2>&1', 'git'],
  ["git fetch origin --prune --quiet && git branch -r | grep -E 'origin/feature/[0-9]+$' 2>&1", 'other'],
  ['python /tmp/decorator_example.py', 'other'],
  ["echo 'Hello World' > test.txt", 'other'],
  ['cat test.txt', 'read_only'],
  ['rm test.txt', 'other'],
  ['find . -maxdepth 1 -type f', 'read_only'],
  ['mkdir data', 'other'],
  ['cd /workspaces/Online-Card-Architecture/golden_tests && dotnet run --configuration Release', 'other'],
  // Read-only commands an agent runs all the time.
  ["sed -n '1,120p' src/core/session/events.ts", 'read_only'],
  ["sed -i 's/old/new/' src/a.ts", 'other'],
  ['rg -n "userRequestText" src', 'read_only'],
  ['git status --short', 'read_only'],
  ['git log --oneline | head -5', 'read_only'],
  ['git tag', 'read_only'],
  ['git stash list', 'read_only'],
  ['find . -name "*.orig" -delete', 'other'],
  ['wc -l src/evidence/session/*.ts src/core/session/*.ts', 'read_only'],
  // build
  ['npm run build', 'build'],
  ['cd webview && pnpm build', 'build'],
  ['yarn build:prod', 'build'],
  ['npx tsc --noEmit -p .', 'build'],
  ['./node_modules/.bin/tsc -p tsconfig.json', 'build'],
  ['make -j4', 'build'],
  ['cargo build --release', 'build'],
  ['go build ./...', 'build'],
  ['./gradlew assembleDebug', 'build'],
  ['mvn -B package -DskipTests', 'build'],
  ['docker build -t app:latest .', 'build'],
  ['docker compose -f compose.yml build', 'build'],
  ['dotnet publish -c Release', 'build'],
  ['python -m build', 'build'],
  ['npm run build 2>&1 | tail -20', 'build'],
  // install
  ['npm ci', 'install'],
  ['npm install --save-dev zod@4', 'install'],
  ['pnpm add -D vitest', 'install'],
  ['yarn', 'install'],
  ['pip install -r requirements.txt', 'install'],
  ['python3 -m pip install -e .', 'install'],
  ['poetry add httpx', 'install'],
  ['uv add ruff', 'install'],
  ['cargo add serde --features derive', 'install'],
  ['go mod tidy', 'install'],
  ['sudo apt-get install -y jq', 'install'],
  ['bundle install', 'install'],
  ['composer require laravel/sanctum', 'install'],
  // migration
  ['npx prisma migrate dev --name init', 'migration'],
  ['pnpm exec prisma migrate deploy', 'migration'],
  ['alembic upgrade head', 'migration'],
  ['bin/rails db:migrate', 'migration'],
  ['bundle exec rake db:migrate', 'migration'],
  ['npx knex migrate:latest', 'migration'],
  ['python manage.py migrate', 'migration'],
  ['npx sequelize-cli db:migrate', 'migration'],
  ['flyway -url=jdbc:postgresql://localhost/app migrate', 'migration'],
  ['npx drizzle-kit push', 'migration'],
  ['php artisan migrate --force', 'migration'],
  ['dotnet ef database update', 'migration'],
  ['npm run migrate', 'migration'],
  // deploy
  ['vercel --prod', 'deploy'],
  ['vercel', 'deploy'],
  ['netlify deploy --prod --dir=dist', 'deploy'],
  ['fly deploy', 'deploy'],
  ['kubectl apply -f k8s/', 'deploy'],
  ['terraform apply -auto-approve', 'deploy'],
  ['helm upgrade --install app ./chart', 'deploy'],
  ['serverless deploy --stage prod', 'deploy'],
  ['npx cdk deploy', 'deploy'],
  ['firebase deploy --only hosting', 'deploy'],
  ['gcloud run deploy api --source .', 'deploy'],
  ['npx wrangler deploy', 'deploy'],
  ['npm publish --access public', 'deploy'],
  ['npm run build && vercel --prod', 'deploy'],
  // git operations that change history
  ['git commit -m "Fix the parser"', 'git'],
  ['git merge --no-ff feature/x', 'git'],
  ['git rebase -i HEAD~3', 'git'],
  ['git reset --hard HEAD~1', 'git'],
  ['git cherry-pick abc1234', 'git'],
  ['git revert HEAD', 'git'],
  ['git push origin main', 'git'],
  ['git tag v1.2.0', 'git'],
  ['git stash', 'git'],
  ['git stash pop', 'git'],
  ['git am 0001-fix.patch', 'git'],
  ['git checkout -b feature/requests', 'git'],
  ['git switch -c wt-requests', 'git'],
  ['git -C /work/wt/requests commit -qm "x"', 'git'],
  ['git checkout src/a.ts', 'other'],
  ['git add src/a.ts', 'other'],
  // Separators inside quotes, heredocs and loops are text, not separators: real command lines of
  // the real corpora (real-logs codex/rtchess, cline/agentlogs-add-cline-plugin-task, codex/agentlogs-images,
  // specstory getspecstory-2026-02-20, getspecstory-2026-01-28, claude-code/claude-reliability-python-to-rust-port).
  ['rg "playerSide|aiSide|difficulty" *.js', 'read_only'],
  ['rg \'"role":"assistant"\' exported-session.jsonl | head', 'read_only'],
  ['rg "Prompt #1:" -n -C 2 prompt_history.md | head', 'read_only'],
  ['node --check index.js', 'read_only'],
  [
    "cat /Users/user/.cline/data/tasks/1770913324799/api_conversation_history.json | jq '.[0:4] | .[] | {role, content_types: [.content[]?.type], model: .modelInfo?.modelId, metrics: .metrics}' 2>/dev/null",
    'read_only',
  ],
  ['rg -n "Agent Usage|Claude Code|Codex CLI|OpenCode" -S packages', 'read_only'],
  [
    'rg -n "^#|^##|Attribution Map|Exchange Record|Flow A|Flow B|Flow C|Pros And Cons" docs/git-provenance/RECOMMENDATIONS.md && wc -l docs/git-provenance/RECOMMENDATIONS.md',
    'read_only',
  ],
  ['for f in docs/git-provenance/standards/*.md; do echo "===== $f ====="; cat "$f"; echo; done', 'read_only'],
  [
    'ls -la /Users/user/Source/SpecStory/getspecstory/.github/workflows/ 2>/dev/null || echo "Not found"; ls -la /Users/user/Source/SpecStory/getspecstory/ | head -20',
    'read_only',
  ],
  ['find /tmp/tmpqwh7888i -type f \\( -name "*.rs" -o -name "Cargo.toml" -o -name "Justfile" -o -name ".gitignore" \\) | head -20', 'read_only'],
  // …and what such a line runs still counts: a commit whose heredoc message holds "|" and ";", a write in quotes.
  [
    'git add -A && git commit -m "$(cat <<\'EOF\'\nPort the parser | keep the API; drop Python\n\nCo-Authored-By: Claude Opus 4.5 <noreply@anthropic.com>\nEOF\n)"',
    'git',
  ],
  ['cd "C:\\Users\\user\\Documents\\Cline\\MCP\\vscode-commands-server"; npm install', 'install'],
  ['rg "a|b" src && npm run build', 'build'],
  ['echo "a;b" > out.txt', 'other'],
  ["python - <<'PY'\nimport shutil\nshutil.copy('a.py', 'b.py') # a | b; c\nPY", 'other'],
];

describe('commands run beside tests: classification and grouping (issue 15)', () => {
  for (const [command, kind] of CASES) {
    it(`${kind}: ${command}`, () => assert.equal(classifyCommand(command), kind));
  }

  it("a run's result: exit 0 succeeded, another exit code or a failure without one failed, else unknown", () => {
    assert.equal(commandResult({ exit_code: 0 }), 'succeeded');
    assert.equal(commandResult({ exit_code: 2 }), 'failed');
    assert.equal(commandResult({ exit_code: null, failed: true }), 'failed');
    assert.equal(commandResult({ exit_code: null }), 'unknown');
  });

  it('groups repeated runs by text and folder: count, failures, the latest exit code and time; read-only and rejected runs left out', () => {
    const t = new CommandTally();
    const run = (command: string, exit_code: number | null, time: string, cwd: string | null = '/ws', ran = true): SessionCommand => ({
      kind: 'command',
      command,
      cwd,
      exit_code,
      ran,
      time,
    });
    t.add(run('npm run build', 2, '2026-03-10T09:00:01Z'));
    t.add(run('git status', 0, '2026-03-10T09:00:02Z'));
    t.add(run('npm run build', 0, '2026-03-10T09:00:03Z'));
    t.add(run('npm run build', 1, '2026-03-10T09:00:04Z', '/ws/webview'));
    t.add(run('git push', null, '2026-03-10T09:00:05Z', '/ws', false));
    assert.deepEqual(
      t.list().map((g) => [g.command, g.cwd, g.kind, g.exit_code, g.result, g.count, g.failed_count, g.last_at]),
      [
        ['npm run build', '/ws', 'build', 0, 'succeeded', 2, 1, '2026-03-10T09:00:03Z'],
        ['npm run build', '/ws/webview', 'build', 1, 'failed', 1, 1, '2026-03-10T09:00:04Z'],
      ],
    );
    assert.equal(t.seen, 3);
  });

  it(`keeps at most ${MAX_COMMAND_GROUPS} groups, dropping the least recently run, and still counts every run`, () => {
    const t = new CommandTally();
    for (let i = 0; i < MAX_COMMAND_GROUPS + 10; i++) t.add({ kind: 'command', command: `make target${i}`, exit_code: 0, ran: true });
    t.add({ kind: 'command', command: 'make target0', exit_code: 0, ran: true });
    const list = t.list();
    assert.equal(list.length, MAX_COMMAND_GROUPS);
    assert.equal(list.at(-1)?.command, 'make target0');
    assert.ok(!list.some((g) => g.command === 'make target1'));
    assert.equal(t.seen, MAX_COMMAND_GROUPS + 11);
  });

  it(`a command line over ${MAX_COMMAND_CHARS} characters is kept cut with "…" (a 100 KB line once cost the handoff every other command when fit to budget)`, () => {
    const t = new CommandTally();
    const long = `git push origin main ${'y'.repeat(100_000)}`;
    t.add({ kind: 'command', command: long, exit_code: 1, ran: true });
    t.add({ kind: 'command', command: `${long}z`, exit_code: 0, ran: true });
    const list = t.list();
    assert.equal(list.length, 2, 'still grouped by the whole command line');
    for (const g of list) {
      assert.equal(g.command, 'git push origin main…', 'cut at the last space: the long word is not left half there');
      assert.equal(g.kind, 'git');
    }
    const word = new CommandTally();
    word.add({ kind: 'command', command: `curl ${'x'.repeat(3_000)} https://example.com`, exit_code: 0, ran: true });
    assert.equal(word.list()[0].command, 'curl…');
    const one = new CommandTally();
    one.add({ kind: 'command', command: `./build.sh${'😀'.repeat(3_000)}`, exit_code: 0, ran: true });
    const cut = one.list()[0].command;
    assert.equal([...cut].length, MAX_COMMAND_CHARS, 'one word: cut hard, by code points (no half emoji)');
    assert.ok(cut.endsWith('😀…'));
  });
});
