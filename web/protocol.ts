// What the playground page and the engines exchange (web/api.ts answers, web/server.ts carries
// it as JSON over HTTP, web/page/ draws it). Types only: the page imports nothing else from the
// engines. Every field is what an engine computed; nothing here is filled in by the page.

export type JsonValue = number | string | boolean | null;

/** A parse, type, well-formedness or parameter error at a source position (1-based). */
export interface Diag {
  readonly line: number;
  readonly col: number;
  readonly phase: string;
  readonly message: string;
}

export interface ImplInfo {
  readonly name: string;
  readonly spec: string;
  readonly line: number;
  readonly params: readonly string[];
  /** Parameter values to start from: the file's `// RUN name: --param …` line, else the least values the assumptions allow. */
  readonly defaults: Readonly<Record<string, string>>;
  /** The file's `// EXPECT` line for this impl, if any. */
  readonly expect: string | null;
}

export interface CheckAnswer {
  readonly diagnostics: readonly Diag[];
  readonly impls: readonly ImplInfo[];
  readonly ms: number;
}

/** What every engine request names: the text, a file name for messages, the impl and parameters. */
export interface EngineRequest {
  readonly source: string;
  readonly file: string;
  readonly impl: string;
  readonly params: Readonly<Record<string, string>>;
  readonly seed?: string;
}

/** Errors that stop an engine before it runs (bad text, bad parameters): shown in the editor. */
export interface Refused {
  readonly refused: true;
  readonly diagnostics: readonly Diag[];
}

/** Compute time of one answer: wall clock, and CPU of the serving process and its solver child. */
export interface Cost {
  readonly wallMs: number;
  readonly cpuMs: number | null;
}

// ---------------------------------------------------------------------------------------------
// run

export interface MemoryTable {
  readonly name: string;
  /** `input`, `output`, `array`, or `local` (an instance of an allocate). */
  readonly role: string;
  readonly elem: string;
  readonly dims: readonly number[];
  /** Row-major cells (null is ⊥), at most `MAX_TABLE_CELLS`. */
  readonly cells: readonly JsonValue[];
  readonly truncated: boolean;
}

export interface DerivNode {
  readonly rule: string;
  readonly line: number;
  readonly col: number;
  /** `i = 0, j = 1` (affine variables in scope, parameters excepted). */
  readonly env: string;
  /** Rule facts: bound, condition, location := value, … */
  readonly facts: string;
  /** δμ (first entries) and its size; ρ's size. */
  readonly dmu: string;
  readonly dmuSize: number;
  readonly rhoSize: number;
  readonly premises: readonly DerivNode[];
  /** Premises left out to keep the answer small. */
  readonly omitted: number;
}

export interface RunRequest extends EngineRequest {
  readonly family?: string;
  /** Explicit input values (a replay of a solver's counterexample). */
  readonly inputValues?: readonly { readonly tensor: string; readonly point: readonly string[]; readonly value: string }[];
  readonly checkAnnotations?: boolean;
}

export interface RunError {
  readonly kind: string;
  readonly rule: string;
  readonly message: string;
  readonly line: number;
  readonly col: number;
  readonly location: string | null;
  readonly other: { readonly line: number; readonly col: number } | null;
  readonly iterations: { readonly loop: string; readonly line: number; readonly first: number; readonly second: number } | null;
  readonly env: Readonly<Record<string, string>>;
}

export interface RunAnswer {
  readonly impl: string;
  readonly outcome: 'match' | 'mismatch' | 'error' | 'sliced';
  readonly error: RunError | null;
  readonly summary: string;
  readonly mismatches: readonly { readonly array: string; readonly index: readonly number[]; readonly expected: JsonValue; readonly actual: JsonValue }[];
  readonly before: readonly MemoryTable[];
  readonly after: readonly MemoryTable[];
  readonly derivation: DerivNode | null;
  readonly derivationNodes: number;
  readonly cost: Cost;
}

// ---------------------------------------------------------------------------------------------
// step

/** A small-step configuration's term, as a tree (sequences and ‖ flattened). */
export type TermView =
  | { readonly k: 'skip' }
  | { readonly k: 'code'; readonly text: string; readonly env: string; readonly line: number }
  | { readonly k: 'loop'; readonly text: string; readonly env: string; readonly line: number; readonly from: number; readonly n: number }
  | { readonly k: 'seq'; readonly items: readonly TermView[] }
  | { readonly k: 'par'; readonly threads: readonly TermView[] }
  | { readonly k: 'inalloc'; readonly array: string; readonly body: TermView };

export interface StepInfo {
  /** Rules of the step's derivation, root first, runs compressed (`SEQ-CTX ▸ PAR-R ▸ ASSIGN`). */
  readonly rules: string;
  /** The axiom (`ASSIGN`, `IF-TRUE`, `PARLOOP`, …). */
  readonly rule: string;
  /** The thread: the path of PAR-L / PAR-R taken (`L`, `R·L`, `·` at top level). */
  readonly thread: string;
  readonly line: number | null;
  readonly text: string;
}

export interface StepRequest extends EngineRequest {
  /** The index, among the enabled steps, of each step taken from the initial configuration. */
  readonly choices: readonly number[];
}

export interface StepAnswer {
  readonly impl: string;
  readonly taken: readonly StepInfo[];
  readonly term: TermView;
  readonly memory: readonly MemoryTable[];
  /** The memory of the initial configuration (to show what the steps changed). */
  readonly initial: readonly MemoryTable[];
  readonly enabled: readonly StepInfo[];
  /** Redexes where no rule applies (why a configuration is stuck). */
  readonly blocked: readonly RunError[];
  /** `running`, `final` (skip), or `stuck`. */
  readonly status: 'running' | 'final' | 'stuck';
  /** For a final configuration: the outputs compared with the spec. */
  readonly comparison: string | null;
  readonly cost: Cost;
}

// ---------------------------------------------------------------------------------------------
// explore

export interface ExploreRequest extends EngineRequest {
  readonly por: boolean;
  readonly maxStates?: number;
}

export interface GraphNode {
  readonly id: number;
  /** Length of the shortest schedule reaching it. */
  readonly depth: number;
  readonly kind: 'initial' | 'inner' | 'final' | 'stuck' | 'unexplored';
  /** For final states: which distinct final memory (0-based). */
  readonly final: number | null;
}

export interface GraphEdge {
  readonly from: number;
  readonly to: number;
  readonly rule: string;
  readonly thread: string;
  readonly text: string;
}

export interface ExploreAnswer {
  readonly impl: string;
  readonly outcome: 'deterministic' | 'nondeterministic' | 'stuck' | 'limit';
  readonly por: boolean;
  readonly states: number;
  readonly transitions: number;
  readonly finals: number;
  readonly stuckStates: number;
  readonly limit: string | null;
  readonly graph: { readonly nodes: readonly GraphNode[]; readonly edges: readonly GraphEdge[]; readonly truncated: boolean };
  /** The first two distinct final memories, each with a schedule reaching it. */
  readonly witnesses: readonly { readonly memory: readonly MemoryTable[]; readonly schedule: readonly StepInfo[] }[];
  readonly stuck: { readonly schedule: readonly StepInfo[]; readonly blocked: readonly RunError[] } | null;
  readonly bigStep: string;
  readonly cost: Cost;
}

// ---------------------------------------------------------------------------------------------
// verify

export interface VerifyRequest {
  readonly source: string;
  readonly file: string;
  readonly impl: string;
  readonly timeoutMs?: number;
  readonly float?: string;
}

export interface ObligationView {
  readonly id: string;
  readonly kind: string;
  readonly rule: string;
  readonly line: number;
  readonly col: number;
  readonly description: string;
  readonly status: 'proved' | 'refuted' | 'unknown';
  readonly ms: number;
  readonly reason: string | null;
}

export interface VerifyAnswer {
  readonly impl: string;
  readonly spec: string;
  readonly verdict: 'valid' | 'invalid' | 'unknown';
  readonly class: string | null;
  readonly reason: string | null;
  readonly assumptions: string | null;
  readonly float: string;
  readonly counterexample: { readonly values: Readonly<Record<string, string>>; readonly line: number; readonly col: number; readonly obligation: string; readonly description: string } | null;
  /** The run that shows an invalid verdict, ready to send as a run request. */
  readonly replay: { readonly params: Readonly<Record<string, string>>; readonly seed: number; readonly inputs: string; readonly annotations: boolean; readonly inputValues: RunRequest['inputValues']; readonly class: string; readonly shows: string } | null;
  readonly obligations: readonly ObligationView[];
  /** The symbolic evaluation, as thesis Fig. 5.5: one line per rule entered (=>) or left (<=). */
  readonly log: readonly { readonly depth: number; readonly text: string }[];
  readonly timings: { readonly symbolic: number; readonly presburger: number; readonly smt: number; readonly replay: number };
  /** Where to download the certificate bundle (a .tar.gz), or null where none is kept. */
  readonly bundle: string | null;
  readonly cost: Cost;
}

export interface Example {
  /** Path under corpus/ (`thesis/ch1-matmul-accumulator.sched`). */
  readonly path: string;
  readonly title: string;
}
