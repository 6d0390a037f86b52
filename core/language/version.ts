// The tool's version, as certificates, SARIF reports and `sched --version` print it. A module of its
// own so that `sched --version` and the dispatcher load nothing else for it.
export const TOOL_VERSION = 'sched 0.1.0';
