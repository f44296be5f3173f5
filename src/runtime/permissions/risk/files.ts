/** Deletes and permission changes: what can wipe or expose files beyond the workspace, or all of it. */
import { hasFlag, operands, type Arg, type Invocation } from './args';
import { expandBraces, globSweepsRoot, normalizePath, placeOf, type RiskContext } from './paths';

/** Why deleting `arg` is risky, or undefined for a named path inside the workspace or a temp folder. */
function deleteTargetRisk(arg: Arg, ctx: RiskContext, recursive: boolean): string | undefined {
  if (arg.fromList) return 'deletes whatever a list command passes it (find, xargs), so nobody can tell what it deletes';
  if (arg.dynamic) return recursive ? `deletes recursively a target only known when it runs (${arg.value}), so nobody can tell what it deletes` : undefined;
  for (const value of expandBraces(arg.value)) {
    const p = normalizePath(value, ctx);
    if (arg.glob && globSweepsRoot(p)) return `deletes ${recursive ? 'recursively ' : ''}everything a wildcard matches at the top of a folder (${arg.value})`;
    const place = placeOf(p);
    if (place === 'workspace' || place === 'temp') continue;
    if (place === 'workspace-root') return recursive ? 'deletes the whole workspace' : undefined;
    return `deletes ${recursive ? 'recursively ' : ''}outside the workspace (${arg.value})`;
  }
  return undefined;
}

function rmRisk(cmd: Invocation, ctx: RiskContext): string | undefined {
  if (cmd.args.some((a) => a.value === '--no-preserve-root')) return 'removes the root directory';
  const recursive = hasFlag(cmd.args, 'rR', ['--recursive']) || cmd.name === 'rmtree';
  for (const target of operands(cmd.args)) {
    const why = deleteTargetRisk(target, ctx, recursive);
    if (why) return why;
  }
  return undefined;
}

/** Modes that let everyone write, or that run as the file's owner (setuid/setgid). */
function modeRisk(mode: string): 'world-writable' | 'setuid' | undefined {
  if (/^[0-7]{3,4}$/.test(mode)) {
    if (mode.length === 4 && (Number(mode[0]) & 6) !== 0) return 'setuid';
    return (Number(mode[mode.length - 1]) & 2) !== 0 ? 'world-writable' : undefined;
  }
  for (const clause of mode.split(',')) {
    const m = /^([ugoa]*)[+=]([rwxXst]*)$/.exec(clause);
    if (!m) continue;
    const who = m[1] ?? '';
    const perms = m[2] ?? '';
    if (perms.includes('s') && (who === '' || /[uga]/.test(who))) return 'setuid';
    if (perms.includes('w') && /[oa]/.test(who)) return 'world-writable';
  }
  return undefined;
}

function ownershipTargetsRisk(targets: readonly Arg[], ctx: RiskContext, what: string): string | undefined {
  for (const t of targets) {
    if (t.dynamic) return `${what} of a path only known when it runs (${t.value})`;
    const p = normalizePath(t.value, ctx);
    if (t.glob && globSweepsRoot(p)) return `${what} of everything a wildcard matches at the top of a folder (${t.value})`;
    const place = placeOf(p);
    if (place !== 'workspace' && place !== 'temp' && place !== 'workspace-root') return `${what} outside the workspace (${t.value})`;
  }
  return undefined;
}

function chmodRisk(cmd: Invocation, ctx: RiskContext): string | undefined {
  const [mode, ...targets] = operands(cmd.args.filter((a) => !/^-[R]+$/.test(a.value) && a.value !== '--recursive'));
  if (!mode) return undefined;
  const recursive = hasFlag(cmd.args, 'R', ['--recursive']);
  const kind = modeRisk(mode.value);
  if (kind === 'setuid') return `sets the setuid/setgid bit (chmod ${mode.value}), so the file runs with its owner's rights`;
  if (kind === 'world-writable' && recursive) return `makes a whole tree writable by everyone, recursively (chmod -R ${mode.value})`;
  if (kind === 'world-writable') {
    const outside = ownershipTargetsRisk(targets, ctx, 'makes files writable by everyone');
    if (outside) return outside;
  }
  if (recursive) return ownershipTargetsRisk(targets, ctx, 'changes permissions recursively');
  return systemOnly(targets, ctx);
}

/** chmod of a single file outside the workspace is ordinary (`chmod 600 ~/.ssh/id_rsa`), except on system paths. */
function systemOnly(targets: readonly Arg[], ctx: RiskContext): string | undefined {
  for (const t of targets) {
    const place = placeOf(normalizePath(t.value, ctx));
    if (place === 'system' || place === 'root' || place === 'home-root') return `changes permissions of a system path or the home folder (${t.value})`;
  }
  return undefined;
}

function chownRisk(cmd: Invocation, ctx: RiskContext): string | undefined {
  if (hasFlag(cmd.args, 'R', ['--recursive'])) return `changes ownership recursively (${cmd.name} -R)`;
  const [owner, ...targets] = operands(cmd.args);
  if (!owner) return undefined;
  const [user, group] = owner.value.split(/[:.]/);
  const names = cmd.name === 'chgrp' ? [owner.value] : [user ?? '', group ?? ''];
  if (names.some((n) => n === 'root' || n === '0' || n === 'wheel' || n === 'admin')) return `gives files to root (${cmd.name} ${owner.value})`;
  return ownershipTargetsRisk(targets, ctx, 'changes ownership');
}

function findRisk(cmd: Invocation): string | undefined {
  if (cmd.args.some((a) => a.value === '-delete')) return 'deletes every file find matches (find -delete)';
  return undefined;
}

function rsyncDeleteRisk(cmd: Invocation, ctx: RiskContext): string | undefined {
  if (!cmd.args.some((a) => a.value.startsWith('--delete') || a.value === '--remove-source-files')) return undefined;
  const dest = operands(cmd.args).at(-1);
  if (!dest || dest.dynamic) return 'deletes files in a destination only known when it runs (rsync --delete)';
  if (/^[^/]*:/.test(dest.value)) return undefined;
  const place = placeOf(normalizePath(dest.value, ctx));
  return place === 'workspace' || place === 'temp' ? undefined : `deletes files outside the workspace (rsync --delete to ${dest.value})`;
}

/** Deletes and permission changes. */
export function fileRisk(cmd: Invocation, ctx: RiskContext): string | undefined {
  switch (cmd.name) {
    case 'rm':
    case 'unlink':
      return rmRisk(cmd, ctx);
    case 'chmod':
      return chmodRisk(cmd, ctx);
    case 'chown':
    case 'chgrp':
      return chownRisk(cmd, ctx);
    case 'find':
      return findRisk(cmd);
    case 'rsync':
      return rsyncDeleteRisk(cmd, ctx);
    default:
      return undefined;
  }
}
