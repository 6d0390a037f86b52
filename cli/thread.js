// The worker thread of the `sched` bin (cli/sched.js): TypeScript through tsx, then the command.
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
