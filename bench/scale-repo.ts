// A generated repository for the scale figures: `files` source files in nested folders, a .gitignore, and ignored
// folders that also hold matches (they must not show up). Every file has one `TODO` line (as many matches as files);
// one file in 10,000 holds `RARE_NEEDLE`.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const COMMON_PATTERN = 'TODO';
export const RARE_PATTERN = 'RARE_NEEDLE';

const FILES_PER_FOLDER = 100;
const FOLDERS_PER_PACKAGE = 10;

function sourceFile(rel: string, n: number): string {
  const rare = n % 10_000 === 4242 % 10_000 ? `// ${RARE_PATTERN} in ${rel}\n` : '';
  return `// ${rel}\nexport const value${n} = ${n};\n// TODO: tidy up value${n}\n${rare}export function read${n}(): number {\n  return value${n};\n}\n`;
}

/** Writes the repository into a new temp folder and returns it; the caller removes it. */
export function generateRepo(files: number): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'agentcli-scale-'));
  writeFileSync(path.join(root, '.gitignore'), 'node_modules/\nbuild/\n*.log\n');
  for (let n = 0; n < files; n++) {
    const folder = Math.floor(n / FILES_PER_FOLDER);
    const dir = path.join(`pkg${String(Math.floor(folder / FOLDERS_PER_PACKAGE)).padStart(3, '0')}`, `mod${folder % FOLDERS_PER_PACKAGE}`);
    if (n % FILES_PER_FOLDER === 0) mkdirSync(path.join(root, dir), { recursive: true });
    const rel = path.join(dir, `file${String(n % FILES_PER_FOLDER).padStart(3, '0')}.ts`);
    writeFileSync(path.join(root, rel), sourceFile(rel, n));
  }
  // Ignored content with matches of both patterns: 1,000 files the search must not report.
  for (const ignored of ['node_modules/dep', 'build/out']) {
    for (let d = 0; d < 5; d++) {
      mkdirSync(path.join(root, `${ignored}${d}`), { recursive: true });
      for (let f = 0; f < 100; f++) writeFileSync(path.join(root, `${ignored}${d}`, `x${f}.js`), `// TODO ${RARE_PATTERN}\n`);
    }
  }
  writeFileSync(path.join(root, 'debug.log'), `TODO ${RARE_PATTERN}\n`);
  return root;
}
