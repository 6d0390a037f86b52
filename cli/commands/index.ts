// Every `sched` command, in the order `sched help` lists them. This list is the command line's
// contract: the dispatcher (cli/dispatch.ts), `sched help` and docs/commands.md (cli/help.ts) all
// read it, and test/commands-doc.test.ts holds the page to it. A new command is added here.
// Each command's module is loaded when it is run: importing them all (the verifier, both compiler
// front ends, the fuzzers) took 0.4 s of every start, half of `sched check`'s whole time.

import type { Command } from '../command.ts';

const LOADERS: Readonly<Record<string, () => Promise<Command>>> = {
  check: async () => (await import('./check.ts')).checkCommand,
  run: async () => (await import('./run.ts')).runCommand,
  step: async () => (await import('./step.ts')).stepCommand,
  explore: async () => (await import('./explore.ts')).exploreCommand,
  derivation: async () => (await import('./derivation.ts')).derivationCommand,
  verify: async () => (await import('./verify.ts')).verifyCommand,
  corpus: async () => (await import('./corpus.ts')).corpusCommand,
  recheck: async () => (await import('./recheck.ts')).recheckCommand,
  lower: async () => (await import('./lower.ts')).lowerCommand,
  halide: async () => (await import('./halide.ts')).halideCommand,
  mlir: async () => (await import('./mlir.ts')).mlirCommand,
  fuzz: async () => (await import('./fuzz.ts')).fuzzCommand,
  serve: async () => (await import('./serve.ts')).serveCommand,
};

/** The commands' names, in the order of `sched help`. */
export const COMMAND_NAMES: readonly string[] = Object.keys(LOADERS);

/** The command NAME (its module loaded), or undefined when there is none of that name. */
export async function loadCommand(name: string): Promise<Command | undefined> {
  const load = Object.hasOwn(LOADERS, name) ? LOADERS[name] : undefined;
  if (load === undefined) return undefined;
  const c = await load();
  if (c.name !== name) throw new Error(`cli/commands/index.ts: the module of '${name}' defines '${c.name}'`);
  return c;
}

/** Every command, in the order of `sched help` (all their modules loaded). */
export async function loadCommands(): Promise<readonly Command[]> {
  return Promise.all(COMMAND_NAMES.map(async (n) => (await loadCommand(n))!));
}
