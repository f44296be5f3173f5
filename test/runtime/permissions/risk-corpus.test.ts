/**
 * The risky-command corpus: every shape in corpus/risky-commands.txt must ask even in unrestricted mode with the allow
 * rule `Bash`, and at most 2% of corpus/benign-commands.txt may. The files are only parsed here, never run. Adding a
 * shape is a one-line change in a data file.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PermissionPolicy } from '../../../src/runtime/permissions/policy';

interface Entry {
  category: string;
  command: string;
}

function readCorpus(file: string): Entry[] {
  const entries: Entry[] = [];
  let category = '';
  for (const line of readFileSync(path.join(__dirname, 'corpus', file), 'utf8').split('\n')) {
    const header = /^#\s*([a-z][a-z -]*)$/.exec(line.trim());
    if (header) category = header[1]!;
    if (line.trim() === '' || line.startsWith('#')) continue;
    entries.push({ category, command: line.replaceAll('⏎', '\n') });
  }
  return entries;
}

const policy = () =>
  new PermissionPolicy({ cwd: '/w/project', home: '/home/u', mode: 'unrestricted', rules: { allow: ['Bash'], ask: [], deny: [] } });
const verdictOf = (command: string) => policy().evaluate({ ruleTool: 'Bash', command, description: command }, false);

const REQUIRED_CATEGORIES = [
  'recursive deletes',
  'destructive git',
  'privilege',
  'remote code',
  'exfiltration',
  'reverse shells',
  'persistence',
  'permission changes',
  'fork bombs',
  'disk writers',
  'processes and power',
];

describe('risky-command corpus', () => {
  const risky = readCorpus('risky-commands.txt');
  const benign = readCorpus('benign-commands.txt');

  it('has at least 150 shapes of each kind and covers every category', () => {
    assert.ok(risky.length >= 150, `only ${risky.length} risky shapes`);
    assert.ok(benign.length >= 150, `only ${benign.length} benign commands`);
    const categories = new Set(risky.map((e) => e.category));
    for (const c of REQUIRED_CATEGORIES) assert.ok(categories.has(c), `no "# ${c}" section in risky-commands.txt`);
  });

  it('asks for every risky shape under unrestricted mode and the allow rule Bash', () => {
    const missed = risky.filter((e) => verdictOf(e.command).decision !== 'ask');
    assert.equal(missed.length, 0, `${missed.length} risky shapes were not flagged:\n${missed.map((e) => `  [${e.category}] ${e.command}`).join('\n')}`);
  });

  it('says why each risky shape asks', () => {
    for (const e of risky) {
      const verdict = verdictOf(e.command);
      assert.ok(['risky-command', 'protected'].includes(verdict.cause), `${e.command}: ${verdict.cause} ${verdict.reason}`);
      assert.ok(verdict.reason.length > 10, e.command);
    }
  });

  it('flags at most 2% of everyday commands', () => {
    const flagged = benign.filter((e) => verdictOf(e.command).decision !== 'allow');
    const allowed = Math.floor(benign.length * 0.02);
    assert.ok(
      flagged.length <= allowed,
      `${flagged.length} of ${benign.length} benign commands were flagged (at most ${allowed}):\n` +
        flagged.map((e) => `  ${e.command}: ${verdictOf(e.command).reason}`).join('\n'),
    );
  });
});
