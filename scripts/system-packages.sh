#!/usr/bin/env bash
# Debian packages the real-host tests need (run as root; .ci/run calls it):
#   chromium        the browser Playwright drives (playwright-core downloads none)
#   ripgrep         stands in for @vscode/ripgrep's GitHub download when code-server installs
#   build-essential python3 pkg-config libkrb5-dev
#                   compile code-server's native modules (kerberos needs the krb5 headers)
#   git             the extension's evidence, and the tests' repositories
# Skips apt entirely when everything is already installed.
set -euo pipefail
packages=(build-essential python3 pkg-config libkrb5-dev ripgrep chromium git)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "system packages: all present (${packages[*]})"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "system packages missing: ${missing[*]} — run: sudo bash scripts/system-packages.sh" >&2
  exit 1
fi
echo "system packages: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "system packages: installed ${missing[*]}"
