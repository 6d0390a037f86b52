// A .tar.gz of a directory tree (POSIX ustar, regular files only), for the certificate bundle
// download: small, deterministic (fixed mtimes and owners), no dependency.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

function header(name: string, size: number): Buffer {
  const h = Buffer.alloc(512);
  const put = (text: string, at: number, len: number): void => {
    h.write(text.slice(0, len), at, len, 'utf8');
  };
  const octal = (n: number, len: number): string => n.toString(8).padStart(len - 1, '0') + '\0';
  if (Buffer.byteLength(name) > 100) throw new Error(`tar: name too long: ${name}`);
  put(name, 0, 100);
  put(octal(0o644, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(size, 12), 124, 12);
  put(octal(0, 12), 136, 12);
  h.fill(' ', 148, 156);
  put('0', 156, 1);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  let sum = 0;
  for (const b of h) sum += b;
  put(octal(sum, 7) + ' ', 148, 8);
  return h;
}

function files(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else out.push(p);
  }
  return out;
}

/** Every file below `root/dir`, named `dir/…` in the archive. */
export function tarGz(root: string, dir: string): Buffer {
  const parts: Buffer[] = [];
  for (const f of files(join(root, dir))) {
    const data = readFileSync(f);
    parts.push(header(relative(root, f), data.length), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts));
}
