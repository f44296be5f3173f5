// Ids for runs, turns, changes and temp files: unique within and across processes, not secrets. Built without
// node:crypto, which would add its load time to every CLI start.
let counter = 0;

/** 12 hex-like characters: time, process id, a counter and randomness. */
export function uniqueSuffix(): string {
  counter = (counter + 1) % 0x10000;
  const mix = (Date.now() * 0x10000 + counter) ^ (process.pid << 8);
  const rand = Math.floor(Math.random() * 0x1000000);
  return ((mix >>> 0).toString(16).padStart(8, '0') + rand.toString(16).padStart(6, '0')).slice(-12);
}
