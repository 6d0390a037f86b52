// What commands share about their input and output: the `--spec` option and JSON printing.

/** `--spec FILE`: specs to check implementations against (for every command that reads files). */
export const SPEC_OPTION = { name: 'spec', value: true, metavar: 'FILE', help: "read the specs from FILE too (an implementation printed by a compiler need not contain its spec); FILE or an input may be '-' for standard input" } as const;

/** Print JSON with bigints as numbers when safe, else as strings. */
export function toJson(x: unknown): string {
  return JSON.stringify(
    x,
    (_k, v: unknown) => (typeof v === 'bigint' ? (v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString()) : v),
    2,
  );
}
