// The architecture as rules (docs/architecture.md explains each part and where new code goes).
// `npx depcruise .` checks them; test/architecture.test.ts runs it, so a forbidden import or an
// import cycle fails the test suite. Layers, bottom up:
//   smt → core/presburger → core/language → semantics → compilers → proofs/* → cli, api, web, …
const TOP = '^(cli|api|web|bench|corpus|test)/';

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'No two files import each other, directly or through others: a cycle has no bottom to read it from.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'smt-knows-no-sched',
      comment: 'smt/ is SMT-LIB text, models and solver processes: it imports nothing of the project.',
      severity: 'error',
      from: { path: '^smt/' },
      to: { path: '^(core|semantics|proofs|compilers|cli|api|web|bench|corpus|test)/' },
    },
    {
      name: 'presburger-below-language',
      comment: 'The Presburger library knows integer sets and relations, not SCHED: it imports smt/ only.',
      severity: 'error',
      from: { path: '^core/presburger/' },
      to: { path: '^(core/(?!presburger/)|semantics|proofs|compilers)' },
    },
    {
      name: 'core-never-imports-semantics',
      comment: 'core/ (the language and the Presburger library) is static meaning: no runs, no proofs, no compilers.',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: '^(semantics|proofs|compilers)/' },
    },
    {
      name: 'semantics-never-imports-proofs',
      comment: 'The executable semantics is the reference the verifier is tested against: it cannot lean on it.',
      severity: 'error',
      from: { path: '^semantics/' },
      to: { path: '^(proofs|compilers)/' },
    },
    {
      name: 'compilers-never-reach-the-verifier',
      comment: 'A compiler front end translates; what validates a translation sits above it (proofs/validate, proofs/fuzz).',
      severity: 'error',
      from: { path: '^compilers/' },
      to: { path: '^proofs/' },
    },
    {
      name: 'compilers-are-independent',
      comment: 'No compiler imports another; compilers/algorithm (Halide-style algorithms, schedules, their SARE) is the shared language.',
      severity: 'error',
      from: { path: '^compilers/([^/]+)/' },
      to: { path: '^compilers/', pathNot: ['^compilers/algorithm/', '^compilers/$1/'] },
    },
    {
      name: 'verifier-stands-on-semantics',
      comment: 'The verifier uses the language, the Presburger library, the semantics (replays) and smt/; nothing else of proofs/.',
      severity: 'error',
      from: { path: '^proofs/verifier/' },
      to: { path: '^(compilers/|proofs/(?!verifier/))' },
    },
    {
      name: 'certificates-above-the-verifier',
      comment: 'Certificates write and re-check what the verifier produced.',
      severity: 'error',
      from: { path: '^proofs/certificates/' },
      to: { path: '^(compilers/|proofs/(?!verifier/|certificates/))' },
    },
    {
      name: 'batch-above-certificates',
      comment: 'The worker pool verifies files and writes their bundles.',
      severity: 'error',
      from: { path: '^proofs/batch/' },
      to: { path: '^(compilers/|proofs/(?!verifier/|certificates/|batch/))' },
    },
    {
      name: 'metatheory-tests-the-engines',
      comment: 'The theorems as properties, the derivation checker and the Coq export test the semantics and the verifier, not the compilers.',
      severity: 'error',
      from: { path: '^proofs/(metatheory|coq)/' },
      to: { path: '^(compilers/|proofs/(?!verifier/|metatheory/|coq/))' },
    },
    {
      name: 'validation-below-fuzzing',
      comment: 'proofs/validate (a real compiler\'s output verified and confirmed by its execution) is used by the fuzzer, never the reverse.',
      severity: 'error',
      from: { path: '^proofs/validate/' },
      to: { path: '^proofs/(fuzz|batch|metatheory|coq)/' },
    },
    {
      name: 'fuzzer-uses-no-metatheory',
      comment: 'The fuzzer drives compilers, the verifier and the semantics; the metatheory is a separate user of them.',
      severity: 'error',
      from: { path: '^proofs/fuzz/' },
      to: { path: '^proofs/(metatheory|coq|batch)/' },
    },
    {
      name: 'engines-never-import-the-front-doors',
      comment: 'cli, api, web, bench, corpus and test use the engines; the engines never import them.',
      severity: 'error',
      from: { path: '^(smt|core|semantics|compilers|proofs)/' },
      to: { path: TOP },
    },
    {
      name: 'no-unresolvable',
      comment: 'An import that resolves to nothing is a broken build.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|web/dist|web/page-dist)/' },
    // TypeScript 7 (the project's compiler) has no JavaScript API for dependency-cruiser to parse
    // with; swc parses the sources instead and reports type-only imports like the others.
    parser: 'swc',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'], conditionNames: ['import', 'require', 'node', 'default'], exportsFields: ['exports'] },
  },
};
