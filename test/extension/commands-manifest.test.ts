/**
 * Commands registered in code and declared in package.json cannot drift apart: every `registerCommand('agentcli.…')`
 * in src/extension is declared in contributes.commands (or is one of the per-provider key commands kept for old
 * keybindings, registered from the settings table), and every declared, menu or keybinding command is registered.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { SECRET_SETTINGS, secretCommandId } from '../../src/extension/settings/table';

const ROOT = path.resolve(__dirname, '..', '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : full.endsWith('.ts') ? [full] : [];
  });
}

function registeredInCode(): Set<string> {
  const ids = new Set<string>();
  for (const file of files(path.join(ROOT, 'src', 'extension'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/registerCommand\(\s*['"`](agentcli\.[A-Za-z0-9.]+)['"`]/g)) ids.add(m[1] as string);
  }
  for (const s of SECRET_SETTINGS) ids.add(secretCommandId(s.key));
  return ids;
}

interface Manifest {
  contributes: {
    commands: { command: string }[];
    keybindings?: { command: string }[];
    menus?: Record<string, { command?: string }[]>;
  };
}

describe('extension commands: code and manifest', () => {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Manifest;
  const declared = new Set(pkg.contributes.commands.map((c) => c.command));
  const registered = registeredInCode();
  const secretIds = new Set(SECRET_SETTINGS.map((s) => secretCommandId(s.key)));

  it('every command registered in code is declared in the manifest (or is a kept per-provider key command)', () => {
    const missing = [...registered].filter((id) => !declared.has(id) && !secretIds.has(id));
    assert.deepEqual(missing, [], 'declare these in package.json contributes.commands');
  });

  it('every declared, menu and keybinding command is registered in code', () => {
    const used = [
      ...declared,
      ...(pkg.contributes.keybindings ?? []).map((k) => k.command),
      ...Object.values(pkg.contributes.menus ?? {}).flatMap((items) => items.map((i) => i.command ?? '')),
    ].filter((id) => id.startsWith('agentcli.') && !id.startsWith('agentcli.chat'));
    const unregistered = [...new Set(used)].filter((id) => !registered.has(id));
    assert.deepEqual(unregistered, [], 'these commands are in package.json but no code registers them');
  });

  it('finds the commands it checks (the scan is not empty)', () => {
    assert.ok(registered.has('agentcli.openChat') && registered.has('agentcli.selectModel') && registered.size > 15);
  });
});
