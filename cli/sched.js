#!/usr/bin/env node
// The `sched` bin: loads the TypeScript sources through tsx, so `npx sched` works right after
// `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
