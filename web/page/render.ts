// Drawing engine answers as DOM: memory tables, the derivation tree, small-step terms, schedules
// and the explored state graph (SVG). Pure functions of the answers: nothing here computes
// semantics.

import type { DerivNode, GraphEdge, GraphNode, JsonValue, MemoryTable, StepInfo, TermView } from '../protocol.ts';

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...kids: (Node | string | null)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of kids) if (c !== null) e.append(c);
  return e;
}

function cellText(v: JsonValue): string {
  if (v === null) return '⊥';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6)));
  return String(v);
}

/** One array as a table: rows over the first dimension (or the leading ones), columns over the last. */
export function memoryTable(m: MemoryTable, compare?: MemoryTable): HTMLElement {
  const box = h('div', { class: `mem mem-${m.role}` });
  box.append(h('div', { class: 'mem-title' }, `${m.name}`, h('span', { class: 'mem-type' }, ` ${m.role} ${m.elem}[${m.dims.join(', ')}]`)));
  const cols = m.dims.length === 0 ? 1 : m.dims[m.dims.length - 1]!;
  const table = h('table', { class: 'cells' });
  const lead = m.dims.slice(0, -1);
  const rows = cols === 0 ? 0 : Math.ceil(m.cells.length / cols);
  if (m.dims.length >= 1) {
    const head = h('tr', {}, h('th', {}, ''));
    for (let j = 0; j < Math.min(cols, 64); j++) head.append(h('th', {}, String(j)));
    table.append(head);
  }
  for (let r = 0; r < rows && r < 64; r++) {
    let rest = r;
    const idx: number[] = [];
    for (let d = lead.length - 1; d >= 0; d--) {
      idx.unshift(rest % lead[d]!);
      rest = Math.floor(rest / lead[d]!);
    }
    const tr = h('tr', {}, m.dims.length >= 1 ? h('th', {}, idx.length ? idx.join(',') : '') : null);
    for (let j = 0; j < cols && j < 64; j++) {
      const k = r * cols + j;
      const v = m.cells[k] ?? null;
      const changed = compare !== undefined && compare.cells[k] !== v;
      tr.append(h('td', { class: `${v === null ? 'bot' : ''}${changed ? ' changed' : ''}`, title: `${m.name}[${[...idx, j].slice(0, m.dims.length).join(', ')}] = ${v === null ? '⊥' : String(v)}` }, cellText(v)));
    }
    table.append(tr);
  }
  box.append(table);
  if (m.truncated || rows > 64 || cols > 64) box.append(h('div', { class: 'note' }, 'only the first cells are shown'));
  return box;
}

export function memories(ms: readonly MemoryTable[], compare?: readonly MemoryTable[]): HTMLElement {
  const d = h('div', { class: 'mems' });
  for (const m of ms) d.append(memoryTable(m, compare?.find((c) => c.name === m.name)));
  return d;
}

/** The derivation as nested <details>, children drawn when opened. */
export function derivation(n: DerivNode, onLine: (line: number) => void, open = true): HTMLElement {
  const d = h('details', { class: `deriv rule-${n.rule}` });
  const head = h('summary', {}, h('span', { class: 'rule' }, n.rule), n.line ? h('a', { class: 'line', href: '#' }, `line ${n.line}`) : null, n.env ? h('span', { class: 'env' }, ` [${n.env}]`) : null, n.facts ? h('span', { class: 'facts' }, ` ${n.facts}`) : null, h('span', { class: 'dmu', title: 'δμ (the writes of this derivation) and the size of ρ (its reads)' }, ` δμ ${n.dmuSize ? `{${n.dmu}}` : '∅'} · |ρ| = ${n.rhoSize}`));
  head.querySelector('a.line')?.addEventListener('click', (e) => {
    e.preventDefault();
    onLine(n.line);
  });
  d.append(head);
  let drawn = false;
  const draw = (): void => {
    if (drawn) return;
    drawn = true;
    for (const p of n.premises) d.append(derivation(p, onLine, false));
    if (n.omitted > 0) d.append(h('div', { class: 'note' }, `… ${n.omitted} more premises (the page shows the first nodes of large trees)`));
  };
  d.addEventListener('toggle', draw);
  if (open && n.premises.length > 0) {
    d.open = true;
    draw();
  }
  return d;
}

export function term(t: TermView, onLine: (line: number) => void): HTMLElement {
  switch (t.k) {
    case 'skip':
      return h('div', { class: 'term skip' }, 'skip');
    case 'code':
    case 'loop': {
      const e = h('div', { class: `term ${t.k}`, title: `line ${t.line}` }, h('pre', {}, t.k === 'loop' ? `⟨unrolled ${t.n - t.from}×⟩ ${t.text}` : t.text), t.env ? h('div', { class: 'env' }, `[${t.env}]`) : null);
      e.addEventListener('mouseenter', () => onLine(t.line));
      return e;
    }
    case 'seq':
      return h('div', { class: 'term seq' }, ...t.items.map((x, i) => (i === 0 ? term(x, onLine) : h('div', { class: 'seq-item' }, h('span', { class: 'semi' }, ';'), term(x, onLine)))));
    case 'par':
      return h('div', { class: 'term par' }, ...t.threads.map((x, i) => h('div', { class: 'thread' }, h('div', { class: 'thread-name' }, `thread ${i}`), term(x, onLine))));
    case 'inalloc':
      return h('div', { class: 'term inalloc' }, h('div', { class: 'env' }, `inalloc ${t.array} do`), term(t.body, onLine));
  }
}

export function schedule(steps: readonly StepInfo[], onLine: (line: number) => void, diverge = -1): HTMLElement {
  const ol = h('ol', { class: 'schedule' });
  steps.forEach((s, i) => {
    const li = h('li', { class: i === diverge ? 'diverge' : '' }, h('span', { class: `rule rule-${s.rule}` }, s.rule), h('span', { class: 'thr', title: 'thread: the ‖ sides from the root' }, s.thread), h('span', { class: 'text' }, s.text.slice(s.rules.length).trim() || s.rules));
    li.title = s.rules;
    if (s.line !== null) li.addEventListener('mouseenter', () => onLine(s.line!));
    ol.append(li);
  });
  return ol;
}

const FINAL_COLORS = ['#2e7d32', '#ef6c00', '#6a1b9a', '#00838f'];

/** The state graph, drawn in layers by the length of the shortest schedule reaching each state. */
export function graph(nodes: readonly GraphNode[], edges: readonly GraphEdge[]): SVGSVGElement {
  const NS = 'http://www.w3.org/2000/svg';
  const layers = new Map<number, GraphNode[]>();
  for (const n of nodes) layers.set(n.depth, [...(layers.get(n.depth) ?? []), n]);
  const maxLayer = Math.max(1, ...[...layers.values()].map((l) => l.length));
  const depthMax = Math.max(0, ...nodes.map((n) => n.depth));
  const W = Math.max(260, maxLayer * 40);
  const ROW = depthMax > 12 || nodes.length > 40 ? 28 : 40;
  const H = (depthMax + 1) * ROW + 24;
  const pos = new Map<number, [number, number]>();
  for (const [d, l] of layers) l.forEach((n, i) => pos.set(n.id, [((i + 1) * W) / (l.length + 1), 14 + d * ROW]));
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('width', String(W));
  svg.setAttribute('height', String(H));
  svg.setAttribute('class', 'graph');
  const defs = document.createElementNS(NS, 'defs');
  defs.innerHTML = '<marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#888"/></marker>';
  svg.append(defs);
  const labels = edges.length <= 80;
  for (const e of edges) {
    const a = pos.get(e.from);
    const b = pos.get(e.to);
    if (!a || !b) continue;
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    const len = Math.max(1, Math.hypot(dx, dy));
    const line = document.createElementNS(NS, 'line');
    line.setAttribute('x1', String(a[0] + (dx / len) * 8));
    line.setAttribute('y1', String(a[1] + (dy / len) * 8));
    line.setAttribute('x2', String(b[0] - (dx / len) * 9));
    line.setAttribute('y2', String(b[1] - (dy / len) * 9));
    line.setAttribute('class', `edge edge-${e.rule}`);
    line.setAttribute('marker-end', 'url(#arrow)');
    const title = document.createElementNS(NS, 'title');
    title.textContent = `${e.text} (thread ${e.thread})`;
    line.append(title);
    svg.append(line);
    if (labels) {
      const tx = document.createElementNS(NS, 'text');
      tx.setAttribute('x', String((a[0] + b[0]) / 2 + 3));
      tx.setAttribute('y', String((a[1] + b[1]) / 2));
      tx.setAttribute('class', 'edge-label');
      tx.textContent = `${e.rule.replace(/^PAR-SKIP-/, 'PS-').replace(/^SEQ-SKIP$/, 'SS')}${e.thread !== '·' ? ` ${e.thread}` : ''}`;
      svg.append(tx);
    }
  }
  for (const n of nodes) {
    const p = pos.get(n.id)!;
    const c = document.createElementNS(NS, 'circle');
    c.setAttribute('cx', String(p[0]));
    c.setAttribute('cy', String(p[1]));
    c.setAttribute('r', n.kind === 'inner' ? '6' : '8');
    c.setAttribute('class', `node node-${n.kind}`);
    if (n.kind === 'final') c.setAttribute('fill', FINAL_COLORS[(n.final ?? 0) % FINAL_COLORS.length]!);
    const title = document.createElementNS(NS, 'title');
    title.textContent = `state ${n.id} (${n.kind}${n.final !== null ? ` — final memory ${n.final + 1}` : ''}), ${n.depth} steps from the start`;
    c.append(title);
    svg.append(c);
  }
  return svg;
}

export { FINAL_COLORS };
