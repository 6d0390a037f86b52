// `sched ARGS…` in the test's own process (cli/dispatch.ts, as the bin runs it), with what it
// prints captured: the same command text, without a process start per command.

import { sched } from '../cli/dispatch.ts';

export interface Captured {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

export async function schedInProcess(argv: readonly string[]): Promise<Captured> {
  let out = '';
  let err = '';
  const w1 = process.stdout.write.bind(process.stdout);
  const w2 = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((s: string | Uint8Array) => ((out += String(s)), true)) as typeof process.stdout.write;
  process.stderr.write = ((s: string | Uint8Array) => ((err += String(s)), true)) as typeof process.stderr.write;
  try {
    return { code: await sched(argv), out, err };
  } finally {
    process.stdout.write = w1;
    process.stderr.write = w2;
  }
}
