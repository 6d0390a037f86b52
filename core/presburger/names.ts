// Variable names. Variables created by the layer (tuple variables, bound variables, auxiliaries of
// quantifier elimination) are `base$n` with a global counter, so they never collide with user names
// (the parser rejects `$`) nor with each other: capture is impossible by construction.

let counter = 0;

/**
 * Restart the numbering. Only safe when no formula made before is used again (every cache of
 * the layer cleared too): see proofs/verifier/fresh-state.ts, which makes certificates reproducible.
 */
export function resetFreshNames(): void {
  counter = 0;
}

/** The user-facing part of a name: `i$12` → `i`. */
export function baseName(v: string): string {
  const k = v.indexOf('$');
  return k < 0 ? v : v.slice(0, k);
}

/** A new variable name, never returned before. */
export function fresh(base = 'v'): string {
  counter++;
  return `${baseName(base) || 'v'}$${counter}`;
}

/** Was this name made by `fresh`? */
export function isFresh(v: string): boolean {
  return v.includes('$');
}
