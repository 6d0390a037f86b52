import { parseFormula, eliminateWithZ3 } from '../core/presburger/index.ts';
import { shutdownZ3 } from '../smt/z3.ts';
const f = parseFormula('exists q : 0 <= q <= M and floor(q/7) + floor(q/11) + floor(q/13) = N');
const t = performance.now();
await eliminateWithZ3(f, { timeoutMs: 2_000 });
console.log('ms', performance.now() - t);
await shutdownZ3(); process.exit(0);
