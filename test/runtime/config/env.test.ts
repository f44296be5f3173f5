import * as assert from 'node:assert/strict';
import { environmentLayer, localRunnerHostUrl } from '../../../src/runtime/config/env';
import { loadConfig } from '../../../src/runtime/config/load';
import { tempLayout, type TempLayout } from './helpers';

describe('environment variables (config/env)', () => {
  describe('SERVICE_DEBUG', () => {
    const debugOf = (value: string): { debug: unknown; warnings: string[] } => {
      const warnings: string[] = [];
      const { layer } = environmentLayer({ SERVICE_DEBUG: value }, {}, (line) => warnings.push(line));
      return { debug: layer.debug, warnings };
    };

    it('accepts true/1/yes/on and false/0/no/off in any case, without a warning', () => {
      for (const on of ['true', 'TRUE', '1', 'yes', 'Yes', 'on', 'ON']) assert.deepEqual(debugOf(on), { debug: true, warnings: [] }, on);
      for (const off of ['false', 'False', '0', 'no', 'NO', 'off', 'Off']) assert.deepEqual(debugOf(off), { debug: false, warnings: [] }, off);
      assert.deepEqual(debugOf(''), { debug: undefined, warnings: [] }, 'empty is not set');
    });

    it('any other value is ignored with one warning line naming the variable and the accepted values', () => {
      const { debug, warnings } = debugOf('maybe');
      assert.equal(debug, undefined);
      assert.equal(warnings.length, 1);
      assert.match(warnings[0] ?? '', /^agentcli: warning: SERVICE_DEBUG="maybe" is ignored; set it to true, 1, yes, on \(logging on\) or false, 0, no, off \(off\)$/);
    });

    it('an unknown value does not fail loading the config (the file value stays); the warning goes to stderr once', () => {
      const t: TempLayout = tempLayout();
      const written: string[] = [];
      const original = process.stderr.write.bind(process.stderr);
      process.stderr.write = ((chunk: string | Uint8Array) => {
        written.push(String(chunk));
        return true;
      }) as typeof process.stderr.write;
      try {
        const load = () => loadConfig({ cwd: t.cwd, home: t.home, env: { SERVICE_DEBUG: 'verbose-please' } }).config;
        assert.equal(load().debug, false);
        assert.equal(load().debug, false);
      } finally {
        process.stderr.write = original;
        t.cleanup();
      }
      assert.deepEqual(written.filter((w) => w.includes('SERVICE_DEBUG')).length, 1, written.join(''));
      assert.match(written.join(''), /SERVICE_DEBUG="verbose-please" is ignored/);
    });
  });

  describe('LOCALRUNNER_HOST', () => {
    it('a value without a port gets the runner port 11434; an explicit port (even :80) is kept', () => {
      const cases: Array<[string, string]> = [
        ['localhost', 'http://localhost:11434'],
        ['myhost', 'http://myhost:11434'],
        ['http://myhost', 'http://myhost:11434'],
        ['http://myhost/', 'http://myhost:11434'],
        ['myhost:8080', 'http://myhost:8080'],
        ['http://myhost:80', 'http://myhost'], // port 80 is the http default, so the URL drops it
        [':9000', 'http://127.0.0.1:9000'],
        ['[::1]', 'http://[::1]:11434'],
        ['https://runner.example.test', 'https://runner.example.test'],
        ['http://myhost/runner', 'http://myhost:11434/runner'],
      ];
      for (const [raw, url] of cases) assert.equal(localRunnerHostUrl(raw), url, raw);
    });

    it('a listen-on-all address (0.0.0.0, [::]) becomes the same machine’s address', () => {
      assert.equal(localRunnerHostUrl('0.0.0.0'), 'http://127.0.0.1:11434');
      assert.equal(localRunnerHostUrl('0.0.0.0:12000'), 'http://127.0.0.1:12000');
      assert.equal(localRunnerHostUrl('http://[::]'), 'http://[::1]:11434');
    });

    it('applies when the files leave localrunner.baseUrl at the default, not when they name another address', () => {
      const baseUrlOf = (files: Record<string, unknown>) =>
        (environmentLayer({ LOCALRUNNER_HOST: 'gpu-box' }, files, () => undefined).layer.localrunner as { baseUrl?: string } | undefined)?.baseUrl;
      assert.equal(baseUrlOf({}), 'http://gpu-box:11434');
      assert.equal(baseUrlOf({ localrunner: { baseUrl: 'http://localhost:11434' } }), 'http://gpu-box:11434');
      assert.equal(baseUrlOf({ localrunner: { baseUrl: 'http://127.0.0.1:11434/' } }), 'http://gpu-box:11434');
      assert.equal(baseUrlOf({ localrunner: { baseUrl: 'http://localhost:12000' } }), undefined);
      assert.equal(baseUrlOf({ localrunner: { baseUrl: 'http://other:11434' } }), undefined);
    });
  });
});
