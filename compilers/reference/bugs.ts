// Injectable lowering bugs (`sched fuzz --inject NAME`, `sched lower --inject NAME`): each one is
// a realistic mistake of a scheduling compiler, switched on in the reference compiler at the place
// where a real compiler would make it. The fuzzer's cross-check must find every one of them.

export const BUGS = {
  'off-by-one-tail': 'the last tile of a split is off by one: ShiftInwards shifts to extent − factor + 1, GuardWithIf guards with <= instead of <',
  'missing-tail-guard': 'a GuardWithIf split emits no guard (the tail tile runs past the extent)',
  'shift-inwards-update': 'splits of pure variables in update stages use ShiftInwards, so the overlapping last tile re-applies the update',
  'parallel-recurrence': 'parallel(v) on an update stage also parallelises the reduction loops nested inside v',
  'wrong-compute-at-level': 'bounds of a compute_at producer are inferred for one iteration of the next inner loop instead of the whole compute level',
  'dropped-update-stage': 'update stages of Funcs other than the output are not emitted',
  'swapped-loop-extents': 'reorder permutes the loop variables but leaves the extents in place',
  'wrong-fold-factor': 'storage folding uses one row fewer than the sliding window footprint',
  'sliding-no-warmup': 'a sliding window computes only the new rows, also on the first iteration',
  'input-halo-dropped': 'the boxes of input arrays ignore the constant offsets of stencil reads',
  'unroll-drop-last': 'unrolling emits one copy fewer than the loop extent',
  'specialize-inverted': 'a specialised branch is taken when its condition is false',
} as const;

export type BugName = keyof typeof BUGS;

export const BUG_NAMES = Object.keys(BUGS) as BugName[];

export function isBugName(s: string): s is BugName {
  return (BUG_NAMES as string[]).includes(s);
}
