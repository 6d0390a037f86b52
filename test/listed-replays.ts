// The replay commands a corpus run prints must be the ones corpus/RESULTS.md lists (and the
// replay test runs): a change that alters a printed command fails here until
// `npx sched corpus --all --results` is run again.

import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { parseReplaysTable, type Row } from '../corpus/run.ts';

export function expectListedReplays(rows: readonly Row[]): void {
  const listed = new Map(parseReplaysTable(readFileSync('corpus/RESULTS.md', 'utf8')).map((l) => [`${l.file} ${l.impl}`, l.command]));
  const printed = rows.filter((r) => r.replay !== null || r.got.startsWith('invalid')).map((r) => [`${r.file} ${r.impl}`, r.replay]);
  expect(printed.map(([k]) => [k, listed.get(k!) ?? 'not listed in corpus/RESULTS.md (npx sched corpus --all --results)'])).toEqual(printed);
}
