// "Did you mean …?" for names a user typed: the closest candidate by edit distance, when it is
// close enough to be a plausible typo (at most a third of the word, at least one edit).

function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1]!.toLowerCase() === b[j - 1]!.toLowerCase() ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}

/** `; did you mean 'X'?` or the empty string. */
export function didYouMean(typed: string, candidates: Iterable<string>): string {
  let best: string | null = null;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = distance(typed, c);
    if (d < bestD) {
      best = c;
      bestD = d;
    }
  }
  return best !== null && bestD <= Math.max(1, Math.floor(typed.length / 3)) ? `; did you mean '${best}'?` : '';
}
