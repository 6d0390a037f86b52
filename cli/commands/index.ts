// Every `sched` command, in the order `sched help` lists them. This list is the command line's
// contract: the dispatcher (cli/dispatch.ts), `sched help` and docs/commands.md (cli/help.ts) all
// read it, and test/commands-doc.test.ts holds the page to it. A new command is added here.

import type { Command } from '../command.ts';
import { checkCommand } from './check.ts';
import { corpusCommand } from './corpus.ts';
import { derivationCommand } from './derivation.ts';
import { exploreCommand } from './explore.ts';
import { fuzzCommand } from './fuzz.ts';
import { halideCommand } from './halide.ts';
import { lowerCommand } from './lower.ts';
import { recheckCommand } from './recheck.ts';
import { runCommand } from './run.ts';
import { serveCommand } from './serve.ts';
import { stepCommand } from './step.ts';
import { verifyCommand } from './verify.ts';

export const COMMANDS: readonly Command[] = [checkCommand, runCommand, stepCommand, exploreCommand, derivationCommand, verifyCommand, corpusCommand, recheckCommand, lowerCommand, halideCommand, fuzzCommand, serveCommand];
