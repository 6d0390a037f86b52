// Environments of compiled evaluation (thesis Fig. 4.3's E, as frames of numbered slots) and the
// numbered syntax nodes that ports and errors point at. Shared by the evaluator (eval.ts) and the
// translation to JavaScript (jsgen.ts), which import it and not each other.

import type { Pos } from '../core/language/ast.ts';
import type { Int } from './int.ts';
import type { ArrayRef } from './memory.ts';
import type { Value } from './values.ts';

/** A slot holds an affine value (ℤ or a Boolean) or an array instance (for array names). */
export type Slot = Int | boolean | ArrayRef | undefined;
export type Frame = Slot[];

export type IntFn = (f: Frame) => Int;
export type BoolFn = (f: Frame) => boolean;
export type ValFn = (f: Frame) => Value;

/** Slot numbering for one program (implementation or spec). */
export class Layout {
  readonly names: string[] = [];
  readonly kinds: ('var' | 'array')[] = [];
  fresh(name: string, kind: 'var' | 'array'): number {
    this.names.push(name);
    this.kinds.push(kind);
    return this.names.length - 1;
  }
  get size(): number {
    return this.names.length;
  }
  newFrame(): Frame {
    return new Array<Slot>(this.names.length).fill(undefined);
  }
}

/** Compile-time scope: which slot each visible name denotes (inner binders shadow outer ones). */
export class Scope {
  private constructor(
    readonly layout: Layout,
    private readonly vars: ReadonlyMap<string, number>,
    private readonly arrays: ReadonlyMap<string, number>,
  ) {}
  static root(layout: Layout): Scope {
    return new Scope(layout, new Map(), new Map());
  }
  bindVar(name: string): { scope: Scope; slot: number } {
    const slot = this.layout.fresh(name, 'var');
    return { scope: new Scope(this.layout, new Map(this.vars).set(name, slot), this.arrays), slot };
  }
  bindArray(name: string): { scope: Scope; slot: number } {
    const slot = this.layout.fresh(name, 'array');
    return { scope: new Scope(this.layout, this.vars, new Map(this.arrays).set(name, slot)), slot };
  }
  varSlot(name: string): number {
    const s = this.vars.get(name);
    if (s === undefined) throw new Error(`internal: unbound variable '${name}' (not type-checked?)`);
    return s;
  }
  arraySlot(name: string): number {
    const s = this.arrays.get(name);
    if (s === undefined) throw new Error(`internal: unbound array '${name}' (not type-checked?)`);
    return s;
  }
  /** Visible variables and arrays with their slots (for derivation nodes and traces). */
  bindings(): { vars: [string, number][]; arrays: [string, number][] } {
    return { vars: [...this.vars], arrays: [...this.arrays] };
  }
}

// ---------------------------------------------------------------------------------------------
// Sites

/** A numbered syntax node (an access or a command) with its scope, for messages. */
export interface SiteInfo {
  readonly node: object;
  readonly pos: Pos;
  readonly scope: Scope;
}

/** Numbered syntax nodes, so that ports and errors can say where an access is. */
export class Sites {
  readonly info: SiteInfo[] = [];
  add(node: object, pos: Pos, scope: Scope): number {
    this.info.push({ node, pos, scope });
    return this.info.length - 1;
  }
}

