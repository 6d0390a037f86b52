// The playground page: an editor, the corpus as examples, parameters as inputs, and one panel
// per engine (run, step, explore, verify). Every panel draws an engine's answer (web/api.ts via
// the server); input errors come back as diagnostics and show in the editor.

import './style.css';
import type { CheckAnswer, Diag, Example, ExploreAnswer, ImplInfo, Refused, RunAnswer, RunRequest, StepAnswer, VerifyAnswer } from '../protocol.ts';
import { createEditor, type Mark } from './editor.ts';
import { derivation, FINAL_COLORS, graph, h, memories, schedule, term } from './render.ts';

const API = new URLSearchParams(location.search).get('api')?.replace(/\/?$/, '/') ?? '';
const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

/** No answer: the server is unreachable, or a bug in sched (never an input error). */
interface Failure {
  readonly failure: string;
}

/** In a static copy of the page (no server): the engines running in the page (web/page-engines/). */
let local: { call(name: string, body: unknown): Promise<object> } | null = null;

async function post<T>(name: string, body: object): Promise<T | Refused | Failure> {
  if (local) {
    try {
      return (await local.call(name, body)) as T | Refused;
    } catch (e) {
      return { failure: `the engines in the page failed: ${String((e as Error).stack ?? e)}` };
    }
  }
  try {
    const r = await fetch(`${API}api/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const j = (await r.json()) as T | Refused | Failure;
    return j;
  } catch (e) {
    return { failure: `no answer from the engine server (${String(e)}); start it with: npx sched serve` };
  }
}

/** The file name of a text that is no example's (typed or pasted over an example). */
const UNTITLED = 'untitled.sched';
/** The example the page opens on when the address names none (the tutorial's kernel). */
const FIRST_EXAMPLE = 'examples/tutorial_blur3.sched';

const state = {
  file: UNTITLED,
  /** Bumped at every edit: an answer computed for an earlier version is not of the current text. */
  version: 0,
  impls: [] as readonly ImplInfo[],
  impl: '',
  params: {} as Record<string, Record<string, string>>,
  choices: [] as number[],
  checked: 0,
};

// ---------------------------------------------------------------------------------------------
// Editor, examples, impls and parameters

let checkTimer: ReturnType<typeof setTimeout> | undefined;
const editor = createEditor(
  $('editor'),
  (replaced) => {
    state.version++;
    if (replaced) state.file = UNTITLED;
    clearTimeout(checkTimer);
    checkTimer = setTimeout(() => void check(), 500);
    state.choices = [];
    // Until the text is checked again, what is shown is of the text as it was.
    $('diagnostics').classList.add('pending');
    for (const p of panels) markStale($(`panel-${p}`));
  },
  // Ctrl/Cmd-Enter: the action of the panel shown.
  () => document.getElementById(`do-${panels.find((p) => $(`panel-${p}`).classList.contains('active')) ?? 'verify'}`)?.click(),
);

function showDiagnostics(ds: readonly Diag[]): void {
  editor.diagnose(ds);
  const box = $('diagnostics');
  box.replaceChildren(...ds.map((d) => {
    const a = h('a', { href: '#', class: 'diag' }, `${state.file}:${d.line}:${d.col}: ${d.phase} error: ${d.message}`);
    a.addEventListener('click', (e) => {
      e.preventDefault();
      editor.reveal(d.line);
    });
    return a;
  }));
  box.classList.toggle('has', ds.length > 0);
}

/**
 * An answer on the screen that is not of the current text: said so on the panel, and its marks
 * (counterexample, race, step) are gone with the edit that made it stale.
 */
function markStale(panel: HTMLElement): void {
  const answer = panel.querySelector('.answer');
  if (!answer || answer.classList.contains('stale')) return;
  answer.classList.add('stale');
  answer.prepend(h('div', { class: 'stale-note' }, 'of an earlier text: the text has changed since (press the button again)'));
}

/** The text does not check: no panel shows an answer about it (the diagnostics say why). */
function clearPanels(): void {
  for (const p of panels) $(`panel-${p}`).replaceChildren(h('div', { class: 'note cleared' }, `the text does not check (see the errors under the editor): nothing to ${p} until it does`));
  editor.mark([]);
}

async function check(): Promise<void> {
  const n = ++state.checked;
  const r = await post<CheckAnswer>('check', { source: editor.text(), file: state.file });
  if (n !== state.checked) return; // a newer edit is being checked
  $('diagnostics').classList.remove('pending');
  if ('failure' in r) return showDiagnostics([{ line: 1, col: 1, phase: 'server', message: r.failure }]);
  if ('refused' in r) {
    showDiagnostics(r.diagnostics);
    return clearPanels();
  }
  showDiagnostics(r.diagnostics);
  if (r.diagnostics.length > 0) return clearPanels();
  state.impls = r.impls;
  const sel = $<HTMLSelectElement>('impl');
  const keep = r.impls.some((i) => i.name === state.impl) ? state.impl : (r.impls[0]?.name ?? '');
  sel.replaceChildren(...r.impls.map((i) => h('option', { value: i.name }, `${i.name} (of ${i.spec})`)));
  sel.value = keep;
  selectImpl(keep, false);
}

function currentImpl(): ImplInfo | undefined {
  return state.impls.find((i) => i.name === state.impl);
}

function selectImpl(name: string, reveal: boolean): void {
  state.impl = name;
  const info = currentImpl();
  const box = $('params');
  box.replaceChildren();
  if (!info) return;
  const mine = (state.params[name] ??= { ...info.defaults });
  for (const p of info.params) {
    const input = h('input', { size: '3', 'data-param': p, value: mine[p] ?? info.defaults[p] ?? '1' });
    input.addEventListener('change', () => {
      mine[p] = input.value;
      state.choices = [];
    });
    box.append(h('label', {}, `${p} `, input));
  }
  $('expect').textContent = info.expect ? `expected: ${info.expect}` : '';
  if (reveal) editor.reveal(info.line);
}

$<HTMLSelectElement>('impl').addEventListener('change', (e) => {
  selectImpl((e.target as HTMLSelectElement).value, true);
  state.choices = [];
});

async function loadExamples(): Promise<Example[]> {
  let list: Example[] = [];
  let from = `${API}api/example/`;
  try {
    const r = await fetch(`${API}api/examples`);
    if (!r.ok) throw new Error(String(r.status));
    list = (await r.json()) as Example[];
  } catch {
    // A static copy of the page: its examples are files beside it, and it runs the engines itself.
    list = (await (await fetch('examples.json')).json()) as Example[];
    from = 'examples/';
    const url = new URL('engines.js', location.href).href;
    local = (await import(/* a file beside the page, not bundled */ url)) as typeof local;
    $('cost').textContent = 'engines and Z3 in this page';
  }
  const sel = $<HTMLSelectElement>('example');
  sel.replaceChildren(h('option', { value: '' }, '— pick an example —'), ...list.map((e) => h('option', { value: e.path, title: e.title }, e.path)));
  sel.addEventListener('change', async () => {
    if (!sel.value) return;
    const text = await (await fetch(`${from}${sel.value}`)).text();
    editor.setText(text);
    state.file = sel.value.split('/').pop()!;
    state.impl = '';
    state.params = {};
    for (const p of panels) $(`panel-${p}`).replaceChildren(h('div', { class: 'note' }, `pick an impl, then press ${p} (or Ctrl-Enter in the editor)`));
    clearTimeout(checkTimer);
    await check();
  });
  return list;
}

function request(): { source: string; file: string; impl: string; params: Record<string, string>; seed: string } {
  return { source: editor.text(), file: state.file, impl: state.impl, params: { ...(state.params[state.impl] ?? {}) }, seed: $<HTMLInputElement>('seed').value };
}

// ---------------------------------------------------------------------------------------------
// Panels

const panels = ['run', 'step', 'explore', 'verify'] as const;
type PanelName = (typeof panels)[number];

function show(tab: PanelName): void {
  for (const p of panels) {
    $(`panel-${p}`).classList.toggle('active', p === tab);
    document.querySelector(`#tabs button[data-tab=${p}]`)?.classList.toggle('active', p === tab);
  }
}

for (const b of document.querySelectorAll<HTMLButtonElement>('#tabs button')) b.addEventListener('click', () => show(b.dataset.tab as PanelName));

/** Show an answer's cost, or its failure; returns the answer when it is one. */
function settle<T extends { cost: { wallMs: number; cpuMs: number | null } }>(panel: HTMLElement, what: string, r: T | Refused | Failure): T | null {
  panel.dataset.busy = '';
  delete panel.dataset.busy;
  if ('failure' in r) {
    panel.replaceChildren(h('div', { class: 'failure' }, r.failure));
    return null;
  }
  if ('refused' in r) {
    showDiagnostics(r.diagnostics);
    panel.replaceChildren(h('div', { class: 'failure refused' }, `${what}: not started — ${r.diagnostics.map((d) => `line ${d.line}: ${d.message}`).join('; ')}`));
    return null;
  }
  $('cost').textContent = `${what}: ${r.cost.wallMs} ms${r.cost.cpuMs !== null ? `, CPU ${r.cost.cpuMs} ms` : ''}`;
  panel.dataset.wallMs = String(r.cost.wallMs);
  panel.dataset.cpuMs = String(r.cost.cpuMs ?? '');
  return r;
}

function busy(panel: HTMLElement, text: string): void {
  panel.dataset.busy = 'true';
  panel.replaceChildren(h('div', { class: 'busy' }, text));
}

const onLine = (line: number): void => editor.reveal(line);

/** An answer's marks on the source, if it is still of the text in the editor; else it is stale. */
function showMarks(asked: number, panel: HTMLElement, marks: readonly Mark[]): void {
  if (asked === state.version) editor.mark(marks);
  else markStale(panel);
}

// run ----------------------------------------------------------------------------------------

async function doRun(extra: Partial<RunRequest> = {}, title = 'run'): Promise<void> {
  const panel = $('panel-run');
  show('run');
  busy(panel, 'running the big-step semantics…');
  const asked = state.version;
  const r = settle(panel, title, await post<RunAnswer>('run', { ...request(), ...extra }));
  if (!r) return;
  const marks: Mark[] = [];
  const out = h('div', { class: 'answer', 'data-outcome': r.outcome });
  out.append(h('div', { class: `outcome outcome-${r.outcome}` }, h('b', {}, r.outcome), ` — ${r.summary.replace(/^(match|mismatch|error)(: | \()/, (_m, _o: string, sep: string) => (sep === ' (' ? '(' : ''))}`));
  if (extra.params) out.append(h('div', { class: 'note' }, `replay with ${Object.entries(extra.params).map(([k, v]) => `${k} = ${v}`).join(', ')}, seed ${extra.seed ?? 0}, ${extra.family ?? 'default'} inputs${extra.inputValues?.length ? `, ${extra.inputValues.map((v) => `${v.tensor}(${v.point.join(',')}) = ${v.value}`).join(', ')}` : ''}`));
  if (r.error) {
    const e = r.error;
    const env = Object.entries(e.env).map(([k, v]) => `${k} = ${v}`).join(', ');
    out.append(h('div', { class: `error error-${e.kind}` }, h('b', {}, `${e.kind} (${e.rule})`), ` ${e.message}`, env ? h('div', { class: 'env' }, `[${env}]`) : null));
    if (e.line > 0) marks.push({ line: e.line, col: e.col, kind: e.kind === 'race' ? 'race' : 'cex', label: e.iterations ? `${e.kind}: iteration ${e.iterations.second} of par ${e.iterations.loop}` : `${e.kind}${e.location ? ` at ${e.location}` : ''}` });
    if (e.other) marks.push({ line: e.other.line, col: e.other.col, kind: 'race', label: e.iterations ? `${e.kind}: iteration ${e.iterations.first} of par ${e.iterations.loop}` : 'the other access' });
  }
  for (const m of r.mismatches) out.append(h('div', { class: 'mismatch' }, `${m.array}[${m.index.join(', ')}]: expected ${m.expected}, got ${m.actual === null ? '⊥' : m.actual}`));
  out.append(h('div', { class: 'cols' }, h('div', {}, h('h3', {}, 'memory before (μ)'), memories(r.before)), h('div', {}, h('h3', {}, 'memory after (μ ▷ δμ)'), memories(r.after, r.before))));
  if (r.derivation) {
    out.append(h('h3', {}, `derivation (${r.derivationNodes} nodes shown)`), derivation(r.derivation, onLine));
  } else out.append(h('h3', {}, 'derivation'), h('div', { class: 'note' }, 'no big-step derivation exists for this run (see the error above)'));
  panel.replaceChildren(out);
  showMarks(asked, panel, marks);
}

// step ---------------------------------------------------------------------------------------

async function doStep(): Promise<void> {
  const panel = $('panel-step');
  show('step');
  busy(panel, 'reducing…');
  const asked = state.version;
  const r = settle(panel, `step ${state.choices.length}`, await post<StepAnswer>('step', { ...request(), choices: state.choices }));
  if (!r) return;
  state.choices = state.choices.slice(0, r.taken.length);
  const ctl = h('div', { class: 'controls' });
  const button = (label: string, f: () => void, enabled = true, id = ''): HTMLButtonElement => {
    const b = h('button', id ? { id } : {}, label);
    b.disabled = !enabled;
    b.addEventListener('click', f);
    ctl.append(b);
    return b;
  };
  button('⟲ reset', () => {
    state.choices = [];
    void doStep();
  }, r.taken.length > 0, 'step-reset');
  button('◀ back', () => {
    state.choices.pop();
    void doStep();
  }, r.taken.length > 0, 'step-back');
  button('step ▶', () => {
    state.choices.push(0);
    void doStep();
  }, r.status === 'running', 'step-next');
  button('10 steps ▶▶', () => {
    for (let i = 0; i < 10; i++) state.choices.push(0);
    void doStep();
  }, r.status === 'running', 'step-ten');
  const out = h('div', { class: 'answer', 'data-steps': String(r.taken.length), 'data-status': r.status });
  out.append(ctl, h('div', { class: 'outcome' }, h('b', {}, `${r.taken.length} steps`), ` — ${r.status === 'running' ? `${r.enabled.length} enabled step(s)` : r.status === 'final' ? `skip: ${r.comparison}` : 'stuck: no rule applies'}`));
  if (r.enabled.length > 0) {
    const list = h('ol', { class: 'schedule enabled', start: '0' });
    r.enabled.forEach((s, i) => {
      const li = h('li', {}, h('button', { class: 'take' }, 'take'), h('span', { class: `rule rule-${s.rule}` }, s.rule), h('span', { class: 'thr' }, s.thread), h('span', { class: 'text' }, s.text));
      li.querySelector('button')!.addEventListener('click', () => {
        state.choices.push(i);
        void doStep();
      });
      if (s.line !== null) li.addEventListener('mouseenter', () => onLine(s.line!));
      list.append(li);
    });
    out.append(h('h3', {}, 'next enabled steps'), list);
  }
  for (const b of r.blocked) out.append(h('div', { class: 'error' }, `no rule applies at line ${b.line}: ${b.message}`));
  out.append(h('h3', {}, 'configuration ⟨c | μ⟩: the command c'), term(r.term, onLine), h('h3', {}, 'the memory μ (cells written so far highlighted)'), memories(r.memory, r.initial));
  out.append(h('h3', {}, 'steps taken'), schedule(r.taken, onLine));
  panel.replaceChildren(out);
  const last = r.enabled[0]?.line ?? null;
  showMarks(asked, panel, last !== null ? [{ line: last, col: 0, kind: 'step', label: `next: ${r.enabled[0]!.rule}` }] : []);
}

/** States per exploration from the page (an answer within seconds; the command line has no such cap). */
const MAX_STATES = 20_000;

// explore ------------------------------------------------------------------------------------

async function doExplore(): Promise<void> {
  const panel = $('panel-explore');
  show('explore');
  busy(panel, 'exploring every interleaving…');
  const asked = state.version;
  const withPor = await post<ExploreAnswer>('explore', { ...request(), por: true, maxStates: MAX_STATES });
  const r = settle(panel, 'explore', withPor);
  if (!r) return;
  const without = await post<ExploreAnswer>('explore', { ...request(), por: false, maxStates: MAX_STATES });
  const out = h('div', { class: 'answer', 'data-outcome': r.outcome, 'data-finals': String(r.finals) });
  out.append(h('div', { class: `outcome outcome-${r.outcome}` }, h('b', {}, r.outcome), ` — ${r.finals} final memor${r.finals === 1 ? 'y' : 'ies'}${r.stuckStates ? `, ${r.stuckStates} stuck state(s)` : ''}; ${r.bigStep}`));
  if (r.limit) out.append(h('div', { class: 'error' }, `limit: ${r.limit}`));
  const side = (a: ExploreAnswer | Refused | Failure, title: string): HTMLElement => {
    if ('failure' in a || 'refused' in a) return h('div', { class: 'failure' }, `${title}: ${'failure' in a ? a.failure : 'refused'}`);
    return h('div', { class: 'graph-box' }, h('h3', {}, `${title}: ${a.states} states, ${a.transitions} transitions`), a.graph.truncated ? h('div', { class: 'note' }, `the first ${a.graph.nodes.length} states are drawn`) : null, graph(a.graph.nodes, a.graph.edges));
  };
  out.append(h('div', { class: 'legend' }, 'states: ', h('span', { class: 'key key-initial' }, 'initial'), ...r.witnesses.map((_, i) => h('span', { class: 'key', style: `background:${FINAL_COLORS[i]}` }, `final memory ${i + 1}`)), h('span', { class: 'key key-stuck' }, 'stuck'), ' · edges: rule and thread (hover for the step)'));
  out.append(h('div', { class: 'cols graphs' }, side(r, 'with partial-order reduction'), side(without, 'without reduction')));
  if (r.witnesses.length > 0) {
    const a = r.witnesses[0]!.schedule;
    const b = r.witnesses[1]?.schedule ?? [];
    let diverge = 0;
    while (diverge < a.length && diverge < b.length && a[diverge]!.text === b[diverge]!.text) diverge++;
    out.append(h('h3', {}, r.witnesses.length > 1 ? `two schedules, two final memories (they diverge at step ${diverge + 1})` : 'the final memory and a schedule reaching it'));
    out.append(h('div', { class: 'cols witnesses' }, ...r.witnesses.map((w, i) => h('div', { class: 'witness', 'data-final': String(i) }, h('h3', { style: `color:${FINAL_COLORS[i]}` }, `final memory ${i + 1}`), memories(w.memory, i === 1 ? r.witnesses[0]!.memory : r.witnesses[1]?.memory), schedule(w.schedule, onLine, r.witnesses.length > 1 ? diverge : -1)))));
  }
  if (r.stuck) out.append(h('h3', {}, 'a stuck state'), ...r.stuck.blocked.map((b) => h('div', { class: 'error' }, `line ${b.line}: ${b.message}`)), schedule(r.stuck.schedule, onLine));
  panel.replaceChildren(out);
  showMarks(asked, panel, r.stuck ? r.stuck.blocked.map((b) => ({ line: b.line, col: b.col, kind: 'race', label: b.kind })) : []);
}

// verify -------------------------------------------------------------------------------------

async function doVerify(): Promise<void> {
  const panel = $('panel-verify');
  show('verify');
  busy(panel, 'verifying (symbolic evaluation, obligations to Z3)…');
  const asked = state.version;
  const q = request();
  const r = settle(panel, 'verify', await post<VerifyAnswer>('verify', { source: q.source, file: q.file, impl: q.impl, timeoutMs: Number($<HTMLInputElement>('timeout')?.value ?? 10000) }));
  if (!r) return;
  const out = h('div', { class: 'answer', 'data-verdict': r.verdict });
  out.append(h('div', { class: `verdict verdict-${r.verdict}`, id: 'verdict' }, r.verdict, r.class ? h('span', { class: 'class' }, ` (${r.class})`) : null));
  out.append(h('div', { class: 'note' }, `impl ${r.impl} of spec ${r.spec}${r.assumptions ? `, for ${r.assumptions}` : ''} — ${r.obligations.length} obligations, float ${r.float}; symbolic ${Math.round(r.timings.symbolic)} ms (Presburger ${Math.round(r.timings.presburger)} ms), solver ${Math.round(r.timings.smt)} ms, replay ${Math.round(r.timings.replay)} ms`));
  if (r.reason) out.append(h('div', { class: 'reason' }, r.reason));
  const marks: Mark[] = [];
  if (r.counterexample) {
    const c = r.counterexample;
    const vals = Object.entries(c.values).map(([k, v]) => `${k} = ${v}`).join(', ');
    out.append(h('div', { class: 'cex', id: 'counterexample' }, h('b', {}, `counterexample (${c.obligation}, line ${c.line}): `), c.description, h('div', { class: 'env' }, vals)));
    marks.push({ line: c.line, col: c.col, kind: 'cex', label: `counterexample: ${vals}` });
  }
  const actions = h('div', { class: 'controls' });
  if (r.replay) {
    const rp = r.replay;
    const b = h('button', { id: 'replay' }, `replay: run with ${Object.entries(rp.params).map(([k, v]) => `${k} = ${v}`).join(', ')}`);
    b.title = rp.shows;
    b.addEventListener('click', () => void doRun({ params: rp.params, seed: String(rp.seed), family: rp.inputs, inputValues: rp.inputValues, checkAnnotations: rp.annotations }, 'replay'));
    actions.append(b, h('span', { class: 'note' }, ` shows ${rp.shows}`));
  }
  if (r.bundle) actions.append(h('a', { href: `${API}${r.bundle}`, download: '', id: 'bundle', class: 'button' }, 'download the certificate bundle (.tar.gz)'));
  else if (local) actions.append(h('span', { class: 'note' }, 'certificate bundles are written by sched serve (or sched verify --certs)'));
  out.append(actions);
  const table = h('table', { class: 'obligations' }, h('tr', {}, ...['id', 'rule', 'kind', 'line', 'what it proves', 'status', 'ms'].map((x) => h('th', {}, x))));
  for (const o of r.obligations) {
    const tr = h('tr', { class: `status-${o.status}` }, h('td', {}, o.id), h('td', {}, o.rule), h('td', {}, o.kind), h('td', {}, o.line ? String(o.line) : ''), h('td', {}, o.description, o.reason ? h('div', { class: 'note' }, o.reason) : null), h('td', { class: 'status', title: o.reason ?? '' }, o.status === 'unknown' && o.reason === 'not yet decided' ? 'not reached' : o.status), h('td', {}, o.ms.toFixed(0)));
    if (o.line) tr.addEventListener('mouseenter', () => onLine(o.line));
    table.append(tr);
  }
  out.append(h('h3', {}, 'proof obligations'), table);
  out.append(h('h3', {}, 'symbolic evaluation (Fig. 5.5): the heap of each assignment'), logTree(r.log));
  panel.replaceChildren(out);
  showMarks(asked, panel, marks);
}

/** The evaluation log as nested <details> (=> opens a rule, <= its results). */
function logTree(log: VerifyAnswer['log']): HTMLElement {
  const root = h('div', { class: 'log' });
  const stack: HTMLElement[] = [root];
  for (const l of log) {
    while (stack.length > l.depth + 1) stack.pop();
    const parent = stack[stack.length - 1]!;
    if (l.text.startsWith('=>')) {
      const d = h('details', { open: '' }, h('summary', {}, l.text));
      parent.append(d);
      stack.push(d);
    } else parent.append(h('div', { class: l.text.startsWith('<=') ? 'log-out' : 'log-line' }, l.text));
  }
  return root;
}

// ---------------------------------------------------------------------------------------------

function actionsBar(): void {
  const bar = h('div', { class: 'actions' });
  const add = (label: string, id: string, f: () => Promise<void>): void => {
    const b = h('button', { id }, label);
    b.addEventListener('click', () => void f());
    bar.append(b);
  };
  add('run', 'do-run', () => doRun());
  add('step', 'do-step', async () => {
    state.choices = [];
    await doStep();
  });
  add('explore', 'do-explore', doExplore);
  add('verify', 'do-verify', doVerify);
  bar.append(h('label', {}, ' solver timeout ', h('input', { id: 'timeout', value: '10000', size: '6' }), ' ms'), h('span', { class: 'note' }, ' · Ctrl-Enter in the editor: the panel shown'));
  $('tabs').after(bar);
}

actionsBar();
for (const p of panels) $(`panel-${p}`).append(h('div', { class: 'note' }, `pick an example and an impl, then press ${p}`));
show('verify');
// The page opens on an example: the one the address names (`?example=thesis/race_yxz.sched`), else
// the tutorial's kernel.
void loadExamples().then((list) => {
  const asked = new URLSearchParams(location.search).get('example');
  const want = [asked, FIRST_EXAMPLE, list[0]?.path].find((p) => p && list.some((e) => e.path === p));
  if (want) {
    const sel = $<HTMLSelectElement>('example');
    sel.value = want;
    sel.dispatchEvent(new Event('change'));
  }
});
(window as unknown as { schedPlayground: object }).schedPlayground = { editor, state };
