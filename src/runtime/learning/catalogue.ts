/**
 * The built-in skill catalogue: what each skill is for, the project signals that call for it (with weights; a skill's
 * score is the sum, capped at 1), and the standing guidance its learned SKILL.md carries.
 */
import {
  anyNpmDependency,
  countFiles,
  filesMatching,
  languageShare,
  npmDependency,
  npmScript,
  pythonPackage,
  type Evidence,
} from './evidence';
import type { ProjectSignals } from './signals';

export interface SkillTemplate {
  name: string;
  title: string;
  evidence(s: ProjectSignals): Evidence[];
  /** Standing advice for this kind of project (the learned skill adds the project's own facts). */
  guidance: string[];
}

const root = (file: string) => new RegExp(`^${file.replace(/\./g, '\\.')}$`);

export const CATALOGUE: readonly SkillTemplate[] = [
  {
    name: 'typescript-project',
    title: 'TypeScript project conventions',
    evidence: (s) => [...languageShare(s, 'TypeScript', 0.5), ...filesMatching(s, /^tsconfig(\.[\w-]+)?\.json$/, 0.3, 'config file'), ...npmDependency(s, 'typescript', 0.2)],
    guidance: [
      'Keep the code type-safe: no `any` where a real type can be named; run the type check after changes.',
      'Follow the module style already in use (ES modules or CommonJS) and the existing folder layout.',
      'Prefer small, typed functions; export only what other modules use.',
    ],
  },
  {
    name: 'node-testing-mocha',
    title: 'Testing with mocha',
    evidence: (s) => [...npmDependency(s, 'mocha', 0.6), ...filesMatching(s, /^\.mocharc(\.\w+)?$/, 0.3, 'config file'), ...npmScript(s, 'mocha', 0.2)],
    guidance: [
      'Tests use `describe`/`it`; put a new test next to the tests of the same module, mirroring the source folders.',
      'Assert with the assertion library the existing tests use; never leave `.only` in a test.',
      'Run the single test file while working, then the whole suite before finishing.',
    ],
  },
  {
    name: 'node-testing-jest',
    title: 'Testing with jest',
    evidence: (s) => [...npmDependency(s, 'jest', 0.6), ...filesMatching(s, /^jest\.config\.\w+$/, 0.3, 'config file'), ...npmScript(s, 'jest', 0.2)],
    guidance: [
      'Tests are `*.test.*` or `*.spec.*` files with `describe`/`test`/`expect`; follow the existing naming.',
      'Mock modules with `jest.mock` only at the boundaries; reset mocks between tests.',
      'Run one file with `npx jest <path>` while working, then the whole suite.',
    ],
  },
  {
    name: 'node-testing-vitest',
    title: 'Testing with vitest',
    evidence: (s) => [...npmDependency(s, 'vitest', 0.6), ...filesMatching(s, /^vitest\.config\.\w+$/, 0.3, 'config file'), ...npmScript(s, 'vitest', 0.2)],
    guidance: [
      'Tests use `describe`/`it`/`expect` imported from `vitest`; follow the existing file naming.',
      'Run one file with `npx vitest run <path>` while working, then the whole suite.',
    ],
  },
  {
    name: 'e2e-playwright',
    title: 'End-to-end tests with playwright',
    evidence: (s) => [...anyNpmDependency(s, ['@playwright/test', 'playwright', 'playwright-core'], 0.6), ...filesMatching(s, /^playwright\.config\.\w+$/, 0.3, 'config file')],
    guidance: [
      'Locate elements by role and text rather than CSS structure; wait on conditions, never on fixed delays.',
      'Keep end-to-end tests few and focused on user journeys; cover details in unit tests.',
    ],
  },
  {
    name: 'react-components',
    title: 'React components',
    evidence: (s) => [...npmDependency(s, 'react', 0.6), ...countFiles(s, /\.(tsx|jsx)$/, 0.3, '.tsx/.jsx file')],
    guidance: [
      'Write function components with hooks; keep state as local as possible and derive what can be derived.',
      'Follow the existing styling approach and component folder layout; give lists stable keys.',
    ],
  },
  {
    name: 'vue-components',
    title: 'Vue components',
    evidence: (s) => [...npmDependency(s, 'vue', 0.6), ...countFiles(s, /\.vue$/, 0.3, '.vue file')],
    guidance: ['Follow the component style in use (Composition or Options API) and the existing single-file component layout.'],
  },
  {
    name: 'node-http-api',
    title: 'Node HTTP API',
    evidence: (s) => anyNpmDependency(s, ['express', 'fastify', 'koa', '@nestjs/core', 'hono'], 0.7),
    guidance: [
      'Validate request input at the edge and return clear error responses with the right status codes.',
      'Keep handlers thin: business logic in plain modules that tests can call directly.',
    ],
  },
  {
    name: 'eslint-linting',
    title: 'Linting with eslint',
    evidence: (s) => [...npmDependency(s, 'eslint', 0.4), ...filesMatching(s, /^(eslint\.config\.\w+|\.eslintrc(\.\w+)?)$/, 0.3, 'config file'), ...npmScript(s, 'eslint', 0.1)],
    guidance: ['Run eslint on the files you changed and fix what it reports instead of disabling rules.'],
  },
  {
    name: 'python-project',
    title: 'Python project conventions',
    evidence: (s) => [...languageShare(s, 'Python', 0.6), ...filesMatching(s, root('pyproject.toml'), 0.2, 'config file'), ...filesMatching(s, /^requirements[\w.-]*\.txt$/, 0.1, 'requirements file')],
    guidance: [
      'Follow PEP 8 and the formatter the project uses; add type hints to new functions.',
      'Declare new dependencies where the project declares them (pyproject.toml or requirements).',
    ],
  },
  {
    name: 'python-pytest',
    title: 'Testing with pytest',
    evidence: (s) => [
      ...pythonPackage(s, 'pytest', 0.6),
      ...filesMatching(s, /(^|\/)(pytest\.ini|tox\.ini|conftest\.py)$/, 0.3, 'config file'),
      ...countFiles(s, /(^|\/)test_[^/]*\.py$|_test\.py$/, 0.2, 'test_*.py file'),
    ],
    guidance: [
      'Tests are plain functions named `test_*` using bare `assert`; share setup through fixtures in conftest.py.',
      'Use `tmp_path` and `monkeypatch` instead of touching real files or the environment.',
      'Run one file with `pytest <path> -q` while working, then the whole suite.',
    ],
  },
  {
    name: 'python-django',
    title: 'Django applications',
    evidence: (s) => [...pythonPackage(s, 'django', 0.7), ...filesMatching(s, /(^|\/)manage\.py$/, 0.2, 'file')],
    guidance: ['Change models together with a migration (`python manage.py makemigrations`); keep views thin.'],
  },
  {
    name: 'python-flask',
    title: 'Flask applications',
    evidence: (s) => pythonPackage(s, 'flask', 0.7),
    guidance: ['Register routes on blueprints; read configuration from the app config, not module globals.'],
  },
  {
    name: 'python-fastapi',
    title: 'FastAPI services',
    evidence: (s) => pythonPackage(s, 'fastapi', 0.7),
    guidance: ['Declare request and response models with pydantic; use dependencies for shared resources.'],
  },
  {
    name: 'go-modules',
    title: 'Go modules',
    evidence: (s) => [...filesMatching(s, root('go.mod'), 0.6, 'module file'), ...languageShare(s, 'Go', 0.4)],
    guidance: [
      'Run `gofmt` (or `go fmt ./...`) and `go vet ./...` on changes; handle every returned error.',
      'Tests are `_test.go` files next to the code, table-driven where cases repeat; run `go test ./...`.',
    ],
  },
  {
    name: 'rust-cargo',
    title: 'Rust with cargo',
    evidence: (s) => [...filesMatching(s, root('Cargo.toml'), 0.6, 'manifest'), ...languageShare(s, 'Rust', 0.4)],
    guidance: ['Run `cargo fmt`, `cargo clippy` and `cargo test`; prefer `Result` with `?` over `unwrap` outside tests.'],
  },
  {
    name: 'jvm-build',
    title: 'Java/Kotlin builds',
    evidence: (s) => [...filesMatching(s, /^(pom\.xml|build\.gradle(\.kts)?)$/, 0.6, 'build file'), ...languageShare(s, 'Java', 0.4), ...languageShare(s, 'Kotlin', 0.4)],
    guidance: ['Build and test with the wrapper the project ships (`./mvnw` or `./gradlew`) when present.'],
  },
  {
    name: 'docker',
    title: 'Docker images',
    evidence: (s) => [
      ...filesMatching(s, /(^|\/)Dockerfile(\.[\w-]+)?$/, 0.6, 'file'),
      ...filesMatching(s, /(^|\/)(docker-)?compose\.ya?ml$|(^|\/)docker-compose\.[\w-]+\.ya?ml$/, 0.3, 'compose file'),
      ...filesMatching(s, root('.dockerignore'), 0.1, 'file'),
    ],
    guidance: ['Keep images small: multi-stage builds, pinned base images, and a `.dockerignore` for build context.'],
  },
  {
    name: 'github-actions',
    title: 'GitHub Actions workflows',
    evidence: (s) => filesMatching(s, /^\.github\/workflows\/[^/]+\.ya?ml$/, 0.7, 'workflow'),
    guidance: ['Pin actions to a version, give jobs the least permissions they need, and keep CI steps runnable locally.'],
  },
  {
    name: 'gitlab-ci',
    title: 'GitLab CI pipelines',
    evidence: (s) => filesMatching(s, root('.gitlab-ci.yml'), 0.7, 'pipeline'),
    guidance: ['Keep pipeline jobs runnable locally and cache dependencies between jobs.'],
  },
];
