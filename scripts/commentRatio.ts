/**
 * Comment lines per code line of the TypeScript under a folder (default `src`), as docs/DEVELOPING.md counts them: a
 * comment line is a non-blank line that starts with `//` or `/*` or lies inside a block comment; every other non-blank
 * line is code.   tsx scripts/commentRatio.ts [FOLDER]
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}

let comment = 0;
let code = 0;
for (const file of tsFiles(process.argv[2] ?? 'src')) {
  let inBlock = false;
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    if (inBlock) {
      comment++;
      if (line.includes('*/')) inBlock = false;
    } else if (line.startsWith('//')) comment++;
    else if (line.startsWith('/*')) {
      comment++;
      if (!line.slice(2).includes('*/')) inBlock = true;
    } else code++;
  }
}
console.log(`${comment} comment lines, ${code} code lines: ${(comment / code).toFixed(3)} comment lines per code line`);
