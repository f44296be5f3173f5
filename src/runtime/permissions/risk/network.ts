/** Reverse shells, uploads of credential files, and reads of secrets (which the model would then see). */
import { hasFlag, type Arg, type Invocation } from './args';
import { isCredentialFile, isNetworkDevice, isSecretFile, normalizePath, type RiskContext } from './paths';

/** Commands that send data to another machine. */
export const NETWORK_SENDERS = new Set([
  'curl', 'wget', 'nc', 'ncat', 'netcat', 'socat', 'ssh', 'scp', 'sftp', 'rsync', 'ftp', 'tftp', 'telnet', 'openssl', 'http',
  'https', 'xh', 'httpie', 'aria2c', 'gsutil', 'aws', 'az', 'gcloud', 'rclone', 'smbclient', 'mail', 'mailx', 'sendmail', 'mutt',
  'gh', 'nslookup', 'dig', 'host', 'ping', 'lftp', 'cadaver', 'websocat', 'wscat', 'ngrok', 'cloudflared', 'transfer',
]);
/** Commands that download: their output fed to a shell runs code from the network. */
export const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'aria2c', 'http', 'https', 'xh', 'httpie', 'lwp-download', 'lwp-request', 'GET']);
/** Commands that print what a file holds (or copy or pack it), so the model or a later stage gets it. */
export const READERS = new Set([
  'cat', 'tac', 'less', 'more', 'head', 'tail', 'base64', 'base32', 'xxd', 'od', 'hexdump', 'strings', 'tar', 'zip', 'gzip',
  'bzip2', 'xz', 'zstd', '7z', 'cp', 'mv', 'scp', 'rsync', 'dd', 'tee', 'openssl', 'gpg', 'grep', 'egrep', 'fgrep', 'rg', 'awk',
  'sed', 'cut', 'sort', 'uniq', 'nl', 'rev', 'diff', 'cmp', 'jq', 'yq', 'bat', 'view', 'vi', 'vim', 'nano', 'sqlite3', 'file',
  'paste', 'fold', 'fmt', 'pr', 'column', 'tr', 'iconv', 'wc', 'md5sum', 'sha256sum', 'curl', 'wget', 'nc', 'ncat', 'netcat',
]);
/** Paths named by an argument: itself, and what follows `@`, `<`, `=` (curl -F f=@x, --data-binary @x, --post-file=x). */
function pathsIn(value: string): string[] {
  const found = [value];
  for (const sep of ['=@', '=<', '@', '<', '=']) {
    const i = value.indexOf(sep);
    if (i !== -1) found.push(value.slice(i + sep.length));
  }
  return found.filter((p) => p !== '' && p !== '-');
}

export function namesSecret(arg: Arg, ctx: RiskContext): boolean {
  return pathsIn(arg.value).some((p) => isSecretFile(normalizePath(p, ctx)));
}

export function namesCredential(arg: Arg, ctx: RiskContext): boolean {
  return pathsIn(arg.value).some((p) => isCredentialFile(normalizePath(p, ctx)));
}

/** Does the command print the whole environment (`env`/`printenv` alone, `export -p`, `declare -x`, `set`)? */
export function dumpsEnvironment(cmd: Invocation): boolean {
  const values = cmd.args.map((a) => a.value);
  switch (cmd.name) {
    case 'printenv':
      return values.every((v) => v.startsWith('-'));
    case 'env':
      return values.every((v) => v.startsWith('-') || v.includes('='));
    case 'set':
      return values.length === 0;
    case 'export':
      return values.length === 0 || values.every((v) => v === '-p');
    case 'declare':
    case 'typeset':
      return values.length > 0 && values.every((v) => /^-[xp]+$/.test(v));
    case 'compgen':
      return values.includes('-v') || values.includes('-e');
    default:
      return false;
  }
}

function reverseShellRisk(cmd: Invocation): string | undefined {
  if (['nc', 'ncat', 'netcat'].includes(cmd.name)) {
    if (hasFlag(cmd.args, 'ec', ['--exec', '--sh-exec', '--lua-exec'])) return `gives a remote machine a shell (${cmd.name} -e)`;
  }
  if (cmd.name === 'socat' && cmd.args.some((a) => /(?:^|[,!])(?:exec|system):/i.test(a.value))) return 'gives a remote machine a shell (socat exec:)';
  if (cmd.args.some((a) => isNetworkDevice(a.value))) return 'opens a raw network connection through /dev/tcp (a reverse shell or an upload)';
  if ((cmd.name === 'ssh' || cmd.name === 'autossh') && cmd.args.some((a) => /^-[a-zA-Z]*R/.test(a.value))) return 'opens a reverse tunnel into this machine (ssh -R)';
  return undefined;
}

/** The arguments without the key ssh-like tools log in with (`ssh -i ~/.ssh/id_rsa host` uses the key, it does not send it). */
function withoutIdentity(cmd: Invocation): Arg[] {
  if (!['ssh', 'scp', 'sftp', 'autossh'].includes(cmd.name)) return cmd.args;
  return cmd.args.filter((a, i) => {
    const prev = cmd.args[i - 1]?.value;
    if (prev === '-i' || (prev === '-o' && /^IdentityFile[= ]/i.test(a.value))) return false;
    return !/^-i./.test(a.value) && !/^-oIdentityFile/i.test(a.value);
  });
}

/** Why the command is risky through the network or secrets, or undefined. */
export function networkRisk(cmd: Invocation, ctx: RiskContext): string | undefined {
  const reverse = reverseShellRisk(cmd);
  if (reverse) return reverse;
  if (cmd.args.some((a) => /^\/proc\/[^/]+\/environ$/.test(a.value) || /\/proc\/(?:self|\d+|\*|\$\$)\/environ/.test(a.value))) {
    return "reads a process's environment (/proc/*/environ), where keys and tokens live";
  }
  if (NETWORK_SENDERS.has(cmd.name) && withoutIdentity(cmd).some((a) => namesCredential(a, ctx))) {
    return `sends a credential file over the network (${cmd.name})`;
  }
  if (READERS.has(cmd.name) && cmd.args.some((a) => namesSecret(a, ctx))) {
    return `reads a credential file (${cmd.args.find((a) => namesSecret(a, ctx))?.value}), which would expose the key`;
  }
  if (cmd.name === 'deno' && cmd.args[0]?.value === 'run' && cmd.args.some((a) => /^https?:\/\//.test(a.value))) return 'runs code straight from a URL (deno run https://…)';
  return undefined;
}
