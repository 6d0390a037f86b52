// Whether dist/ (the compiled JavaScript, `npm run build`) is the compilation of the sources as
// they are now. The build (cli/build.js) writes dist/build-stamp.json: for every source file it
// compiled or copied, its size, modification time and SHA-256, hashed *before* compiling (a file
// edited during the build is then stale). A source whose size and time match is fresh; one whose
// time changed (a checkout, `touch`) is hashed again and fresh only if its content is the same.
// Any other difference, a missing file or a missing stamp: stale, and the bin runs the TypeScript
// sources through tsx, so a developer editing sources never runs stale code.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const STAMP = 'dist/build-stamp.json';

export function fileEntry(root, rel) {
  const path = join(root, rel);
  const st = statSync(path);
  return { size: st.size, mtimeMs: st.mtimeMs, sha256: createHash('sha256').update(readFileSync(path)).digest('hex') };
}

/** Null when dist/ is fresh, else why not (for SCHED_DEBUG and the tests). */
export function staleness(root) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(root, STAMP), 'utf8'));
  } catch {
    return `no ${STAMP} (run npm run build)`;
  }
  const files = stamp?.files;
  if (files === null || typeof files !== 'object' || Object.keys(files).length === 0) return `${STAMP} lists no file`;
  for (const [rel, want] of Object.entries(files)) {
    let st;
    try {
      st = statSync(join(root, rel));
    } catch {
      return `${rel} is gone`;
    }
    if (st.size !== want.size) return `${rel} changed`;
    if (st.mtimeMs === want.mtimeMs) continue;
    const sha = createHash('sha256').update(readFileSync(join(root, rel))).digest('hex');
    if (sha !== want.sha256) return `${rel} changed`;
  }
  for (const out of stamp.outputs ?? []) {
    try {
      statSync(join(root, out));
    } catch {
      return `${out} is missing`;
    }
  }
  return null;
}
