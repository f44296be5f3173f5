import * as assert from 'node:assert/strict';
import { matchesCommand, matchesPath } from '../../../src/runtime/permissions/rule-matching';
import { parseRule, RuleSyntaxError } from '../../../src/runtime/permissions/rules';

describe('permission rules', () => {
  it('parses bare tools and Tool(pattern)', () => {
    assert.deepEqual(parseRule('Read'), { tool: 'Read' });
    assert.deepEqual(parseRule(' Bash(npm run test:*) '), { tool: 'Bash', pattern: 'npm run test:*' });
    assert.deepEqual(parseRule('Write(src/**/*.ts)'), { tool: 'Write', pattern: 'src/**/*.ts' });
    assert.deepEqual(parseRule('Bash(echo (a))'), { tool: 'Bash', pattern: 'echo (a)' });
  });

  it('rejects bad rules naming them and showing the syntax', () => {
    const cases: Array<[string, RegExp]> = [
      ['', /the rule is empty/],
      ['Bash(ls', /must end with "\)"/],
      ['(ls)', /tool name before "\(" is missing/],
      ['Bash()', /pattern between the parentheses is empty/],
      ['Ba sh', /"Ba sh" is not a tool name/],
      ['Bash)', /without a matching "\("/],
    ];
    for (const [text, problem] of cases) {
      assert.throws(() => parseRule(text), (error: unknown) => {
        assert.ok(error instanceof RuleSyntaxError);
        assert.match(error.message, problem);
        assert.ok(error.message.includes(`invalid permission rule ${JSON.stringify(text)}`));
        assert.match(error.message, /Tool\(pattern\)/);
        return true;
      });
    }
  });

  it('matches Bash prefixes at a word boundary', () => {
    assert.ok(matchesCommand('npm run test:*', 'npm run test'));
    assert.ok(matchesCommand('npm run test:*', 'npm run test -- --grep x'));
    assert.ok(matchesCommand('npm run test:*', 'npm run test:unit'));
    assert.ok(!matchesCommand('npm run test:*', 'npm run tests'));
    assert.ok(!matchesCommand('npm run test:*', 'npm run test-e2e'));
    assert.ok(!matchesCommand('git status:*', 'git stash'));
  });

  it('matches other Bash patterns as globs over the whole command', () => {
    assert.ok(matchesCommand('git log', 'git log'));
    assert.ok(!matchesCommand('git log', 'git log -p'));
    assert.ok(matchesCommand('git * --oneline', 'git log origin/main --oneline'));
    assert.ok(matchesCommand('ls ?', 'ls a'));
    assert.ok(!matchesCommand('ls ?', 'ls ab'));
    assert.ok(matchesCommand('echo (hi)*', 'echo (hi) there'));
  });

  it('matches path globs relative to the workspace, absolute, or under home', () => {
    const ctx = { cwd: '/w/project', home: '/home/u' };
    assert.ok(matchesPath('src/**', '/w/project/src/a/b.ts', ctx));
    assert.ok(matchesPath('src', '/w/project/src/a/b.ts', ctx));
    assert.ok(matchesPath('./docs/*.md', '/w/project/docs/x.md', ctx));
    assert.ok(!matchesPath('docs/*.md', '/w/project/docs/sub/x.md', ctx));
    assert.ok(matchesPath('**/.env', '/w/project/pkg/.env', ctx));
    assert.ok(!matchesPath('src/**', '/w/other/src/a.ts', ctx));
    assert.ok(matchesPath('/tmp/**', '/tmp/x/y', ctx));
    assert.ok(matchesPath('~/notes/**', '/home/u/notes/a.md', ctx));
    assert.ok(!matchesPath('~/notes/**', '/w/project/notes/a.md', ctx));
  });
});
