// The `sched` command line (docs/commands.md): runs cli/dispatch.ts on the process's arguments and
// makes sure the process exits by itself (the solver processes stopped).

import { shutdownZ3 } from '../smt/z3.ts';
import { sched } from './dispatch.ts';

const code = await sched(process.argv.slice(2));
await shutdownZ3();
process.exitCode = code;
