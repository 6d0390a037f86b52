// `sched recheck`: re-run every certificate of a bundle with independent solvers. It trusts
// nothing of sched but the manifest's list of files: hashes are checked first (tampering is a
// failure), each file's declared `:status` must agree with the manifest, and each solver's answer
// must agree with the expected one.

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type SExpr, parseSExprs, printSExpr } from '../../smt/sexpr.ts';
import { runZ3 } from '../../smt/z3.ts';
import { cpuNetMs, cvc5RlimitOf, rlimitOf, solverLimits, wallMs } from '../../smt/limits.ts';
import { type Manifest, sha256 } from './certificates.ts';

const run = promisify(execFile);

export type SolverName = 'wasm' | 'z3' | 'cvc5';

export interface RecheckRow {
  readonly bundle: string;
  readonly id: string;
  readonly solver: SolverName | '-';
  readonly expected: string;
  readonly got: string;
  /** agree: the solver confirms; unconfirmed: it answered unknown; fail: disagreement or tampering. */
  readonly status: 'agree' | 'unconfirmed' | 'fail';
  readonly ms: number;
  readonly note: string | null;
}

/** Bundle directories under `dir` (itself if it holds a manifest), sorted. */
export function findBundles(dir: string): string[] {
  if (existsSync(join(dir, 'manifest.json'))) return [dir];
  const out: string[] = [];
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return out;
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...findBundles(p));
  }
  return out;
}

/** The verdict a bundle's manifest records (null if unreadable). */
export function bundleVerdict(dir: string): string | null {
  try {
    return (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest).verdict;
  } catch {
    return null;
  }
}

/** Is the command-line solver installed? */
export async function available(s: SolverName): Promise<boolean> {
  if (s === 'wasm') return true;
  try {
    await run(s, ['--version'], { timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

function firstAnswer(out: string): string {
  for (const raw of out.split('\n')) {
    const l = raw.trim();
    if (l === 'sat' || l === 'unsat' || l === 'unknown') return l;
  }
  const err = /\(error "([^"]*)"\)/.exec(out);
  return err ? `error: ${err[1]}` : out.trim().split('\n')[0] || 'no answer';
}

/**
 * cvc5 configurations tried in turn while the answer is neither sat nor unsat (each is sound; they
 * differ in how quantifiers are instantiated). Measured on the corpus's bundles with cvc5 1.0.3:
 * a value certificate over a recursive spec's axioms is `unknown` in 15 ms by default and unsat
 * with enumerative instantiation; an elimination certificate `∀v. …` over one integer times out
 * by default and is unsat with `--cegqi-min-bounds` or `--global-negate`. Last, without the
 * rounding heuristic of branch and bound: sdot's vc080 (div by 8 under `ite`) and
 * filtered_strided's elim009.1 get no answer in 20 s by default, and unsat in 0.2 s without it.
 */
const CVC5_PORTFOLIO: readonly (readonly string[])[] = [[], ['--full-saturate-quant'], ['--cegqi-min-bounds'], ['--global-negate'], ['--no-arith-brab']];

/**
 * For a quantifier-free linear-integer script, cvc5's own per-logic configuration first (the one
 * of its SMT-COMP entry: MIP-style cuts, unconstrained and ite simplification). Its default
 * branch-and-bound gives no answer in 50 s on small unbounded QF_LIA texts whose refutation needs
 * a congruence (partial_sums elim010.1: `sk ≡ x (mod 4)` over unbounded N, x); this configuration
 * refutes them in ~25 ms, and answers every other QF_LIA text of ch7-reductions as the default does.
 */
function cvc5Configs(text: string): readonly (readonly string[])[] {
  return /^\(set-logic QF_LIA\)/m.test(text) ? [['--use-portfolio'], ...CVC5_PORTFOLIO] : CVC5_PORTFOLIO;
}

/**
 * The script without the instance assertion an elimination certificate's direction 2 ends with
 * (core/presburger/certificate.ts), or null when it has none. Instances usually guide a solver to
 * the witnesses; cvc5 1.0.3 answers partial_sums' elim010.2 in 0.3 s without them and not in 50 s
 * with them.
 */
export function withoutInstances(text: string): string | null {
  if (!/^; the last assertion: \d+ instances? /m.test(text)) return null;
  const lines = text.split('\n');
  let i = lines.length - 1;
  while (i >= 0 && (lines[i]!.trim() === '' || lines[i]!.trim() === '(check-sat)')) i--;
  if (i < 0 || !lines[i]!.startsWith('(assert ')) return null;
  return [...lines.slice(0, i), ...lines.slice(i + 1)].join('\n');
}

/** An answer that ends the search: sat, unsat or an error (not a timeout or unknown). */
function decided(answer: string): boolean {
  return answer === 'sat' || answer === 'unsat' || answer.startsWith('error');
}

/** At most this many constants get splits: n·(n−1) assertions. */
const MAX_SPLIT_CONSTANTS = 8;

/**
 * The script with, for every ordered pair (a, b) of its integer constants, the assertion
 * `a <= b or a >= b + 1`: of all of them when there are at most 8, else of its auxiliary ones
 * (`sk!…` and `quot!…`, which a certificate introduces for existentials and quotients). Each is
 * valid over the integers, so the script's answer is unchanged (sat and unsat alike). They are the
 * branches a refutation needs when it rests on a rounding no single constraint shows: in dsc's
 * elim055.1, `16v + 1 <= 3CI <= 16q` gives `v < q`, hence `v <= q − 1`, only through CI; in
 * benign_halves' vc014, `2x <= i <= 2y + 1` gives `x <= y`. cvc5 1.0.3's branch and bound, on
 * these unbounded variables, gives no answer in 60 s, and with the splits answers in
 * milliseconds. Null when there is no pair or too many.
 */
export function withIntegerSplits(text: string): string | null {
  const all = [...text.matchAll(/^\(declare-const (\S+) Int\)$/gm)].map((m) => m[1]!);
  const names = all.length <= MAX_SPLIT_CONSTANTS ? all : all.filter((n) => /^(?:sk|quot)!/.test(n));
  if (names.length < 2 || names.length > MAX_SPLIT_CONSTANTS) return null;
  const at = text.lastIndexOf('(check-sat)');
  if (at < 0) return null;
  const splits = names.flatMap((a) => names.filter((b) => b !== a).map((b) => `(assert (or (<= ${a} ${b}) (>= ${a} (+ ${b} 1))))\n`));
  return `${text.slice(0, at)}; integer splits (valid over Int), added by sched recheck\n${splits.join('')}${text.slice(at)}`;
}

function quantified(e: SExpr): boolean {
  return typeof e !== 'string' && (e[0] === 'forall' || e[0] === 'exists' || e.some(quantified));
}

/** The quantifier-free conjuncts of an assertion's body (`(! φ :named n)` unwrapped). */
function qfConjuncts(e: SExpr): SExpr[] {
  if (typeof e !== 'string' && e[0] === '!') return qfConjuncts(e[1]!);
  if (typeof e !== 'string' && e[0] === 'and') return e.slice(1).flatMap(qfConjuncts);
  return quantified(e) ? [] : [e];
}

/**
 * The script with every conjunct that holds a quantifier dropped (from its assertion, or the
 * assertion whole), or null when it has none. Each assertion left is implied by the original's, so
 * an unsat of it is the original's (a sat is not). For a direction-2 elimination certificate that
 * leaves the claim and the instances of the denial: the witnesses alone refute it. The in-process
 * Z3 (z3-solver 5.2) gives no answer in 90 s on nl_means' elim081.2 as written (z3 4.8.12: 1.1 s),
 * and refutes its quantifier-free part in ~18 s at load 3 (z3 4.8.12: 2.2 s).
 */
export function quantifierFreePart(text: string): string | null {
  let cmds: SExpr[];
  try {
    cmds = parseSExprs(text);
  } catch {
    return null;
  }
  let dropped = false;
  const out: string[] = [];
  for (const c of cmds) {
    if (typeof c !== 'string' && c[0] === 'assert' && quantified(c[1]!)) {
      dropped = true;
      const kept = qfConjuncts(c[1]!);
      if (kept.length > 0) out.push(printSExpr(['assert', kept.length === 1 ? kept[0]! : ['and', ...kept]]));
      continue;
    }
    out.push(typeof c !== 'string' && c[0] === 'set-logic' && c[1] === 'LIA' ? '(set-logic QF_LIA)' : printSExpr(c));
  }
  return dropped ? `${out.join('\n')}\n` : null;
}

/** A disjunction of more disjuncts than this is not split into cases. */
const MAX_CASES = 16;

/**
 * The script once per disjunct of its widest disjunction: of the conjuncts of its assertions
 * (`(! φ :named n)` unwrapped), the `(or R1 … Rn)` with the most disjuncts (2 ≤ n ≤ 16), replaced
 * by Ri in the i-th script. The script is unsat exactly when every case is, and a model of a case
 * is a model of the script. Null when there is no such disjunction. An elimination certificate's
 * direction 2 asserts the result, a disjunction, and denies `∃v. ψ`: each case has its own
 * witness, which a solver finds more easily alone. cvc5 1.0.3 refutes the 8 cases of
 * nl_means_unshifted_tiles' elim082.2 in 0.1–15 s each, and the whole in none of its
 * configurations within 60 s.
 */
export function caseSplit(text: string): string[] | null {
  let cmds: SExpr[];
  try {
    cmds = parseSExprs(text);
  } catch {
    return null;
  }
  const found: { at: number; disjuncts: SExpr[]; rebuild: (d: SExpr) => SExpr }[] = [];
  const visit = (e: SExpr, rebuild: (x: SExpr) => SExpr, at: number): void => {
    if (typeof e === 'string') return;
    if (e[0] === '!') visit(e[1]!, (x) => rebuild(['!', x, ...e.slice(2)]), at);
    else if (e[0] === 'and') e.forEach((c, k) => k > 0 && visit(c, (x) => rebuild(e.map((y, j) => (j === k ? x : y))), at));
    else if (e[0] === 'or' && e.length >= 3 && e.length - 1 <= MAX_CASES) found.push({ at, disjuncts: e.slice(1), rebuild });
  };
  cmds.forEach((c, at) => typeof c !== 'string' && c[0] === 'assert' && visit(c[1]!, (x) => ['assert', x], at));
  if (found.length === 0) return null;
  // The first of the widest: deterministic for a given text.
  const best = found.reduce((a, b) => (b.disjuncts.length > a.disjuncts.length ? b : a));
  return best.disjuncts.map((d) => `${cmds.map((c, k) => printSExpr(k === best.at ? best.rebuild(d) : c)).join('\n')}\n`);
}

/**
 * Scripts a solver that gave no answer is asked again, each with what its answer proves of the
 * original: adding valid assertions keeps both answers; dropping one keeps only unsat.
 */
function variants(text: string): { text: string; label: string; keepsSat: boolean }[] {
  const out: { text: string; label: string; keepsSat: boolean }[] = [];
  const split = withIntegerSplits(text);
  if (split !== null) out.push({ text: split, label: 'with integer splits', keepsSat: true });
  // Dropping an assertion weakens a script: its unsat is the whole script's (its sat would not be).
  const bare = withoutInstances(text);
  if (bare !== null) out.push({ text: bare, label: 'without the instance assertion', keepsSat: false });
  const qf = quantifierFreePart(text);
  if (qf !== null) out.push({ text: qf, label: 'its quantifier-free part', keepsSat: false });
  return out;
}

/** The budget of the first round of `solve`, at most an eighth of the whole. */
const FIRST_ROUND_MS = 4000;

/**
 * Every way of asking (configurations, variants, cases) in a first round with a short budget, then
 * again with the whole one. When an answer comes, it mostly comes in a second or less, but often
 * only in a configuration or variant tried late: with the whole budget from the start, cvc5 1.0.3
 * took 240 s to refute sc1_shared_window's elim077.1 (four configurations timing out before the
 * integer splits, which answer in 0.2 s).
 */
async function solve(s: SolverName, file: string, text: string, timeoutMs: number): Promise<{ answer: string; ms: number; config?: string }> {
  const t0 = performance.now();
  const first = Math.min(FIRST_ROUND_MS, Math.ceil(timeoutMs / 8));
  let r = await solveRound(s, file, text, first);
  if (!decided(r.answer) && first < timeoutMs) r = await solveRound(s, file, text, timeoutMs);
  return { ...r, ms: performance.now() - t0 };
}

async function solveRound(s: SolverName, file: string, text: string, timeoutMs: number): Promise<{ answer: string; ms: number; config?: string }> {
  const t0 = performance.now();
  const r = await solveAs(s, file, text, timeoutMs);
  if (decided(r.answer)) return r;
  for (const v of variants(text)) {
    const b = await inScratchFile(v.text, (f) => solveAs(s, f, v.text, Math.ceil(timeoutMs / 2)));
    if (b.answer === 'unsat' || (v.keepsSat && b.answer === 'sat')) return { answer: b.answer, ms: performance.now() - t0, config: `${b.config ? `${b.config}, ` : ''}${v.label}` };
  }
  // Last, case by case, each with half the budget: the first case left undecided ends it.
  const cases = caseSplit(text) ?? [];
  const configs = new Set<string>();
  for (const [k, c] of cases.entries()) {
    const b = await inScratchFile(c, (f) => solveAs(s, f, c, Math.ceil(timeoutMs / 2)));
    if (b.config) configs.add(b.config);
    const label = (how: string): string => [...configs, how].join(', ');
    if (b.answer === 'sat') return { answer: 'sat', ms: performance.now() - t0, config: label(`case ${k + 1} of ${cases.length}`) };
    if (b.answer !== 'unsat') break;
    if (k === cases.length - 1) return { answer: 'unsat', ms: performance.now() - t0, config: label(`split into ${cases.length} cases`) };
  }
  return { ...r, ms: performance.now() - t0 };
}

/** `f` on a temporary file holding `text` (the command-line solvers read files), removed after. */
async function inScratchFile<T>(text: string, f: (file: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'sched-recheck-'));
  try {
    const file = join(dir, 'script.smt2');
    writeFileSync(file, text);
    return await f(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * One script asked of one solver as `recheck` asks it (configurations, then variants), from a
 * temporary file: for tests and for library users who hold a text rather than a bundle.
 */
export function askSolver(s: SolverName, text: string, timeoutMs: number): Promise<{ answer: string; ms: number; config?: string }> {
  return inScratchFile(text, (f) => solve(s, f, text, timeoutMs));
}

async function solveAs(s: SolverName, file: string, text: string, timeoutMs: number): Promise<{ answer: string; ms: number; config?: string }> {
  const t0 = performance.now();
  if (s === 'wasm') {
    const r = await runZ3(text.replace(/\(check-sat\)\s*$/, '') + '\n(check-sat)', { timeoutMs });
    return { answer: r.status === 'unknown' && r.reason?.startsWith('solver error') ? `error: ${r.reason}` : r.status, ms: performance.now() - t0 };
  }
  // Under resource limits (the default, smt/limits.ts) the budget is a count of the solver's own
  // steps, so that a row's answer does not depend on the machine or its load; the wall clock and
  // the CPU time of the process are only safety nets, far beyond it.
  const rlimit = solverLimits() === 'rlimit';
  if (s === 'z3') {
    const limit = rlimit ? [`rlimit=${rlimitOf(timeoutMs, 'native')}`] : [];
    return { answer: await runCommand('z3', ['-smt2', ...limit, `-T:${Math.ceil(wallMs(timeoutMs) / 1000)}`, file], timeoutMs), ms: performance.now() - t0 };
  }
  // The first configuration gets the whole budget, each fallback half of it.
  let answer = 'no answer';
  for (const [k, opts] of cvc5Configs(text).entries()) {
    const budget = k === 0 ? timeoutMs : Math.ceil(timeoutMs / 2);
    const limit = rlimit ? `--rlimit=${cvc5RlimitOf(budget)}` : `--tlimit=${budget}`;
    answer = await runCommand('cvc5', ['--lang=smt2', limit, ...opts, file], budget);
    // A cvc5 that does not know a configuration's option says so and has not looked at the script.
    if (/^error: .*option/i.test(answer) && opts.length > 0) continue;
    if (decided(answer)) return { answer, ms: performance.now() - t0, ...(opts.length > 0 ? { config: opts.join(' ') } : {}) };
  }
  return { answer, ms: performance.now() - t0 };
}

/**
 * A command-line solver's first answer. Under resource limits its safety nets are its CPU time
 * (`ulimit -t`, CPU_FACTOR times the budget) and the wall clock (WALL_FACTOR times), which only a
 * query its resource limit does not stop reaches; under time limits, the budget plus 5 s.
 */
async function runCommand(cmd: string, args: readonly string[], timeoutMs: number): Promise<string> {
  const rlimit = solverLimits() === 'rlimit';
  const [file, argv] = rlimit ? ['sh', ['-c', `ulimit -t ${Math.ceil(cpuNetMs(timeoutMs) / 1000)} && exec "$0" "$@"`, cmd, ...args]] : [cmd, args];
  try {
    const { stdout } = await run(file, [...argv], { timeout: wallMs(timeoutMs) + 5000, maxBuffer: 1 << 24 });
    return firstAnswer(stdout);
  } catch (e) {
    const err = e as { stdout?: string; killed?: boolean; signal?: string };
    if (err.killed || err.signal === 'SIGXCPU' || err.signal === 'SIGKILL') return 'unknown';
    return firstAnswer(err.stdout ?? '') || 'error';
  }
}

/**
 * Answers of one re-check run by solver and file content: a corpus's bundles repeat certificates
 * (the same elimination, the same obligation in several implementations; 18,710 elimination files
 * of the whole corpus hold 3,686 distinct texts), and a solver's answer to a text is all a row
 * reports. The first file asked is named in the rows that reuse its answer.
 */
export type AnswerCache = Map<string, Promise<{ answer: string; ms: number; first: string; config?: string }>>;

export async function recheckBundle(dir: string, solvers: readonly SolverName[], timeoutMs: number, progress?: (r: RecheckRow) => void, cache?: AnswerCache): Promise<RecheckRow[]> {
  const rows: RecheckRow[] = [];
  const push = (r: RecheckRow): void => {
    rows.push(r);
    progress?.(r);
  };
  let manifest: Manifest;
  try {
    const text = readFileSync(join(dir, 'manifest.json'), 'utf8');
    manifest = JSON.parse(text) as Manifest;
    // The manifest's own hash, to compare with one published beside the verdict: whoever edits a
    // certificate *and* its hash in the manifest changes this one.
    push({ bundle: dir, id: 'manifest.json', solver: '-', expected: 'sha256', got: sha256(text), status: 'agree', ms: 0, note: `${manifest.impl}: ${manifest.verdict}` });
  } catch (e) {
    push({ bundle: dir, id: 'manifest.json', solver: '-', expected: 'a manifest', got: 'unreadable', status: 'fail', ms: 0, note: String((e as Error).message) });
    return rows;
  }
  if (manifest.verdict === 'valid' && manifest.entries.some((e) => e.expected !== 'unsat')) {
    push({ bundle: dir, id: 'manifest.json', solver: '-', expected: 'every entry unsat for a valid verdict', got: 'an entry that is not', status: 'fail', ms: 0, note: 'inconsistent manifest' });
  }
  const listed = new Set(manifest.entries.map((e) => e.file));
  for (const f of readdirSync(dir)) {
    if (f.endsWith('.smt2') && !listed.has(f)) push({ bundle: dir, id: f, solver: '-', expected: 'listed in the manifest', got: 'an unlisted file', status: 'fail', ms: 0, note: 'extra file' });
  }
  for (const e of manifest.entries) {
    const path = join(dir, e.file);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      push({ bundle: dir, id: e.id, solver: '-', expected: e.expected, got: 'missing file', status: 'fail', ms: 0, note: e.file });
      continue;
    }
    if (sha256(text) !== e.sha256) {
      push({ bundle: dir, id: e.id, solver: '-', expected: e.sha256.slice(0, 12), got: sha256(text).slice(0, 12), status: 'fail', ms: 0, note: 'sha256 differs: the file was modified' });
      continue;
    }
    const declared = /\(set-info :status ([a-z]+)\)/.exec(text)?.[1];
    if (declared !== e.expected) {
      push({ bundle: dir, id: e.id, solver: '-', expected: e.expected, got: `:status ${declared ?? 'missing'}`, status: 'fail', ms: 0, note: 'declared status differs from the manifest' });
      continue;
    }
    for (const s of solvers) {
      const where = `${dir} ${e.id}`;
      const k = `${s} ${e.sha256}`;
      let asked = cache?.get(k);
      const reused = asked !== undefined;
      if (asked === undefined) {
        asked = solve(s, path, text, timeoutMs).then((r) => ({ ...r, first: where }));
        cache?.set(k, asked);
      }
      const { answer, ms, first, config } = await asked;
      // A timeout or `unknown` refutes nothing: unconfirmed (exit 2), never a failure (exit 1).
      const status = answer === e.expected ? 'agree' : answer === 'unknown' || answer === 'timeout' || answer === 'no answer' ? 'unconfirmed' : 'fail';
      push({ bundle: dir, id: e.id, solver: s, expected: e.expected, got: answer, status, ms: reused ? 0 : ms, note: [reused ? `same text as ${first}` : null, config ? `${s} ${config}` : null].filter((x) => x !== null).join('; ') || null });
    }
  }
  return rows;
}
