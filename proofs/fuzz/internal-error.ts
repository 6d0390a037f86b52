// A throw of ours while a fuzzer judges one case (translator, simplifier, an oracle): a finding
// recorded with the case, a disagreement with ourselves, not the end of the campaign.

/** The throw as one line: its name, the first line of its message and the frame that threw it. */
export function thrownText(e: unknown): string {
  const err = e instanceof Error ? e : new Error(String(e));
  const at = (err.stack ?? '').split('\n').find((l) => l.trim().startsWith('at '))?.trim() ?? '';
  return `${err.name}: ${err.message.split('\n')[0]} ${at}`.trim();
}
