import { spawn } from 'node:child_process';

export interface Sample {
  wallMs: number;
  cpuMs: number;
  maxRssMb: number;
  code: number | null;
  stdout: string;
}

/** Runs a command under /usr/bin/time to get wall time, CPU (user+sys) and peak RSS. */
export function measure(cmd: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const proc = spawn('/usr/bin/time', ['-f', '@@TIME %U %S %M', ...cmd], { cwd: opts.cwd, env: opts.env ?? process.env });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d) => (stdout += d));
    proc.stderr.on('data', (d) => (stderr += d));
    proc.on('error', reject);
    proc.on('exit', (code) => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      const m = /@@TIME ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
      if (!m) return reject(new Error(`no timing from /usr/bin/time: ${stderr}`));
      resolve({ wallMs, cpuMs: (Number(m[1]) + Number(m[2])) * 1000, maxRssMb: Number(m[3]) / 1024, code, stdout });
    });
  });
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export async function medianOf(n: number, f: () => Promise<Sample>): Promise<{ wallMs: number; cpuMs: number; maxRssMb: number }> {
  const samples: Sample[] = [];
  for (let i = 0; i < n; i++) samples.push(await f());
  return {
    wallMs: median(samples.map((s) => s.wallMs)),
    cpuMs: median(samples.map((s) => s.cpuMs)),
    maxRssMb: Math.max(...samples.map((s) => s.maxRssMb)),
  };
}
