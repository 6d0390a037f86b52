// Types of the generator, for bench/run.ts.
export declare function chain(S: number): string;
