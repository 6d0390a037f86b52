// What compilers/halide/driver.py reports of a pipeline (its Funcs and their definitions, the
// lowered IR), and the error for constructs the translation does not handle. Shared by the
// translation (translate.ts) and the rfactor reader (rfactor.ts), which import it, not each other.

/** A Func as the driver reports it: its pure definition and its updates, as Halide prints them. */
export interface DriverFunc {
  readonly name: string;
  readonly args: readonly string[];
  readonly type: string;
  readonly pure: string;
  readonly updates: readonly {
    readonly args: readonly string[];
    readonly value: string;
    readonly rvars: readonly string[];
    /** The predicates given to the update's RDom (`RDom.where`), as the driver recorded them. */
    readonly where?: readonly string[];
  }[];
}

/** What compilers/halide/driver.py prints. */
/** A value of pipeline()'s `example`: an integer as decimal text (exact at every width), a float as a number. */
export type ExampleValue = string | number;

export interface DriverOutput {
  readonly output: string;
  readonly outputType: string;
  readonly outputDims: number;
  readonly funcs: readonly DriverFunc[];
  readonly inputs: readonly { readonly name: string; readonly dims: number; readonly type: string }[];
  readonly params: readonly { readonly name: string; readonly type: string }[];
  readonly traced: { readonly pass21: string | null; readonly final: string | null; readonly initial: string | null; readonly error?: string };
  readonly plain: { readonly pass21: string | null; readonly final: string | null; readonly initial: string | null };
  readonly ms: { readonly traced: number; readonly plain: number };
  /** pipeline()'s `example` sizes; null: too large for the JIT oracle; 'choose': not given (sched chooses small sizes). */
  readonly example?: Record<string, ExampleValue | ExampleValue[]> | null | 'choose';
  /** pipeline()'s `assume`: conditions over buffer fields and Params, in Halide's names. */
  readonly assume?: readonly string[];
  /**
   * With pipeline()'s `schedule` hook: the algorithm as written, before the schedule ran (the
   * definitions, and the IR of its lowering with every Func at the root, for the RDom bounds).
   * The spec comes from it; `funcs` are then the definitions after the schedule.
   */
  readonly algorithm?: { readonly funcs: readonly DriverFunc[]; readonly pass21: string | null; readonly initial: string | null };
  /**
   * The first lowering pass of the definitions with every Func at the root, its float constants
   * printed exactly (constants.ts), or why it failed: only when the traced lowering inlines some.
   */
  readonly definitions?: { readonly initial?: string | null; readonly error?: string };
  /** Whether Halide's printer was made to print float constants exactly (driver.py, exact_floats()). */
  readonly exactFloats?: boolean;
  /** The target has the feature strict_float (every float operation as written, IEEE). */
  readonly strictFloat?: boolean;
  /** Halide's target string (`x86-64-linux-avx2-…`): its features (large_buffers) decide limits. */
  readonly target?: string;
}

/** A construct the translator does not handle: the message starts with `unsupported: <kind>`. */
export class Unsupported extends Error {
  constructor(readonly kind: string, detail: string) {
    super(`unsupported: ${kind}${detail ? `: ${detail}` : ''}`);
    this.name = 'Unsupported';
  }
}
