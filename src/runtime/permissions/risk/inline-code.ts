/**
 * Interpreters given code inline (`python3 -c`, `node -e`, `perl -e`, `ruby -e`, `php -r`, `deno eval`, `osascript -e`,
 * awk programs) or on stdin (a here-doc): where the program comes from, and whether the code does something risky
 * (runs processes, deletes trees, opens sockets, reads credential files, changes files that run later, or hides what
 * it does behind eval and reflection). A plain `print(1)` is fine.
 */
import type { Arg } from './args';

export type Language = 'python' | 'node' | 'perl' | 'ruby' | 'php' | 'lua' | 'r' | 'osascript' | 'awk' | 'deno' | 'powershell' | 'tcl';

export type Program =
  | { kind: 'code'; code: string }
  | { kind: 'dynamic' }
  | { kind: 'file'; path: Arg }
  | { kind: 'module' }
  | { kind: 'stdin' };

interface Spec {
  /** Short letters whose value is code (`-c`, `-e`). */
  code: string;
  longCode?: string[];
  /** Short letters taking a value attached (`-i.bak`), possibly empty: the rest of the word. */
  attached?: string;
  /** Short letters taking a value attached or as the next word (`-I dir`). */
  valued?: string;
  longValued?: string[];
  /** Short letter that runs a module (`python -m`). */
  module?: string;
  /** Short letter that names the program file (`php -f`, `awk -f`). */
  file?: string;
  /** Several code options add up (`perl -e a -e b`). */
  multi?: boolean;
  /** The first operand is the program text (awk). */
  programOperand?: boolean;
}

const SPECS: Record<Language, Spec> = {
  python: { code: 'c', valued: 'WX', module: 'm', longValued: ['--check-hash-based-pycs'] },
  node: { code: 'ep', longCode: ['--eval', '--print'], valued: 'rC', longValued: ['--require', '--import', '--loader', '--experimental-loader', '--conditions', '--input-type', '--env-file', '--title'] },
  perl: { code: 'eE', attached: 'il0xCdDFl', valued: 'IMm', multi: true },
  ruby: { code: 'e', attached: 'FTWKx0', valued: 'rIEC', multi: true },
  php: { code: 'rBRE', valued: 'cdzt', file: 'f', multi: true },
  lua: { code: 'e', valued: 'l', multi: true },
  r: { code: 'e', longCode: ['--expr'], multi: true },
  osascript: { code: 'e', valued: 'ls', multi: true },
  awk: { code: '', valued: 'Fvil', file: 'f', longCode: ['--source'], longValued: ['--field-separator', '--assign', '--include', '--load'], programOperand: true },
  deno: { code: '' },
  powershell: { code: 'ce', longCode: ['-Command', '-command', '-EncodedCommand', '-encodedcommand', '-enc', '-ec'], file: 'f' },
  tcl: { code: '' },
};

const NAMES: Array<[RegExp, Language]> = [
  [/^(?:python[0-9.]*|pypy[0-9.]*|ipython[0-9.]*)$/, 'python'],
  [/^(?:node|nodejs|bun)$/, 'node'],
  [/^perl[0-9.]*$/, 'perl'],
  [/^(?:ruby|jruby|irb)$/, 'ruby'],
  [/^php[0-9.]*$/, 'php'],
  [/^(?:lua[0-9.]*|luajit)$/, 'lua'],
  [/^(?:Rscript|R)$/, 'r'],
  [/^osascript$/, 'osascript'],
  [/^(?:awk|gawk|mawk|nawk)$/, 'awk'],
  [/^deno$/, 'deno'],
  [/^(?:pwsh|powershell|powershell\.exe)$/, 'powershell'],
  [/^(?:tclsh|wish|expect)$/, 'tcl'],
];

export function languageOf(name: string): Language | undefined {
  return NAMES.find(([re]) => re.test(name))?.[1];
}

/** Where the interpreter's program comes from. */
export function programOf(language: Language, args: readonly Arg[]): Program {
  if (language === 'deno') {
    if (args[0]?.value !== 'eval') return args[0]?.value === 'run' ? { kind: 'module' } : { kind: 'module' };
    const code = args.slice(1).find((a) => !a.value.startsWith('-'));
    return !code ? { kind: 'stdin' } : code.dynamic ? { kind: 'dynamic' } : { kind: 'code', code: code.value };
  }
  const spec = SPECS[language];
  const codes: Arg[] = [];
  const take = (arg: Arg | undefined) => arg && codes.push(arg);
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '-') return finish(codes) ?? { kind: 'stdin' };
    if (v === '--') {
      const next = args[i + 1];
      if (codes.length === 0 && next && spec.programOperand) take(next);
      return finish(codes) ?? (next ? { kind: 'file', path: next } : { kind: 'stdin' });
    }
    const longCode = spec.longCode?.find((l) => v === l || v.startsWith(`${l}=`));
    if (longCode) {
      take(v === longCode ? args[++i] : { ...args[i]!, value: v.slice(longCode.length + 1) });
      if (!spec.multi) break;
      continue;
    }
    if (spec.longValued?.includes(v)) {
      i++;
      continue;
    }
    if (v.startsWith('--')) continue;
    if (v.startsWith('-') && v.length > 1) {
      const cluster = v.slice(1);
      for (let j = 0; j < cluster.length; j++) {
        const ch = cluster[j]!;
        const rest = cluster.slice(j + 1);
        if (spec.code.includes(ch)) {
          take(rest !== '' ? { ...args[i]!, value: rest } : args[++i]);
          break;
        }
        if (ch === spec.module) return { kind: 'module' };
        if (ch === spec.file) return { kind: 'file', path: rest !== '' ? { ...args[i]!, value: rest } : (args[i + 1] ?? args[i]!) };
        if (spec.attached?.includes(ch)) break;
        if (spec.valued?.includes(ch)) {
          if (rest === '') i++;
          break;
        }
      }
      if (codes.length > 0 && !spec.multi) break;
      continue;
    }
    if (codes.length === 0 && spec.programOperand) take(args[i]);
    else if (codes.length === 0) return { kind: 'file', path: args[i]! };
    break;
  }
  return finish(codes) ?? { kind: 'stdin' };
}

function finish(codes: readonly Arg[]): Program | undefined {
  if (codes.length === 0) return undefined;
  if (codes.some((c) => c.dynamic)) return { kind: 'dynamic' };
  return { kind: 'code', code: codes.map((c) => c.value).join('\n') };
}

interface CodeRule {
  re: RegExp;
  why: string;
  only?: readonly Language[];
}

const RULES: CodeRule[] = [
  { re: /\bos\s*\.\s*(?:system|popen|exec\w*|spawn\w*|fork\w*|posix_spawn\w*|kill|killpg|setuid|setgid)\b|\bsubprocess\b|\bpty\b|\bcommands\s*\.\s*getoutput|\bplatform\s*\.\s*popen/, why: 'runs other processes' },
  { re: /\bimport\b[^\n;]*\b(?:system|popen|spawn\w*|exec[lv]\w*|fork\w*|posix_spawn\w*|Popen|check_output|getoutput)\b/, why: 'runs other processes' },
  { re: /\b(?:system|popen|spawn\w*|exec[lv]p?e?|fork|forkpty|posix_spawnp?|passthru|shell_exec|proc_open|pcntl_exec|pcntl_fork|syscall)\s*\(/, why: 'runs other processes' },
  { re: /\bchild_process\b|\bexecSync\b|\bspawnSync\b|\bexecFile(?:Sync)?\b|\bprocess\s*\.\s*(?:binding|dlopen|kill|mainModule|setuid|setgid)\b|\bDeno\s*\.\s*(?:run|Command|kill)\b|\bBun\s*\.\s*(?:spawn|spawnSync|\$)/, why: 'runs other processes' },
  { re: /\b(?:system|exec|fork|qx|IO\s*\.\s*popen|Open3|Process\s*\.\s*spawn|Kernel\s*\.\s*(?:system|exec|spawn|`))\b|%x[({[<]/, why: 'runs other processes', only: ['perl', 'ruby'] },
  { re: /`/, why: 'runs a shell command (backticks)', only: ['perl', 'ruby', 'php'] },
  { re: /\bopen\s*\(?[^;)]*["']\s*\||\bopen\s*\(?[^;)]*["']\|/, why: 'runs a command through a pipe open', only: ['perl'] },
  { re: /\bdo\s+shell\s+script\b|\bSystem Events\b|\bkeystroke\b/, why: 'runs shell commands or drives other apps', only: ['osascript'] },
  { re: /\bos\s*\.\s*execute\b|\bio\s*\.\s*popen\b/, why: 'runs other processes', only: ['lua'] },
  { re: /\bsystem2?\s*\(|\bshell\s*\(|\bpipe\s*\(/, why: 'runs other processes', only: ['r'] },
  { re: /\bsystem\s*\(|\|\s*getline|\|&|print[^;}]*\|\s*["$]|\/inet\//, why: 'runs commands or opens network connections from awk', only: ['awk'] },
  { re: /\b(?:rmtree|rm_rf|rm_r|remove_tree|rimraf|removedirs|rmSync|rmdirSync)\b|\bfs\s*\.\s*(?:rm|rmdir|promises\s*\.\s*rm)\b|recursive\s*:\s*true|\bDeno\s*\.\s*remove\b|FileUtils\s*\.\s*rm/, why: 'deletes folders recursively' },
  { re: /\bsocket\b|\burllib\d?\b|\burlopen\b|\brequests\s*\.|\bhttp\s*\.\s*client\b|\bhttplib\b|\bftplib\b|\bsmtplib\b|\btelnetlib\b|\bparamiko\b|\baiohttp\b|\bhttpx\b|\bwebsocket/i, why: 'opens network connections' },
  { re: /\bnet\s*\.\s*(?:connect|createConnection|Socket|createServer)\b|require\s*\(\s*['"`](?:node:)?(?:net|dgram|tls|http|https|http2)['"`]\s*\)|from\s+['"](?:node:)?(?:net|dgram|tls|http|https|http2)['"]|\bfetch\s*\(|\bXMLHttpRequest\b|\bWebSocket\b|\bDeno\s*\.\s*(?:connect|listen)/, why: 'opens network connections' },
  { re: /IO::Socket|\bLWP\b|HTTP::Tiny|\bNet::|\bTCPSocket\b|\bUDPSocket\b|open-uri|URI\s*\.\s*open|\bfsockopen\b|stream_socket_client|\bcurl_init\b|file_get_contents\s*\(\s*['"](?:https?|ftp):|\/dev\/tcp\//, why: 'opens network connections' },
  { re: /\.ssh\b|\.aws\b|\.gnupg|\.netrc|\.git-credentials|\.docker\/config|\.kube\/config|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\/etc\/(?:g?shadow|sudoers)|\/proc\/[^/'"]+\/environ|\.agentcli|\.config\/gcloud|\.vault-token/, why: 'reads or writes credential files' },
  { re: /\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zshenv|zprofile|zlogin)\b|authorized_keys|\bcrontab\b|\/etc\/cron|LaunchAgents|LaunchDaemons|\.config\/autostart|\.git\/hooks|systemd\/(?:system|user)/, why: 'changes files that run code later (shell startup files, authorized_keys, cron, git hooks)' },
  { re: /\b(?:eval|exec|compile|__import__|importlib|getattr|globals|vars|setattr)\s*\(|\b__builtins__\b|\b__subclasses__\b|\b__globals__\b|\bctypes\b|\bcffi\b|\bmarshal\s*\.\s*loads|\bpickle\s*\.\s*loads/, why: 'runs code built at run time (eval, exec, reflection), which cannot be judged', only: ['python'] },
  { re: /\beval\s*\(|\bnew\s+Function\b|\bFunction\s*\(|\bconstructor\s*\.\s*constructor\b|\bconstructor\s*\[|\bmodule\s*\.\s*constructor\b|\b_load\s*\(|\bglobalThis\s*\[|\bglobal\s*\[|\bprocess\s*\[|\brequire\s*\[|\bvm\s*\.\s*run|\brequire\s*\(\s*['"]vm['"]|\bimport\s*\(|\bfromCharCode\b|\batob\s*\(/, why: 'runs code built at run time (eval, Function, reflection), which cannot be judged', only: ['node'] },
  { re: /\beval\b|&\s*\{|&\s*\$|\*\s*\{\s*["'$]|->\s*can\b|\bdo\s+["'$]|\brequire\s+\$|\bpack\s*\(/, why: 'runs code built at run time (eval, symbolic references), which cannot be judged', only: ['perl'] },
  { re: /\b(?:eval|instance_eval|class_eval|module_eval|send|__send__|public_send|const_get|method|define_method)\b|\bFiddle\b|\bObjectSpace\b/, why: 'runs code built at run time (eval, send, reflection), which cannot be judged', only: ['ruby'] },
  { re: /\b(?:eval|assert|create_function|call_user_func(?:_array)?|array_map|array_filter|usort|preg_replace_callback|register_shutdown_function|ReflectionFunction|unserialize)\s*\(|\$\w+\s*\(|\b(?:include|require)(?:_once)?\s*\(?\s*['"](?:https?|ftp|php|data|phar|expect):|\bFFI\b/, why: 'runs code built at run time (eval, variable functions), which cannot be judged', only: ['php'] },
  { re: /\bload(?:string|file)?\s*\(|\bdofile\b|\brequire\s*\(\s*[^'"]|\bdebug\s*\./, why: 'runs code built at run time (load), which cannot be judged', only: ['lua'] },
  { re: /\beval\s*\(|\bparse\s*\(|\bdo\.call\b|\bget\s*\(|\bsource\s*\(/, why: 'runs code built at run time (eval, do.call), which cannot be judged', only: ['r'] },
];

/** A `require(...)` whose argument is not one plain string (`require('child' + '_process')`). */
function hasDynamicRequire(code: string): boolean {
  for (const m of code.matchAll(/\brequire\s*\(([^)]*)\)/g)) {
    if (!/^\s*(['"`])[^'"`$+]*\1\s*$/.test(m[1] ?? '')) return true;
  }
  return false;
}

/** Why running this inline code is risky, or undefined for code that only computes and prints. */
export function codeRisk(language: Language, code: string): string | undefined {
  if (language === 'powershell' || language === 'tcl') return `runs ${language} code, which cannot be analysed`;
  for (const rule of RULES) {
    if (rule.only && !rule.only.includes(language)) continue;
    if (rule.re.test(code)) return `runs ${language} code that ${rule.why}`;
  }
  if (language === 'node' && hasDynamicRequire(code)) return 'runs node code that loads a module named at run time, which cannot be judged';
  return undefined;
}

/** Is this a sed script that runs commands (`e`, `s///e`) or writes files (`w file`)? */
export function sedScriptRisk(script: string): string | undefined {
  if (/(?:^|[;\n{}])\s*e(?:\s|$)|\/[gpiImM0-9]*e[gpiImM0-9]*\s*(?:$|[;\n}])/.test(script)) return 'runs commands from a sed script (e)';
  if (/(?:^|[;\n{}])\s*w\s+\S|\/[gpiImM0-9]*w\s+\S/.test(script)) return 'writes files from a sed script (w)';
  return undefined;
}
