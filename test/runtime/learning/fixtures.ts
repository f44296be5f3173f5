import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeTempDir } from '../../helpers/temp-dir';

export function writeTree(dir: string, files: Record<string, string>): string {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

/** A TypeScript package tested with mocha; vendored and git-ignored files that must not count. */
export const TS_MOCHA: Record<string, string> = {
  'package.json': JSON.stringify({
    name: 'calc',
    scripts: { test: 'mocha "test/**/*.test.ts"', build: 'tsc -p .' },
    devDependencies: { mocha: '^10.2.0', typescript: '^5.4.0', '@types/mocha': '^10.0.0' },
  }),
  'tsconfig.json': '{ "compilerOptions": { "strict": true } }\n',
  '.mocharc.json': '{ "require": "tsx" }\n',
  '.gitignore': 'coverage/\n',
  'src/add.ts': 'export const add = (a: number, b: number) => a + b;\n',
  'src/sub.ts': 'export const sub = (a: number, b: number) => a - b;\n',
  'src/types.d.ts': 'declare const x: number;\n',
  'test/add.test.ts': "import { add } from '../src/add';\n",
  'test/sub.test.ts': "import { sub } from '../src/sub';\n",
  'scripts/release.js': 'console.log(1);\n',
  'node_modules/mocha/lib/a.ts': 'export {};\n',
  'node_modules/mocha/lib/b.ts': 'export {};\n',
  'coverage/report.js': 'var c = 1;\n',
  'coverage/more.py': 'x = 1\n',
};

/** A Python service tested with pytest. */
export const PY_PYTEST: Record<string, string> = {
  'pyproject.toml': [
    '[project]',
    'name = "shop"',
    'authors = [',
    '  "Jo Doe <jo@example.com>",',
    ']',
    'dependencies = [',
    '  "fastapi>=0.110",',
    '  "pydantic",',
    ']',
    '',
    '[project.optional-dependencies]',
    'test = ["pytest>=8"]',
    '',
  ].join('\n'),
  'app/__init__.py': '',
  'app/main.py': 'from fastapi import FastAPI\n',
  'tests/conftest.py': 'import pytest\n',
  'tests/test_main.py': 'def test_ok():\n    assert True\n',
};

/** A Go module with CI and a container image. */
export const GO_MODULE: Record<string, string> = {
  'go.mod': 'module example.com/tool\n\ngo 1.22\n',
  'main.go': 'package main\n',
  'util.go': 'package main\n',
  'util_test.go': 'package main\n',
  'Dockerfile': 'FROM scratch\n',
  '.github/workflows/ci.yml': 'on: push\n',
};

/** React front end, HTTP server, jest, a Python helper, and an existing skill for react. */
export const MIXED: Record<string, string> = {
  'package.json': JSON.stringify({
    name: 'shopfront',
    scripts: { test: 'jest' },
    dependencies: { react: '^18.2.0', express: '^4.19.0' },
    devDependencies: { jest: '^29.7.0' },
  }),
  'jest.config.js': 'module.exports = {};\n',
  'web/App.tsx': 'export {};\n',
  'web/Button.tsx': 'export {};\n',
  'web/index.tsx': 'export {};\n',
  'server/app.js': 'module.exports = {};\n',
  'server/routes.js': 'module.exports = {};\n',
  'tools/gen.py': 'print(1)\n',
  '.agentcli/skills/react-components.md': '# How we write React components\n',
};

export function fixture(files: Record<string, string>): string {
  return writeTree(makeTempDir('agentcli-learn-'), files);
}
