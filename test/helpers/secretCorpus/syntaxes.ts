/**
 * The places a secret is written in (issue 14): shell, `.env`, JSON, YAML, TOML, INI, XML,
 * Go, Python, Java (code and `.properties`), PHP, Ruby, TypeScript, PowerShell, SQL,
 * Makefile, `curl`, a unified diff, a Claude Code transcript line and command lines
 * (`--token`, `-p…`, `docker run -e`, `kubectl --from-literal`, `helm --set`, `terraform -var`),
 * credential files (`.npmrc`, `.netrc`, `.pgpass`), a logged Python dict and a sentence in a chat turn. Each renders a {@link CorpusKey} the way that language or tool
 * writes it — assignment operators of every kind (`=`, `:=`, `?=`, `::=`, `.=`, `=>`),
 * quoting and escaping as the syntax requires, multi-line documents in the syntax's own
 * multi-line form.
 */
import type { CorpusKey, KeyShape, Syntax } from './types';

/** `OPENAI_API_KEY`, `client-key-data`, `apiSecret` → `OPENAI_API_KEY`, `CLIENT_KEY_DATA`, `API_SECRET`. */
export function envName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase();
}

/** `OPENAI_API_KEY` → `openaiApiKey` (Go, Java, PHP, XML element names). */
export function camelName(name: string): string {
  const [first, ...rest] = envName(name).toLowerCase().split('_');
  return first + rest.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

/** `OPENAI_API_KEY` → `openai_api_key` (Python, TOML, Ruby). */
const snakeName = (name: string) => envName(name).toLowerCase();

const isDoc = (k: CorpusKey) => k.shape === 'doc';
/** A double-quoted string body with `\` and `"` escaped and line breaks as `\n` (JSON, Java, Go). */
const escaped = (v: string) => JSON.stringify(v).slice(1, -1);
const xmlText = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const indent = (v: string, by: string) => v.split('\n').map((l) => by + l).join('\n');

const ALL: readonly KeyShape[] = ['line', 'url', 'doc'];
const ONE_LINE: readonly KeyShape[] = ['line', 'url'];
const TOKEN: readonly KeyShape[] = ['line'];

/** Every syntax, with the shapes each carries. */
export const SYNTAXES: readonly Syntax[] = [
  { id: 'shell-export', shapes: ALL, render: (k) => `export ${envName(k.name)}="${k.value}"` },
  { id: 'dotenv', shapes: ALL, render: (k) => (isDoc(k) ? `${envName(k.name)}="${k.value.replace(/\n/g, '\\n')}"` : `${envName(k.name)}=${k.value}`) },
  { id: 'json', shapes: ALL, render: (k) => (k.value.startsWith('{') ? k.value : `{\n  "name": "deploy",\n  "${k.name}": ${JSON.stringify(k.value)}\n}`) },
  { id: 'yaml', shapes: ALL, render: (k) => (isDoc(k) ? `env:\n  ${k.name}: |\n${indent(k.value, '    ')}` : `env:\n  ${k.name}: ${k.value}`) },
  { id: 'toml', shapes: ALL, render: (k) => (isDoc(k) ? `[secrets]\n${snakeName(k.name)} = """\n${k.value}\n"""` : `[secrets]\n${snakeName(k.name)} = "${k.value}"`) },
  { id: 'xml', shapes: ALL, render: (k) => `<settings>\n  <${camelName(k.name)}>${xmlText(k.value)}</${camelName(k.name)}>\n</settings>` },
  { id: 'go-var', shapes: ALL, render: (k) => (isDoc(k) ? `var ${camelName(k.name)} string = \`${k.value}\`` : `var ${camelName(k.name)} string = "${k.value}"`) },
  { id: 'go-short', shapes: ALL, render: (k) => (isDoc(k) ? `${camelName(k.name)} := \`${k.value}\`` : `\t${camelName(k.name)} := "${k.value}"`) },
  { id: 'python', shapes: ALL, render: (k) => (isDoc(k) ? `${snakeName(k.name)} = """${k.value}"""` : `${snakeName(k.name)} = "${k.value}"`) },
  { id: 'java', shapes: ALL, render: (k) => `System.setProperty("${envName(k.name)}", "${escaped(k.value)}");` },
  { id: 'php-assign', shapes: ALL, render: (k) => `$${camelName(k.name)} = '${k.value}';` },
  { id: 'php-concat', shapes: ALL, render: (k) => `$${camelName(k.name)} = '';\n$${camelName(k.name)} .= '${k.value}';` },
  { id: 'ruby-hash', shapes: ALL, render: (k) => `config = {\n  '${snakeName(k.name)}' => '${k.value}',\n}` },
  { id: 'make-conditional', shapes: ONE_LINE, render: (k) => `${envName(k.name)} ?= ${k.value}` },
  { id: 'make-simple', shapes: ONE_LINE, render: (k) => `${envName(k.name)} := ${k.value}` },
  { id: 'make-posix', shapes: ONE_LINE, render: (k) => `${envName(k.name)} ::= ${k.value}` },
  { id: 'curl-bearer', shapes: ONE_LINE, render: (k) => (k.shape === 'url' ? `curl -fsSL "${k.value}"` : `curl -sS -H "Authorization: Bearer ${k.value}" https://api.example.com/v1/models`) },
  { id: 'curl-user', shapes: TOKEN, render: (k) => `curl -u deploy:${k.value} https://uploads.example.com/v1/files` },
  { id: 'query-key', shapes: TOKEN, render: (k) => `GET https://api.example.com/v1/search?key=${encodeURIComponent(k.value)}&q=weather` },
  {
    id: 'diff',
    shapes: ALL,
    render: (k) =>
      isDoc(k)
        ? `diff --git a/deploy/key b/deploy/key\nnew file mode 100644\n--- /dev/null\n+++ b/deploy/key\n@@ -0,0 +1,${k.value.split('\n').length} @@\n${indent(k.value, '+')}`
        : `diff --git a/.env b/.env\n--- a/.env\n+++ b/.env\n@@ -1,2 +1,2 @@\n LOG_LEVEL=info\n-${envName(k.name)}=\n+${envName(k.name)}=${k.value}`,
  },
  {
    id: 'transcript',
    shapes: ALL,
    render: (k) =>
      JSON.stringify({
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01Xy', content: isDoc(k) ? `$ cat deploy/key\n${k.value}\n` : `$ cat .env\nLOG_LEVEL=info\n${envName(k.name)}=${k.value}\n`, is_error: false }] },
        timestamp: '2026-11-30T10:00:00.000Z',
      }),
  },
  { id: 'cli-flag', shapes: ALL, render: (k) => (k.shape === 'url' ? `pg_dump --dbname="${k.value}" --file backup.sql` : k.shape === 'doc' ? `gh secret set DEPLOY_KEY --body "${k.value}"` : `vercel deploy --prod --token ${k.value}`) },
  { id: 'docker-login', shapes: TOKEN, render: (k) => `docker login -u deploy -p ${k.value} registry.example.com` },
  { id: 'mysql-p', shapes: TOKEN, render: (k) => `mysql -h db.example.com -u root -p${k.value} orders` },
  { id: 'curl-x-api-key', shapes: TOKEN, render: (k) => `curl https://api.example.com/v1/messages -H "x-api-key: ${k.value}" -H "content-type: application/json"` },
  { id: 'powershell', shapes: ALL, render: (k) => (isDoc(k) ? `$env:${envName(k.name)} = @"\n${k.value}\n"@` : `$env:${envName(k.name)} = "${k.value}"`) },
  { id: 'ts-object', shapes: ALL, render: (k) => (isDoc(k) ? `export const config = {\n  ${camelName(k.name)}: \`${k.value}\`,\n};` : `export const config = {\n  ${camelName(k.name)}: '${k.value}',\n};`) },
  { id: 'ini', shapes: ONE_LINE, render: (k) => `[default]\n${snakeName(k.name)} = ${k.value}` },
  { id: 'java-properties', shapes: ONE_LINE, render: (k) => `${snakeName(k.name).replace(/_/g, '.')}=${k.value}` },
  { id: 'docker-env', shapes: ONE_LINE, render: (k) => `docker run --rm -e ${envName(k.name)}=${k.value} ghcr.io/acme/api:1.4.2` },
  { id: 'kubectl-literal', shapes: ONE_LINE, render: (k) => `kubectl create secret generic app-secrets --from-literal=${snakeName(k.name)}=${k.value}` },
  { id: 'helm-set', shapes: ONE_LINE, render: (k) => `helm upgrade --install api ./chart --set secrets.${camelName(k.name)}=${k.value}` },
  { id: 'terraform-var', shapes: ONE_LINE, render: (k) => `terraform apply -var "${snakeName(k.name)}=${k.value}"` },
  { id: 'sql-password', shapes: TOKEN, render: (k) => `ALTER USER app_user WITH PASSWORD '${k.value}';` },
  { id: 'python-dict', shapes: ONE_LINE, render: (k) => `INFO settings loaded: {'region': 'eu-west-1', '${snakeName(k.name)}': '${k.value}', 'debug': False}` },
  { id: 'compose-env', shapes: ONE_LINE, render: (k) => `services:\n  api:\n    environment:\n      - ${envName(k.name)}=${k.value}` },
  { id: 'npmrc', shapes: TOKEN, render: (k) => `//npm.pkg.example.com/:_authToken=${k.value}` },
  { id: 'netrc', shapes: TOKEN, render: (k) => `machine api.example.com login deploy password ${k.value}` },
  { id: 'pgpass', shapes: TOKEN, render: (k) => `db.internal.example.com:5432:orders:app_user:${k.value}` },
  { id: 'prose', shapes: ONE_LINE, render: (k) => `Sure — my ${envName(k.name)} is ${k.value} if you need it for the deploy.` },
  { id: 'az-login', shapes: TOKEN, render: (k) => `az login --service-principal -u 0f3e2d1c-aaaa-4bbb-8ccc-123456789abc -p ${k.value} --tenant contoso.onmicrosoft.com` },
  { id: 'aws-configure', shapes: TOKEN, render: (k) => `aws configure set aws_secret_access_key ${k.value}` },
];
